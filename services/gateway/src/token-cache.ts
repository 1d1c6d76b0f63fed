// A short-lived cache of checked tokens, keyed by token hash, bounded in size.
import type { Caller } from "@docshelf/access";

const MAX_ENTRIES = 10_000;

export class TokenCache {
  private readonly entries = new Map<string, { caller: Caller; expires: number }>();
  /** Counts drops and clears: an answer asked for before one of them may be stale, and is not kept. */
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  /**
   * The cache's generation now. Read it before asking whether a token is valid and hand it to `set`: a
   * revocation (drop or clear) that lands while the question is out makes the answer too old to keep.
   */
  epoch(): number {
    return this.generation;
  }

  get(tokenHash: string): Caller | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.caller;
  }

  /** Keeps `caller` for the token, unless a drop or clear happened since `epoch` was read (see epoch()). */
  set(tokenHash: string, caller: Caller, epoch: number): void {
    if (this.ttlMs <= 0 || epoch !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { caller, expires: Date.now() + this.ttlMs });
  }

  drop(tokenHash: string): void {
    this.generation++;
    this.entries.delete(tokenHash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
