// Per-token and per-address request counting over a CounterStore, in one-minute fixed windows.
import { createHash } from "node:crypto";
import type { CounterStore } from "./counter-store";
import { decide, windowAt, type RateDecision } from "./rate-window";

export const WINDOW_MS = 60_000;

/**
 * Who a request is counted against: its token (by hash) when it has a valid one, else its address; a
 * reader of published sites by address, in a count of its own (a page view brings its stylesheet along).
 */
export type RateSubject = { kind: "token"; tokenHash: string } | { kind: "address"; address: string } | { kind: "reader"; address: string };

export interface RateLimits {
  perToken: number;
  perAddress: number;
  /** Published-site requests per client address (0: not limited). */
  perReader?: number;
}

const HEX_TOKEN_HASH = /^[0-9a-f]{64}$/;

/** The subject's part of a counter key: store keys allow few characters (IPv6 has colons), and the bucket need not hold addresses. */
function subjectKey(subject: RateSubject): string {
  // A token hash is already a hex SHA-256: used as it is.
  if (subject.kind === "token" && HEX_TOKEN_HASH.test(subject.tokenHash)) return `t${subject.tokenHash}`;
  const id = subject.kind === "token" ? `t:${subject.tokenHash}` : subject.kind === "reader" ? `r:${subject.address}` : `a:${subject.address}`;
  return createHash("sha256").update(id).digest("hex").slice(0, 40);
}

export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: RateLimits,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Counts this request; null when the subject's kind is not limited (limit 0). */
  hit(subject: RateSubject, nowMs = Date.now()): RateDecision | null {
    const limit = subject.kind === "token" ? this.limits.perToken : subject.kind === "reader" ? (this.limits.perReader ?? 0) : this.limits.perAddress;
    if (limit <= 0) return null;
    const window = windowAt(nowMs, this.windowMs);
    const key = `w${window.index}.${subjectKey(subject)}`;
    // Kept for two windows so a clock a little behind on another gateway still finds it.
    const count = this.store.increment(key, 2 * this.windowMs);
    return decide(limit, count, window, nowMs);
  }
}
