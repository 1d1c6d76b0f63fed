// What the gateway hands the app for one browser request, and what the app answers.
import type { AppUpload } from "@docshelf/contracts/app";
import { PAGE_CSP, parseCookies, pageSecurityHeaders } from "@docshelf/document";

export { parseCookies };

export interface AppRequest {
  method: "GET" | "HEAD" | "POST";
  /** The path as sent (no query string). */
  path: string;
  query: Record<string, string>;
  /** A url-encoded form body of a POST (or a multipart form's text fields). */
  form?: Record<string, string>;
  /** A multipart form's first file (the gateway reads at most 1.5 MiB of body). */
  upload?: AppUpload;
  cookie?: string;
  /** Whether the browser reached us over https (directly, or through a trusted proxy saying so). */
  secure: boolean;
  /** The gateway's request id, passed on to the calls the page makes. */
  requestID?: string;
}

export interface AppAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/**
 * The app's pages: the published pages' CSP plus the app's own built scripts (`script-src 'self'`: the small
 * script of every signed-in page, the block editor's) and what they fetch from the app (`connect-src 'self'`);
 * still no inline script, no inline handler, no eval. Every page works without its script.
 */
export const APP_CSP = `${PAGE_CSP}; script-src 'self'; connect-src 'self'`;

const SECURITY_HEADERS: Record<string, string> = {
  ...pageSecurityHeaders("same-origin"),
  "Content-Security-Policy": APP_CSP,
  // Pages show what one signed-in person may see: never stored by anyone.
  "Cache-Control": "private, no-store",
  Vary: "Cookie",
};

export function page(status: number, body: string, setCookies: string[] = []): AppAnswer {
  const headers: Record<string, string | string[]> = { ...SECURITY_HEADERS, "Content-Type": "text/html; charset=utf-8" };
  if (setCookies.length) headers["Set-Cookie"] = setCookies;
  return { status, headers, body };
}

/** 303 See Other: after a form, the browser GETs the new place. */
export function redirect(location: string, setCookies: string[] = []): AppAnswer {
  // A header carries printable ASCII only: anything else (a page path in another script) is percent-encoded.
  const headers: Record<string, string | string[]> = { ...SECURITY_HEADERS, Location: location.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)) };
  if (setCookies.length) headers["Set-Cookie"] = setCookies;
  return { status: 303, headers, body: "" };
}

export function asset(contentType: string, body: string): AppAnswer {
  return { status: 200, headers: { ...SECURITY_HEADERS, "Content-Type": contentType, "Cache-Control": "public, max-age=300" }, body };
}

/** A built file whose name holds its content's hash: cached for a year, never revalidated. */
export function immutableAsset(contentType: string, body: string): AppAnswer {
  const { Vary: _vary, ...headers } = SECURITY_HEADERS;
  return { status: 200, headers: { ...headers, "Content-Type": contentType, "Cache-Control": "public, max-age=31536000, immutable" }, body };
}

/** The block editor's page: the app's CSP (its script and the saves it posts back). */
export const EDITOR_CSP = APP_CSP;

export function scriptPage(status: number, body: string): AppAnswer {
  const answer = page(status, body);
  answer.headers["Content-Security-Policy"] = EDITOR_CSP;
  return answer;
}

/** A JSON answer to the app's scripts (the editor's, the jump dialog's, the @ suggestions'). */
export function json(status: number, value: unknown): AppAnswer {
  return { status, headers: { ...SECURITY_HEADERS, "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify(value) };
}


export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie; undefined makes it last as long as the browser session. */
  maxAge?: number;
}

/** HttpOnly, SameSite=Lax, Path=/, and Secure under https. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
