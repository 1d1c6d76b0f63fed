// Session ids, their stored hash, CSRF tokens bound to them, and the return paths sign-in accepts.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "docshelf_session";
/** Before sign-in there is no session: the sign-in form's CSRF token is bound to this cookie instead. */
export const PRESESSION_COOKIE = "docshelf_signin";
/** How long a session lasts after sign-in (it also ends with its API token, or at sign-out). */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

const ID = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function isSecret(value: string | undefined): value is string {
  return typeof value === "string" && ID.test(value);
}

/** What is stored: sessions are looked up only by this hash, never by the cookie's value. */
export function sessionHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/** The CSRF token of a session (or pre-session) id: only its holder can compute it, and it differs from the stored hash. */
export function csrfToken(secret: string): string {
  return createHash("sha256").update(`csrf:${secret}`).digest("base64url");
}

/**
 * What binds an SSO sign-in to the browser that started it: identity keeps this with the sign-in and
 * its grant, and redeems the grant only for the same value, which only the holder of the sign-in
 * cookie can compute (so a grant of someone else's sign-in cannot be pushed into this browser).
 */
export function ssoBinding(secret: string): string {
  return createHash("sha256").update(`sso:${secret}`).digest("hex");
}

export function csrfMatches(secret: string | undefined, given: string | undefined): boolean {
  if (!isSecret(secret) || typeof given !== "string") return false;
  const expected = Buffer.from(csrfToken(secret));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A return path sign-in may send the browser back to: a path of this origin only (one leading slash,
 * no `//` or `/\`, no scheme, no control characters). Anything else returns to the app's start page.
 */
export function localReturnPath(value: string | undefined): string {
  const fallback = "/app";
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://app.invalid");
    if (url.origin !== "http://app.invalid") return fallback;
  } catch {
    return fallback;
  }
  return value;
}
