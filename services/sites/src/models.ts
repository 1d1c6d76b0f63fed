// Sites and their structure as stored: one collection per kind of node, ordered by `position`.
import type { CollectionSpec } from "@docshelf/store";

export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth"] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];
export const AGENTS_CONTEXTS = ["excluded", "included"] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];

export interface SiteDoc {
  id: string;
  organizationId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  /** Number of site spaces, kept by `$inc` on every add and removal. */
  siteSpaces: number;
  adaptiveContent: boolean;
  agentsContext: AgentsContext;
  hostname?: string;
  basename?: string;
  /** The proxy origin, e.g. `company.com/docs`; unique across sites. */
  proxyOrigin?: string;
  /** The default section; when absent or gone, the first section is the default. */
  defaultSectionId?: string;
  /** The default root-level site space (sites without sections); else the first one. */
  defaultSiteSpaceId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SectionDoc {
  id: string;
  siteId: string;
  title: string;
  /** Unique within the site (index `siteId, path`). */
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  groupId?: string;
  /** The default site space of the section; else its first one. */
  defaultSiteSpaceId?: string;
  position: number;
  createdAt: string;
}

export interface GroupDoc {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  position: number;
  createdAt: string;
}

export interface SiteSpaceDoc {
  id: string;
  siteId: string;
  spaceId: string;
  /** The section it belongs to; "" at the root of a site without sections. */
  sectionId: string;
  /** Unique within its section (or the root): index `siteId, sectionId, path`. */
  path: string;
  condition?: string;
  position: number;
  createdAt: string;
}

export interface ShareLinkDoc {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  /** SHA-256 of the key; the key itself is never stored. */
  keyHash: string;
  /** The key's first characters, not enough to use it: tells links apart in logs. */
  keyPrefix: string;
  createdAt: string;
}

/** Secrets of a site that never reach the API: the visitor-auth signing key. */
export interface SiteKeyDoc {
  /** The site's id. */
  id: string;
  visitorSigningKey: string;
}

export interface AdaptiveSchemaDoc {
  /** The site's id. */
  id: string;
  /** The JSON Schema as JSON text: its keys (`$schema`, `$id`) are not valid stored field names. */
  json: string;
  updatedAt: string;
}

/** A site's stored customization (`PUT …/customization`), merged over the defaults when read. */
export interface CustomizationDoc {
  /** The site's id. */
  id: string;
  /** The settings as JSON text, as the adaptive schema is kept. */
  json: string;
  updatedAt: string;
}

/** Where a site redirect sends a visitor (GitBook's SiteRedirectDestination). */
export type RedirectDestination =
  | { kind: "site-section"; siteSectionId: string }
  | { kind: "site-space"; siteSpaceId: string }
  | { kind: "site-page"; siteSpaceId: string; pageId: string }
  | { kind: "external"; url: string };

/** A site redirect (GitBook's SiteRedirect): one live and one draft at most per source. */
export interface RedirectDoc {
  id: string;
  siteId: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
  /** Only on redirects read from a space's `.gitbook.yaml` (git-redirects.ts), which are never stored. */
  origin?: { kind: "git-sync"; spaceId: string; file: string };
}

type Name = "sites" | "sections" | "groups" | "siteSpaces" | "shareLinks" | "siteKeys" | "adaptiveSchemas" | "customizations" | "redirects";

export const collections: Record<Name, CollectionSpec> = {
  sites: {
    name: "sites",
    indexes: [
      { fields: ["organizationId"] },
      { fields: ["hostname"], unique: true, sparse: true },
      { fields: ["proxyOrigin"], unique: true, sparse: true },
      // A basename names the site in `/sites/{basename}`, so two sites cannot share one.
      { fields: ["basename"], unique: true, sparse: true },
    ],
  },
  sections: { name: "sections", indexes: [{ fields: ["siteId", "path"], unique: true }] },
  groups: { name: "groups", indexes: [{ fields: ["siteId"] }] },
  siteSpaces: { name: "siteSpaces", indexes: [{ fields: ["siteId", "sectionId", "path"], unique: true }, { fields: ["spaceId"] }] },
  shareLinks: { name: "shareLinks", indexes: [{ fields: ["siteId"] }, { fields: ["keyHash"], unique: true }] },
  siteKeys: { name: "siteKeys" },
  adaptiveSchemas: { name: "adaptiveSchemas" },
  customizations: { name: "customizations" },
  redirects: { name: "redirects", indexes: [{ fields: ["siteId", "source", "draft"], unique: true }, { fields: ["siteId", "createdAt"] }] },
};
