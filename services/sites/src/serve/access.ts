// Who may read a published site, by its visibility: everyone (public, unlisted), holders of an active
// share key (share-link), or visitors with a JWT signed by the site's key (visitor-auth). A key or
// token given in the query is kept in an HttpOnly cookie scoped to the site, and checked again on
// every request, so a deactivated link or an expired token stops working at once.
import { errors as joseErrors, jwtVerify } from "jose";
import type { SiteDoc } from "../models";
import type { Claims } from "./conditions";
import { parseCookies } from "@docshelf/document";

export { parseCookies };

export const SHARE_COOKIE = "docshelf_share";
export const VISITOR_COOKIE = "docshelf_visitor";
/** GitBook's query parameter for a visitor token. */
export const VISITOR_TOKEN_PARAM = "jwt_token";
export const SHARE_PARAM = "share";
/** Longer values are not keys or tokens this service issues: refused without a lookup. */
const MAX_TOKEN_LENGTH = 4000;

export interface AccessRequest {
  query: Record<string, string>;
  cookies: Record<string, string>;
}

export interface AccessDeps {
  shareKeyResolves(siteId: string, key: string): Promise<boolean>;
  /** The site's visitor signing key, or null when the site has none. */
  signingKey(siteId: string): Promise<string | null>;
}

export interface CookieScope {
  path: string;
  secure: boolean;
}

export type AccessDecision =
  | { allowed: true; claims: Claims; setCookies: string[]; personal: boolean }
  | { allowed: false; status: 401 | 404; reason: string; setCookies: string[] };

export function cookie(name: string, value: string, scope: CookieScope, maxAgeSeconds?: number): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${scope.path || "/"}`, "HttpOnly", "SameSite=Lax"];
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  if (scope.secure) parts.push("Secure");
  return parts.join("; ");
}

const clear = (name: string, scope: CookieScope) => cookie(name, "", scope, 0);

/** The claims a verified token carries for conditions: everything but the registered JWT claims. */
function visitorClaims(payload: Record<string, unknown>): Claims {
  const claims: Claims = {};
  for (const [name, value] of Object.entries(payload)) {
    if (!["iss", "sub", "aud", "exp", "nbf", "iat", "jti"].includes(name)) claims[name] = value;
  }
  return claims;
}

async function shareLinkAccess(site: SiteDoc, request: AccessRequest, deps: AccessDeps, scope: CookieScope): Promise<AccessDecision> {
  const fromQuery = request.query[SHARE_PARAM];
  const key = fromQuery ?? request.cookies[SHARE_COOKIE];
  const refused = (reason: string): AccessDecision => ({
    allowed: false,
    // Without a valid key the site answers as if it were not there.
    status: 404,
    reason,
    setCookies: request.cookies[SHARE_COOKIE] !== undefined ? [clear(SHARE_COOKIE, scope)] : [],
  });
  if (!key) return refused("no share key");
  if (key.length > 256 || !(await deps.shareKeyResolves(site.id, key))) return refused("share key is not an active link of the site");
  const setCookies = fromQuery !== undefined && fromQuery !== request.cookies[SHARE_COOKIE] ? [cookie(SHARE_COOKIE, key, scope)] : [];
  return { allowed: true, claims: {}, setCookies, personal: true };
}

async function visitorAuthAccess(site: SiteDoc, request: AccessRequest, deps: AccessDeps, scope: CookieScope): Promise<AccessDecision> {
  const fromQuery = request.query[VISITOR_TOKEN_PARAM];
  const token = fromQuery ?? request.cookies[VISITOR_COOKIE];
  const refused = (reason: string): AccessDecision => ({
    allowed: false,
    status: 401,
    reason,
    setCookies: request.cookies[VISITOR_COOKIE] !== undefined ? [clear(VISITOR_COOKIE, scope)] : [],
  });
  if (!token) return refused("no visitor token");
  if (token.length > MAX_TOKEN_LENGTH) return refused("visitor token too long");
  const key = await deps.signingKey(site.id);
  if (!key) return refused("the site has no signing key");
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), {
      algorithms: ["HS256"],
      audience: site.id,
      requiredClaims: ["exp"],
    });
    const setCookies = fromQuery !== undefined ? [cookie(VISITOR_COOKIE, token, scope, (payload.exp as number) - Date.now() / 1000)] : [];
    return { allowed: true, claims: visitorClaims(payload), setCookies, personal: true };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return refused(`visitor token refused: ${err.code}`);
    throw err;
  }
}

/** Decides one request against the site's visibility. */
export async function decideAccess(site: SiteDoc, request: AccessRequest, deps: AccessDeps, scope: CookieScope): Promise<AccessDecision> {
  switch (site.visibility) {
    case "share-link":
      return shareLinkAccess(site, request, deps, scope);
    case "visitor-auth":
      return visitorAuthAccess(site, request, deps, scope);
    default:
      return { allowed: true, claims: {}, setCookies: [], personal: false };
  }
}
