// Password hashes: scrypt from node:crypto (memory-hard, no native addon). The stored form names its
// parameters, so they can be raised later without breaking older hashes:
// `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** OWASP's scrypt settings of equal strength to N=2^17, r=8, p=1, at 32 MiB of memory each: N=2^15, r=8, p=3. */
export const SCRYPT = { logN: 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;
export const PASSWORD_MIN = 10;
/** scrypt hashes any length, but an unbounded input is an unbounded cost to accept. */
export const PASSWORD_MAX = 256;
/** Hashes at once in this process: each holds 32 MiB, so a burst of sign-ins waits rather than takes memory. */
const CONCURRENT = 2;

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * (p + 1) + 1024 * 1024 };
  return withSlot(() => new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT.logN, SCRYPT.r, SCRYPT.p);
  return `scrypt$${SCRYPT.logN}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

/** A hash of no password anyone has: checked against when there is no account, so both cost the same. */
let dummy: Promise<string> | undefined;

/** Makes the dummy hash at start-up, so the first unknown email does not cost two hashes (and tell). */
export async function prepareDummyHash(): Promise<void> {
  await (dummy ??= hashPassword(randomBytes(16).toString("hex")));
}

/**
 * Whether `password` matches `stored`. With no stored hash (no such account, or one without a password)
 * the same work is done against a dummy hash and the answer is false: the time does not tell.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const target = stored ?? (await (dummy ??= hashPassword(randomBytes(16).toString("hex"))));
  const m = STORED.exec(target);
  if (!m) return false;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = Buffer.from(m[5], "base64url");
  const key = await derive(password, Buffer.from(m[4], "base64url"), logN, r, p);
  return stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}

/** What is wrong with a new password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `password must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `password must be at most ${PASSWORD_MAX} characters.`;
  return undefined;
}
