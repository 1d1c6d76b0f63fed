// A Map used as a least-recently-used cache of at most `max` entries.

/** Stores `value` under `key` as the most recently used entry, dropping the least recently used beyond `max`; returns `value`. */
export function rememberLru<V>(cache: Map<string, V>, key: string, value: V, max: number): V {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > max) cache.delete(cache.keys().next().value as string);
  return value;
}
