// Where request counts live: one interface, kept in memory (one process) or shared through NATS JetStream
// (scaled out). Counting itself is always local and synchronous, so no request waits on a store.

export interface CounterStore {
  /**
   * Adds one to `key` and returns its count as this gateway knows it now. A key is used for one window
   * only; the store may forget it `ttlMs` after its first count. In memory the count is exact; a shared
   * store answers the shared total read at its last flush plus this gateway's counts since.
   */
  increment(key: string, ttlMs: number): number;
  /** Sends this gateway's unsent counts to the shared store and reads the totals back (no-op in memory). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const SWEEP_EVERY = 1000;

/** Counts of this process only: right for the embedded default, where one gateway sees every request. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { count: number; expires: number }>();
  private writes = 0;

  increment(key: string, ttlMs: number): number {
    const now = Date.now();
    if (++this.writes % SWEEP_EVERY === 0) this.sweep(now);
    const entry = this.counts.get(key);
    if (!entry || entry.expires <= now) {
      this.counts.set(key, { count: 1, expires: now + ttlMs });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  /** Drops finished windows so the map does not grow with every client ever seen. */
  private sweep(now: number): void {
    for (const [key, entry] of this.counts) if (entry.expires <= now) this.counts.delete(key);
  }

  get size(): number {
    return this.counts.size;
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.counts.clear();
  }
}
