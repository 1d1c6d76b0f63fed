// Identifiers: 20 characters, base62, sortable by creation time within a process.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let lastTime = 0;

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62]; // 248 = 4 * 62: no modulo bias
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

/**
 * A new id: 8 characters of millisecond time (strictly increasing within this process) and 12 random.
 * Base62 in ASCII order, so ids sort by creation in both stores.
 */
export function newId(): string {
  lastTime = Math.max(Date.now(), lastTime + 1);
  return base62(lastTime, 8) + randomBase62(12);
}

/** A random secret of `bytes` bytes, URL-safe. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
