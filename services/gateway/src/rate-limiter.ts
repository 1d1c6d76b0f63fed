// Per-user and per-address request counting over a CounterStore, in one-minute fixed windows.
import { createHash } from "node:crypto";
import type { CounterStore } from "./counter-store";
import { decide, windowAt, type RateDecision, type RateWindow } from "./rate-window";

export const WINDOW_MS = 60_000;

/**
 * Who a request is counted against: the user its valid token belongs to (every token of one user shares
 * one budget, so minting tokens does not multiply it), else its address; a reader of published sites by
 * address, in a count of its own (a page view brings its stylesheet along).
 */
export type RateSubject = { kind: "user"; userId: string } | { kind: "address"; address: string } | { kind: "reader"; address: string };

export interface RateLimits {
  /** Requests per window of one user, all their tokens together (RATE_LIMIT_PER_MINUTE). */
  perUser: number;
  perAddress: number;
  /** Published-site requests per client address (0: not limited). */
  perReader?: number;
}

/** The subject's part of a counter key: store keys allow few characters (IPv6 has colons), and the bucket need not hold addresses. */
function subjectKey(subject: RateSubject): string {
  // Ids are plain base62: used as they are.
  if (subject.kind === "user" && /^[A-Za-z0-9]{1,64}$/.test(subject.userId)) return `u${subject.userId}`;
  const id = subject.kind === "user" ? `u:${subject.userId}` : subject.kind === "reader" ? `r:${subject.address}` : `a:${subject.address}`;
  return createHash("sha256").update(id).digest("hex").slice(0, 40);
}

/** At most this many subjects' counter keys are kept for the current window (see RateLimiter.keyOf). */
const KEYS_KEPT = 10_000;

export class RateLimiter {
  /** The current window, and each subject's counter key in it: users by id, addresses by kind and address. */
  private window: RateWindow = { index: -1, resetAt: 0 };
  private readonly userKeys = new Map<string, string>();
  private readonly addressKeys = new Map<string, string>();

  constructor(
    private readonly store: CounterStore,
    private readonly limits: RateLimits,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Counts this request; null when the subject's kind is not limited (limit 0). */
  hit(subject: RateSubject, nowMs = Date.now()): RateDecision | null {
    const limit = subject.kind === "user" ? this.limits.perUser : subject.kind === "reader" ? (this.limits.perReader ?? 0) : this.limits.perAddress;
    if (limit <= 0) return null;
    const index = Math.floor(nowMs / this.windowMs);
    // A request of an earlier window (a clock that stepped back) is counted there, without touching the keys.
    const window = index === this.window.index ? this.window : windowAt(nowMs, this.windowMs);
    if (window.index > this.window.index) {
      this.window = window;
      this.userKeys.clear();
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
    const keys = subject.kind === "user" ? this.userKeys : this.addressKeys;
    const id = subject.kind === "user" ? subject.userId : `${subject.kind}:${subject.address}`;
    let key = keys.get(id);
    if (key === undefined) {
      if (keys.size >= KEYS_KEPT) keys.clear();
      key = `w${window.index}.${subjectKey(subject)}`;
      keys.set(id, key);
    }
    return key;
  }
}
