// Deadlines of action calls without a timer per call (used by action-calls.ts).
import type { Context } from "moleculer";

/** How often calls past their deadline are looked for: a timeout fires up to this much late. */
export const DEADLINE_TICK_MS = 25;

export interface Pending {
  ctx: Context;
  /** Called once the deadline has passed (and not at all when the call was removed before). */
  expire(): void;
}

/**
 * Calls waiting for their deadline, in buckets of one tick each. Adding and removing a call is a Set
 * operation; one timer, which runs only while calls are waiting, rejects every call whose bucket is past.
 */
export class DeadlineWheel {
  private readonly buckets = new Map<number, Set<Pending>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly tickMs = DEADLINE_TICK_MS) {}

  /** Registers a call due at `dueMs` (epoch ms); the answer removes it again. */
  add(pending: Pending, dueMs: number): Set<Pending> {
    const bucket = Math.ceil(dueMs / this.tickMs);
    let calls = this.buckets.get(bucket);
    if (!calls) {
      calls = new Set();
      this.buckets.set(bucket, calls);
    }
    calls.add(pending);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(Date.now()), this.tickMs);
      // A waiting call must not keep the process alive by itself, as Moleculer's timers do not.
      this.timer.unref();
    }
    return calls;
  }

  /** Rejects every call whose deadline has passed at `nowMs`. */
  sweep(nowMs: number): void {
    const current = Math.floor(nowMs / this.tickMs);
    const due: Pending[] = [];
    for (const [bucket, calls] of this.buckets) {
      if (bucket > current) continue;
      this.buckets.delete(bucket);
      for (const pending of calls) due.push(pending);
    }
    if (due.length) this.expireDeepestFirst(due);
    if (this.buckets.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * A nested call inherits what is left of its caller's timeout, so both are often due in the same sweep.
   * As with one timer per call (where the nested call's, set later for less time, fires first), the nested
   * call fails first, and its caller, one turn of the event loop later, only if it has not answered by
   * then: an action that turns a nested timeout into an answer of its own (a 503, say) still gives it.
   */
  private expireDeepestFirst(due: Pending[]): void {
    const byLevel = new Map<number, Pending[]>();
    for (const pending of due) {
      const level = pending.ctx.level ?? 1;
      const calls = byLevel.get(level);
      if (calls) calls.push(pending);
      else byLevel.set(level, [pending]);
    }
    const levels = [...byLevel.keys()].sort((a, b) => b - a);
    const expireLevel = (i: number): void => {
      for (const pending of byLevel.get(levels[i])!) pending.expire();
      if (i + 1 < levels.length) setImmediate(expireLevel, i + 1);
    };
    expireLevel(0);
  }

  get size(): number {
    let n = 0;
    for (const calls of this.buckets.values()) n += calls.size;
    return n;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
