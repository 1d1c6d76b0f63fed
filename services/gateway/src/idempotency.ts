// Idempotency-Key semantics: which routes take it, what a valid key is, and whether to run or replay.
import { createHash } from "node:crypto";
import { Errors } from "moleculer";
import { BadRequestError, ConflictError } from "@docshelf/errors";
import type { IdempotencyStore, StoredAnswer } from "./idempotency-store";

/**
 * Routes (as written in routes/<service>.ts, without /v1) whose retries an Idempotency-Key makes
 * safe: the POSTs that create something. New create routes add themselves here. Token creation is
 * deliberately absent: a replay would have to keep the token in plain text for a day.
 */
export const IDEMPOTENT_ROUTES: readonly string[] = [
  "POST /orgs",
  "POST /orgs/:organizationId/spaces",
  "POST /users",
  "POST /spaces/:spaceId/duplicate",
  "POST /spaces/:spaceId/content/import",
  "POST /spaces/:spaceId/change-requests",
  "POST /spaces/:spaceId/change-requests/:changeRequestId/content/import",
  "POST /spaces/:spaceId/comments",
  "POST /spaces/:spaceId/comments/:commentId/replies",
  "POST /spaces/:spaceId/change-requests/:changeRequestId/comments",
  "POST /spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies",
  "POST /spaces/:spaceId/git/import",
  "POST /spaces/:spaceId/git/export",
  "POST /orgs/:organizationId/sites",
  "POST /orgs/:organizationId/openapi",
  "POST /orgs/:organizationId/collections",
  "POST /orgs/:organizationId/translations",
  "POST /org/:organizationId/imports",
];

const KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

/** The header's key, or undefined when absent; 400 when it is not 1..255 printable ASCII characters. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!KEY.test(value)) throw new BadRequestError("The Idempotency-Key header must be 1 to 255 printable ASCII characters.");
  return value;
}

/** Keys are per caller: two tokens using the same key never see each other's answers. */
export function scopedKey(callerKey: string, idempotencyKey: string): string {
  return createHash("sha256").update(`${callerKey}\n${idempotencyKey}`).digest("hex");
}

/** The same key sent again with another request: 422, as the IETF Idempotency-Key draft suggests. */
export class IdempotencyKeyReusedError extends Errors.MoleculerError {
  constructor() {
    super("This Idempotency-Key was already used with another request (method, path or body).", 422, "IDEMPOTENCY_KEY_REUSED");
  }
}

export class IdempotencyInProgressError extends ConflictError {
  constructor() {
    super("A request with this Idempotency-Key is still in progress; retry later.");
  }
}

export interface BeginOptions {
  /** How long the attempt holds the key before another gateway may take it over. */
  leaseMs: number;
  /** How long a concurrent retry waits for the first attempt's answer before 409. */
  waitMs: number;
  pollMs?: number;
}

export type Begin = { run: true } | { run: false; answer: StoredAnswer };

/**
 * Claims the key, or waits for the attempt holding it: its answer is replayed, its failure lets this
 * attempt claim the key and run. Another request under the same key is 422; still waiting at the
 * deadline is 409.
 */
export async function beginIdempotent(store: IdempotencyStore, key: string, fingerprint: string, options: BeginOptions): Promise<Begin> {
  const deadline = Date.now() + options.waitMs;
  const pollMs = options.pollMs ?? 50;
  for (;;) {
    const outcome = await store.claim(key, fingerprint, Date.now() + options.leaseMs);
    if (outcome.claimed) return { run: true };
    if (outcome.record.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
    if (outcome.record.state === "done") return { run: false, answer: outcome.record.answer };
    if (Date.now() + pollMs > deadline) throw new IdempotencyInProgressError();
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
