// Per-token and per-address request counting over a CounterStore, in one-minute fixed windows.
import { createHash } from "node:crypto";
import type { CounterStore } from "./counter-store";
import { decide, windowAt, type RateDecision, type RateWindow } from "./rate-window";

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

/** At most this many subjects' counter keys are kept for the current window (see RateLimiter.keyOf). */
const KEYS_KEPT = 10_000;

export class RateLimiter {
  /** The current window, and each subject's counter key in it: tokens by hash, addresses by kind and address. */
  private window: RateWindow = { index: -1, resetAt: 0 };
  private readonly tokenKeys = new Map<string, string>();
  private readonly addressKeys = new Map<string, string>();

  constructor(
    private readonly store: CounterStore,
    private readonly limits: RateLimits,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Counts this request; null when the subject's kind is not limited (limit 0). */
  hit(subject: RateSubject, nowMs = Date.now()): RateDecision | null {
    const limit = subject.kind === "token" ? this.limits.perToken : subject.kind === "reader" ? (this.limits.perReader ?? 0) : this.limits.perAddress;
    if (limit <= 0) return null;
    const index = Math.floor(nowMs / this.windowMs);
    // A request of an earlier window (a clock that stepped back) is counted there, without touching the keys.
    const window = index === this.window.index ? this.window : windowAt(nowMs, this.windowMs);
    if (window.index > this.window.index) {
      this.window = window;
      this.tokenKeys.clear();
      this.addressKeys.clear();
    }
    // Kept for two windows so a clock a little behind on another gateway still finds it.
    const count = this.store.increment(this.keyOf(subject, window), 2 * this.windowMs);
    return decide(limit, count, window, nowMs);
  }

  /**
   * The subject's counter key in `window`. In the current window it is built once per subject and then
   * reused: the same string each time, which the store's map finds without hashing it again.
   */
  private keyOf(subject: RateSubject, window: RateWindow): string {
    if (window !== this.window) return `w${window.index}.${subjectKey(subject)}`;
    const keys = subject.kind === "token" ? this.tokenKeys : this.addressKeys;
    const id = subject.kind === "token" ? subject.tokenHash : `${subject.kind}:${subject.address}`;
    let key = keys.get(id);
    if (key === undefined) {
      if (keys.size >= KEYS_KEPT) keys.clear();
      key = `w${window.index}.${subjectKey(subject)}`;
      keys.set(id, key);
    }
    return key;
  }
}
