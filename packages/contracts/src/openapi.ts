// The openapi service's internal actions other services call (content renders spec pages from them).
import { action } from "./action";

/** A page rendered from a spec (one per tag, or the models). */
export interface RenderedSpecPage {
  slug: string;
  title: string;
  description?: string;
  markdown: string;
}

/** A spec's current version rendered as a computed page: its own body and its children in the document's tag order. */
export interface RenderedSpec {
  markdown: string;
  pages: RenderedSpecPage[];
}

/** What `openapi.renderSpecPages` answers: the rendered spec and which spec and version it is. */
export interface SpecPages extends RenderedSpec {
  spec: { object: "openapi-spec"; id: string; slug: string; lastVersion: string };
}

/** A spec's current version as a parsed OpenAPI document. */
export interface SpecContent {
  id: string;
  slug: string;
  lastVersion: string;
  document: Record<string, unknown>;
  /** Where the version was fetched from (a spec registered by URL); absent for a spec sent as text. */
  sourceURL?: string;
}

export const renderSpecPages = action<{ organizationId: string; slug: string; models?: boolean }, SpecPages | null>("openapi.renderSpecPages");
export const getSpecContent = action<{ organizationId: string; slug: string }, SpecContent | null>("openapi.getSpecContent");
/** The spec the organization registered with this source URL (exactly as registered), as getSpecContent answers it. */
export const getSpecContentBySource = action<{ organizationId: string; url: string }, SpecContent | null>("openapi.getSpecContentBySource");

/** GitBook's OpenAPISpec (only the fields callers read are typed). */
export interface SpecResource {
  object: "openapi-spec";
  id: string;
  slug: string;
  [field: string]: unknown;
}

/** The spec as the caller (`ctx.meta.user`) may see it (the app's spec page). */
export const get = action<{ organizationId: string; specSlug: string }, SpecResource>("openapi.get");
