// Temporary PDF URLs: the token names the space, change request (none: the space itself), revision and
// page, and expires in an hour.
import { createHmac, timingSafeEqual } from "node:crypto";

export const PDF_URL_TTL_MS = 60 * 60 * 1000;

export interface PdfClaims {
  spaceId: string;
  /** The change request exported; absent: the space's own revision (getSpacePDF). */
  changeRequestId?: string;
  /** Who asked for a space's PDF: the download checks they can still read the space. */
  userId?: string;
  revision: string;
  page?: string;
  only?: boolean;
  /** Expiry, ms since the epoch. */
  exp: number;
}

function sign(key: string, payload: string): string {
  return createHmac("sha256", key).update(payload).digest("base64url");
}

export function signPdfToken(key: string, claims: PdfClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${payload}.${sign(key, payload)}`;
}

/** The claims of a token this service signed and that has not expired, else null. */
export function verifyPdfToken(key: string, token: string, now = Date.now()): PdfClaims | null {
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as PdfClaims;
    return typeof claims.exp === "number" && claims.exp > now ? claims : null;
  } catch {
    return null;
  }
}
