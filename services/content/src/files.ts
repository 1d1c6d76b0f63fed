// The signed capability tokens of download URLs. The bytes themselves are the store's blobs named "files"
// (DATA_DIR/content/files/<sha256> on the embedded store, the content_files GridFS bucket in MongoDB).
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A download token names the bytes (sha256) and the file's metadata, signed with the service's key:
 * whoever holds the URL may read that file, and nothing else can be derived from it.
 */
export interface FileClaims {
  sha256: string;
  name: string;
  contentType: string;
}

export function signFileToken(key: string, claims: FileClaims): string {
  const body = Buffer.from(JSON.stringify([claims.sha256, claims.name, claims.contentType])).toString("base64url");
  const mac = createHmac("sha256", key).update(body).digest("base64url");
  return `${body}.${mac}`;
}

export function verifyFileToken(key: string, token: string): FileClaims | null {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const expected = createHmac("sha256", key).update(body).digest();
  let given: Buffer;
  try {
    given = Buffer.from(mac, "base64url");
  } catch {
    return null;
  }
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [sha256, name, contentType] = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown[];
    if (typeof sha256 !== "string" || typeof name !== "string" || typeof contentType !== "string") return null;
    return { sha256, name, contentType };
  } catch {
    return null;
  }
}
