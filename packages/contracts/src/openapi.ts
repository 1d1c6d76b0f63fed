// The openapi service's internal actions other services call (content renders spec pages from them).
import { action } from "./action";

/** A spec's current version, rendered as pages (only the fields callers read are typed). */
export interface SpecPages {
  spec: { object: "openapi-spec"; id: string; slug: string; lastVersion: string };
  [field: string]: unknown;
}

/** A spec's current version as a parsed OpenAPI document. */
export interface SpecContent {
  id: string;
  slug: string;
  lastVersion: string;
  document: Record<string, unknown>;
}

export const renderSpecPages = action<{ organizationId: string; slug: string; models?: boolean }, SpecPages | null>("openapi.renderSpecPages");
export const getSpecContent = action<{ organizationId: string; slug: string }, SpecContent | null>("openapi.getSpecContent");
