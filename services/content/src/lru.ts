// A Map used as a least-recently-used cache of at most `max` entries.

/** Stores `value` under `key` as the most recently used entry, dropping the least recently used beyond `max`; returns `value`. */
export function rememberLru<V>(cache: Map<string, V>, key: string, value: V, max: number): V {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > max) cache.delete(cache.keys().next().value as string);
  return value;
}

/**
 * A least-recently-used cache bounded by the total weight of its entries (for example pages of parsed
 * revisions), keeping at least `minEntries` however heavy they are.
 */
export class WeightedLru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly budget: number,
    private readonly minEntries: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` as the most recently used entry, dropping the least recently used beyond the budget; returns `value`. */
  set(key: string, value: V, weight: number): V {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.total > this.budget && this.entries.size > this.minEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
    return value;
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.weight;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }
}
