// What identity's browser pages share: the facts the gateway passes (cookie, client address, https),
// a CSRF token bound to a cookie of identity's own, and the HTML frame of a page.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { ForbiddenError } from "@docshelf/errors";
import type { Ctx } from "./service-types";

/** The cookie identity's forms are bound to (path /sso: the app never sees it, nor sites). */
export const FORM_COOKIE = "docshelf_sso";
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface BrowserFacts {
  cookie?: string;
  address?: string;
  secure?: boolean;
}

export function browserOf(ctx: Ctx<unknown>): BrowserFacts {
  const b = (ctx.meta as { browser?: BrowserFacts }).browser;
  return b && typeof b === "object" ? b : {};
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function csrfOf(secret: string): string {
  return createHash("sha256").update(`sso-csrf:${secret}`).digest("base64url");
}

/**
 * The form secret of this browser: its cookie's, or a new one (then the answer sets the cookie). Every
 * page with a form calls it and puts `csrfOf(secret)` in the form.
 */
export function formSecret(ctx: Ctx<unknown>): string {
  const facts = browserOf(ctx);
  const existing = cookieValue(facts.cookie, FORM_COOKIE);
  if (existing && SECRET.test(existing)) return existing;
  const secret = randomBytes(32).toString("base64url");
  const attributes = ["Path=/sso", "HttpOnly", "SameSite=Lax", "Max-Age=3600", ...(facts.secure ? ["Secure"] : [])];
  (ctx.meta as { $setCookie?: string }).$setCookie = `${FORM_COOKIE}=${secret}; ${attributes.join("; ")}`;
  return secret;
}

/** 403 unless the posted `_csrf` is the one of this browser's form cookie (login CSRF, forced resets). */
export function assertCsrf(ctx: Ctx<unknown>, given: string | undefined): void {
  const secret = cookieValue(browserOf(ctx).cookie, FORM_COOKIE);
  const ok = !!secret && SECRET.test(secret) && typeof given === "string" && (() => {
    const expected = Buffer.from(csrfOf(secret));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  })();
  if (!ok) throw new ForbiddenError("The form's CSRF token is missing or wrong: open the page again and resend the form.");
}

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Answers an HTML page: no caching, no referrer (links carry secrets), nothing but the document itself. */
export function page(ctx: Ctx<unknown>, status: number, title: string, body: string): string {
  ctx.meta.$statusCode = status;
  ctx.meta.$responseType = "text/html; charset=utf-8";
  const headers: Record<string, string | string[]> = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
  const cookie = (ctx.meta as { $setCookie?: string }).$setCookie;
  if (cookie) headers["Set-Cookie"] = [cookie];
  ctx.meta.$responseHeaders = headers;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A 303 to `location` (after a form), with no caching and no referrer. */
export function seeOther(ctx: Ctx<unknown>, location: string): string {
  ctx.meta.$statusCode = 303;
  ctx.meta.$location = location;
  ctx.meta.$responseHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
  return "";
}

export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`;
}

/** A paragraph of text and the way back to the sign-in page. */
export function doneMessage(text: string): string {
  return `<p id="notice" role="status">${escape(text)}</p>\n<p><a href="/app/sign-in">Sign in</a></p>`;
}
