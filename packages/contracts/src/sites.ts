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
