// The sites service's internal actions other services (and the gateway) call, and the answers they give.
import { action, STREAM_HEAD_META } from "./action";

/** A site a space is published on, for the space's `urls.published` (and `urls.public` when public). */
export interface SpacePublishedUrl {
  siteId: string;
  url: string;
  /** The site's visibility: a `public` one is also the space's `urls.public`. */
  visibility: string;
}

export const spacePublishedUrl = action<{ spaceId: string; shareKey?: string }, SpacePublishedUrl | null>("sites.spacePublishedUrl");
/** Whether `shareKey` is a live share link of the site. */
export const resolveShareKey = action<{ siteId: string; shareKey: string }, boolean>("sites.resolveShareKey");
/** The key that signs visitor tokens of an authenticated site; null when the site has none. */
export const visitorSigningKey = action<{ siteId: string }, { siteId: string; key: string } | null>("sites.visitorSigningKey");

/** One space of a site, as `sites.listSiteSpaces` lists it (only the fields callers read are typed). */
export interface SiteSpaceItem {
  space: { id: string };
  [field: string]: unknown;
}

export const listSiteSpaces = action<{ organizationId: string; siteId: string; limit?: number; page?: string }, { items: SiteSpaceItem[]; next?: { page: string } }>("sites.listSiteSpaces");

/** A published site the home page links to. */
export interface PublicSiteLink {
  title: string;
  url: string;
}

export const publicSites = action<{ limit: number }, PublicSiteLink[]>("sites.publicSites");

/** One GET of a published site, as the gateway forwards it. */
export interface ServeParams {
  /** The request's Host, when it may be a site's own hostname. */
  host?: string;
  /** The URL path, percent-encoded as received. */
  path: string;
  query?: Record<string, unknown>;
  cookie?: string;
  ifNoneMatch?: string;
  /** The request's Accept asks for Markdown (`text/markdown`): a page answers as its `.md` does. */
  markdown?: boolean;
  /** A POST to the site's MCP server (`{site}/~gitbook/mcp`), forwarded as it came. */
  mcp?: SiteMcpRequest;
}

/** A POST to a site's MCP server: its JSON-RPC body and the headers Streamable HTTP reads. */
export interface SiteMcpRequest {
  body: string;
  contentType?: string;
  accept?: string;
  protocolVersion?: string;
}

/** The HTTP answer the gateway sends as is. */
export interface ServeAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/**
 * A long answer (a site's /llms-full.txt) comes as a stream of its bytes (UTF-8, each chunk whole characters)
 * instead of a ServeAnswer: its status and headers are then in the call's answered meta under this key.
 */
export const SERVE_HEAD_META = STREAM_HEAD_META;
export type ServeHead = Omit<ServeAnswer, "body">;

/** Null when `host` names no site and the path is not under /sites/; a stream for a long answer (SERVE_HEAD_META). */
export const serve = action<ServeParams, ServeAnswer | NodeJS.ReadableStream | null>("sites.serve");

// The public actions the app calls as the signed-in user.

/** GitBook's Site (only the fields callers read are typed). */
export interface SiteResource {
  object: "site";
  id: string;
  title: string;
  visibility: string;
  basename?: string;
  published: boolean;
  urls: { location: string; app: string; published?: string };
  [field: string]: unknown;
}

export const list = action<{ organizationId: string; limit?: number; page?: string }, { items: SiteResource[]; next?: { page: string } }>("sites.list");
export const get = action<{ organizationId: string; siteId: string }, SiteResource>("sites.get");
export const publish = action<{ organizationId: string; siteId: string }, SiteResource>("sites.publish");
export const unpublish = action<{ organizationId: string; siteId: string }, SiteResource>("sites.unpublish");

// Administration in the app (issue 39): creating and configuring sites as the signed-in user.
export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection";
export const create = action<{ organizationId: string; title?: string; visibility?: SiteVisibility; spaces?: string[] }, SiteResource>("sites.create");
export const update = action<
  { organizationId: string; siteId: string; title?: string; visibility?: SiteVisibility; basename?: string; hostname?: string | null },
  SiteResource
>("sites.update");
export const remove = action<{ organizationId: string; siteId: string }, null>("sites.remove");
/** GitBook's SiteCustomizationSettings, whole (the app reads it, changes a few fields and puts it back). */
export type SiteCustomization = Record<string, unknown>;
export const getCustomization = action<{ organizationId: string; siteId: string }, SiteCustomization>("sites.getCustomization");
export const updateCustomization = action<{ organizationId: string; siteId: string } & SiteCustomization, SiteCustomization>("sites.updateCustomization");
export interface SiteSpaceResource {
  object: "site-space";
  id: string;
  space: { id: string; title?: string };
  title?: string;
  path?: string;
  [field: string]: unknown;
}
export const listSiteSpacesOf = action<{ organizationId: string; siteId: string; limit?: number }, { items: SiteSpaceResource[] }>("sites.listSiteSpaces");
/** GitBook's addSiteSpace; `sectionId` puts the space in a section of a site that has sections. */
export const addSiteSpace = action<{ organizationId: string; siteId: string; spaceId: string; sectionId?: string }, SiteSpaceResource>("sites.addSiteSpace");
export const removeSiteSpace = action<{ organizationId: string; siteId: string; siteSpaceId: string }, null>("sites.removeSiteSpace");
export interface ShareLinkResource {
  object: "share-link";
  id: string;
  name?: string;
  active: boolean;
  /** `published` (the URL carrying the key) only in the answer that creates the link: the key is kept hashed. */
  urls: { published?: string };
  [field: string]: unknown;
}
export const listShareLinks = action<{ organizationId: string; siteId: string; limit?: number }, { items: ShareLinkResource[] }>("sites.listShareLinks");
export const createShareLink = action<{ organizationId: string; siteId: string; name: string }, ShareLinkResource>("sites.createShareLink");
export const removeShareLink = action<{ organizationId: string; siteId: string; shareLinkId: string }, null>("sites.removeShareLink");
export interface RedirectResource {
  object: "site-redirect";
  id: string;
  source: string;
  destination: { kind: string; url?: string; path?: string; [field: string]: unknown };
  [field: string]: unknown;
}
export const listRedirects = action<{ organizationId: string; siteId: string; limit?: number }, { items: RedirectResource[] }>("sites.listRedirects");
/** Where a new redirect goes: an address, or the path of a page in one of the site's spaces. */
export type RedirectDestinationInput = { kind: "external"; url: string } | { kind: "path"; spaceId: string; path: string };
export const createRedirect = action<{ organizationId: string; siteId: string; source: string; destination: RedirectDestinationInput }, RedirectResource>("sites.createRedirect");
export const deleteRedirect = action<{ organizationId: string; siteId: string; siteRedirectId: string }, null>("sites.deleteRedirect");
