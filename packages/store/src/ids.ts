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

/** Random bytes drawn from the system a block at a time: one draw serves many ids (as crypto.randomUUID's cache). */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  return pool[poolAt++];
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62]; // 248 = 4 * 62: no modulo bias
  }
  return out;
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
