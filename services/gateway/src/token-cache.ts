// A short-lived cache of checked tokens, keyed by token hash, bounded in size.
import type { Caller } from "@docshelf/access";

const MAX_ENTRIES = 10_000;

export class TokenCache {
  private readonly entries = new Map<string, { caller: Caller; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  get(tokenHash: string): Caller | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.caller;
  }

  set(tokenHash: string, caller: Caller): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { caller, expires: Date.now() + this.ttlMs });
  }

  drop(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  clear(): void {
    this.entries.clear();
  }
}
