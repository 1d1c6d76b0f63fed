// The contract's update as MongoDB-style modifiers, which the MongoDB adapter sends and the SQLite adapter applies (modify.ts).
import { encodeKeys } from "./keys";
import type { Update } from "./types";

/**
 * Translates the contract's update into MongoDB-style modifiers (`$unset` as an object of fields). The keys of
 * `$set` and `$push` are field paths; the keys inside their values are encoded (keys.ts).
 */
export function toModifiers<T>(update: Update<T>): Record<string, unknown> {
  const mods: Record<string, unknown> = {};
  if (update.$set) {
    const set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(update.$set)) if (v !== undefined && k !== "id") set[k] = encodeKeys(v);
    if (Object.keys(set).length) mods.$set = set;
  }
  if (update.$unset?.length) mods.$unset = Object.fromEntries(update.$unset.map((k) => [k, true]));
  if (update.$inc && Object.keys(update.$inc).length) mods.$inc = update.$inc;
  if (update.$push && Object.keys(update.$push).length) mods.$push = Object.fromEntries(Object.entries(update.$push).map(([k, v]) => [k, encodeKeys(v)]));
  if (update.$pull && Object.keys(update.$pull).length) mods.$pull = update.$pull;
  return mods;
}

