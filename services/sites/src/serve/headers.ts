// The headers every published answer carries: a strict CSP (only the site's own hashed script runs), caching
// by visibility, a strong ETag of the body, and robots rules.
import type { ServeAnswer } from "@docshelf/contracts/sites";
import { createHash } from "node:crypto";
import { EMBED_FRAME_HOSTS, pageSecurityHeaders } from "@docshelf/document";
import type { SiteVisibility } from "../models";

/**
 * The sites' CSP: the app's, plus the pages' one script (served by the site itself, no inline script,
 * no eval) and frames only from the embed allow-list (each iframe also sandboxed).
 */
export const SITE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  // The search box asks the site's own ~search.json.
  "connect-src 'self'",
  `frame-src ${EMBED_FRAME_HOSTS.map((host) => `https://${host}`).join(" ")}`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = { ...pageSecurityHeaders("strict-origin-when-cross-origin"), "Content-Security-Policy": SITE_CSP };

export type { ServeAnswer };


/** Strong validator: the body's SHA-256, so equal bodies (and only those) share it. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/** Whether an If-None-Match header names this ETag (or `*`). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === etag;
  });
}

export interface AnswerOptions {
  status: number;
  contentType: string;
  body: string;
  visibility: SiteVisibility | undefined;
  /** Answers that depend on a key or token of the visitor are never stored by shared caches. */
  personal: boolean;
  /** Page-level noindex on top of the site's rule. */
  noindex?: boolean;
  setCookies?: string[];
  ifNoneMatch?: string;
}

/** The answer with its headers; a 200 whose ETag the client already holds becomes a bodiless 304. */
export function answer(options: AnswerOptions): ServeAnswer {
  const headers: Record<string, string | string[]> = { ...SECURITY_HEADERS, "Content-Type": options.contentType };
  const cacheable = options.status === 200 && !options.personal;
  headers["Cache-Control"] = cacheable ? "public, max-age=60" : options.status === 200 ? "private, no-store" : "no-store";
  if (options.personal) headers.Vary = "Cookie";
  if (options.visibility !== "public" || options.noindex) headers["X-Robots-Tag"] = "noindex";
  if (options.setCookies?.length) headers["Set-Cookie"] = options.setCookies;
  if (options.status !== 200) return { status: options.status, headers, body: options.body };
  const etag = etagOf(options.body);
  headers.ETag = etag;
  if (notModified(options.ifNoneMatch, etag)) return { status: 304, headers, body: "" };
  return { status: 200, headers, body: options.body };
}
