// fastest-validator rules of the service's parameters, with the interface's limits.
import { idRule } from "@docshelf/validation";
import { AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from "./models";
import { BASENAME_PATTERN } from "./site-names";

export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
/** A dotted host and one or more path segments, e.g. `company.com/docs` (GitBook's SiteProxyOrigin). */
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const opt = { optional: true } as const;
const nullable = { optional: true, nullable: true } as const;

export const siteTitleRule = { type: "string", min: 2, max: 128 } as const;
export const siteTypeRule = { type: "enum", values: [...SITE_TYPES] } as const;
export const siteVisibilityRule = { type: "enum", values: [...SITE_VISIBILITIES] } as const;
export const agentsContextRule = { type: "enum", values: [...AGENTS_CONTEXTS] } as const;
export const basenameRule = {
  type: "string",
  min: 1,
  max: 100,
  pattern: BASENAME_PATTERN,
  messages: {
    stringPattern: "The '{field}' field must be lower-case letters, digits and inner hyphens (e.g. api-docs), and not 20 letters and digits alone, the shape of a site id.",
  },
} as const;
export const hostnameRule = {
  type: "string",
  max: 512,
  pattern: HOSTNAME_PATTERN,
  messages: { stringPattern: "The '{field}' field must be a lower-case host name with at least three labels, e.g. docs.example.com." },
} as const;
export const proxyRule = {
  type: "string",
  max: 512,
  pattern: PROXY_PATTERN,
  messages: { stringPattern: "The '{field}' field must be a host and one or more path segments, e.g. company.com/docs." },
} as const;

export const sectionTitleRule = { type: "string", min: 2, max: 128 } as const;
export const pathRule = { type: "string", min: 1, max: 100 } as const;
export const conditionRule = { type: "string", min: 1, max: 1024 } as const;
export const descriptionRule = { type: "string", max: 256 } as const;
export const iconRule = { type: "string", max: 50 } as const;
export const groupTitleRule = { type: "string", min: 1, max: 100 } as const;
export const shareLinkNameRule = { type: "string", max: 50 } as const;
export const shareKeyRule = { type: "string", min: 1, max: 256, optional: true } as const;

export const siteRef = { organizationId: idRule, siteId: idRule };
export type SiteRef = { organizationId: string; siteId: string };

export { opt, nullable };
