// Where request counts live: one interface, kept in memory (one process) or in NATS JetStream (scaled out).

export interface CounterStore {
  /**
   * Adds one to `key` and returns the new count. A key is used for one window only; the store may
   * forget it `ttlMs` after its first count.
   */
  increment(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

const SWEEP_EVERY = 1000;

/** Counts of this process only: right for the embedded default, where one gateway sees every request. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { count: number; expires: number }>();
  private writes = 0;

  async increment(key: string, ttlMs: number): Promise<number> {
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

  async close(): Promise<void> {
    this.counts.clear();
  }
}
