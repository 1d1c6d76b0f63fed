// Where Idempotency-Key records live: one interface, kept in memory (one process) or in NATS JetStream.

/** The answer a first attempt got, replayed to every retry. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type IdempotencyRecord =
  | { state: "pending"; fingerprint: string; leaseUntil: number }
  | { state: "done"; fingerprint: string; answer: StoredAnswer };

export type ClaimResult = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Atomically makes `key` pending for this attempt unless another attempt holds it: no record, or a
   * pending one whose lease ran out (its gateway died), is claimed; anything else is returned.
   */
  claim(key: string, fingerprint: string, leaseUntil: number): Promise<ClaimResult>;
  /** Records the first attempt's answer; kept until the store's TTL. */
  complete(key: string, fingerprint: string, answer: StoredAnswer): Promise<void>;
  /** Forgets a pending key whose attempt failed, so a retry runs again. */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

const SWEEP_EVERY = 1000;

/** Records of this process only: right for the embedded default, where one gateway sees every retry. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, { record: IdempotencyRecord; expires: number }>();
  private writes = 0;

  constructor(private readonly ttlMs: number) {}

  async claim(key: string, fingerprint: string, leaseUntil: number): Promise<ClaimResult> {
    const now = Date.now();
    if (++this.writes % SWEEP_EVERY === 0) this.sweep(now);
    const current = this.records.get(key);
    const live = current && current.expires > now ? current.record : undefined;
    if (live && !(live.state === "pending" && live.leaseUntil <= now)) return { claimed: false, record: live };
    this.records.set(key, { record: { state: "pending", fingerprint, leaseUntil }, expires: now + this.ttlMs });
    return { claimed: true };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    this.records.set(key, { record: { state: "done", fingerprint, answer }, expires: Date.now() + this.ttlMs });
  }

  async release(key: string): Promise<void> {
    this.records.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.records) if (entry.expires <= now) this.records.delete(key);
  }

  async close(): Promise<void> {
    this.records.clear();
  }
}
