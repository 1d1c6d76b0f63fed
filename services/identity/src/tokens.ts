// API tokens: random, recognisable by their prefix, shown once, stored only as a hash.
import { randomBytes } from "node:crypto";

export const TOKEN_PREFIX = "dsk_";

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}
