// Counts the SQLite adapter keeps up to date instead of counting again: SQLite counts by walking an index, so a
// count grows with what it counts (a space's comments: every comment of the space, at each list and at each new
// comment). A count whose query is simple enough to be decided on a document in JavaScript is kept, per
// collection, and moved by each insert and update of that collection as it happens, from the document written.
//
// Exactness: a kept count is what SQLite would count, always. The JavaScript match below answers only where it
// agrees with the SQL that queries are rendered to (sqlite-query.ts) and answers "unknown" elsewhere, which drops
// the kept count (the next count asks SQLite again). A delete drops every kept count of its collection; a failed
// commit drops every kept count of the database.

/** Kept counts per collection: at most this many each, the least recently read dropped first. */
export const KEPT_COUNTS_PER_COLLECTION = 64;

type Scalar = string | number | boolean | null;

/** A condition of a countable query: a field path (split) equal to a scalar, null meaning null or missing. */
export interface Condition {
  path: string[];
  id: boolean;
  value: Scalar;
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** The field of `{field: null}` or `{field: {$exists: false}}`, or undefined for anything else. */
function nullOrMissingBranch(branch: unknown): { field: string; missing: boolean } | undefined {
  if (branch === null || typeof branch !== "object" || Array.isArray(branch)) return undefined;
  const keys = Object.keys(branch);
  if (keys.length !== 1) return undefined;
  const value = (branch as Record<string, unknown>)[keys[0]];
  if (value === null) return { field: keys[0], missing: false };
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof RegExp)) {
    const ops = Object.keys(value);
    if (ops.length === 1 && ops[0] === "$exists" && (value as Record<string, unknown>).$exists === false) return { field: keys[0], missing: true };
  }
  return undefined;
}

/**
 * The conditions of a query made of equalities on scalars and `nullOrMissing` (filter.ts) only, on fields that
 * hold no array; undefined when the query has anything else (operators, regular expressions, array fields):
 * such counts are not kept.
 */
export function countable(query: Record<string, unknown>, arrays: ReadonlySet<string>): Condition[] | undefined {
  const conditions: Condition[] = [];
  const add = (field: string, value: Scalar): boolean => {
    const id = field === "_id" || field === "id";
    if (!id && value !== null && arrays.has(field)) return false;
    conditions.push({ path: id ? [] : field.split("."), id, value });
    return true;
  };
  for (const [key, value] of Object.entries(query)) {
    if (key === "$and") {
      if (!Array.isArray(value)) return undefined;
      for (const part of value as unknown[]) {
        // Only `{$or: [{field: null}, {field: {$exists: false}}]}`, which is how filter.ts writes null.
        if (part === null || typeof part !== "object" || Object.keys(part).length !== 1) return undefined;
        const or = (part as Record<string, unknown>).$or;
        if (!Array.isArray(or) || or.length !== 2) return undefined;
        const [a, b] = or.map(nullOrMissingBranch);
        if (!a || !b || a.field !== b.field || a.missing || !b.missing) return undefined;
        if (!add(a.field, null)) return undefined;
      }
    } else if (key.startsWith("$")) {
      return undefined;
    } else if (isScalar(value)) {
      if (!add(key, value)) return undefined;
    } else {
      return undefined;
    }
  }
  return conditions;
}

const UNKNOWN = Symbol("unknown");

/** The value at a path as SQLite's json_extract sees it: undefined (SQL NULL) through anything but an object. */
function valueAt(doc: Record<string, unknown>, path: string[]): unknown {
  let at: unknown = doc;
  for (const key of path) {
    if (at === null || typeof at !== "object" || Array.isArray(at)) return undefined;
    at = Object.prototype.hasOwnProperty.call(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/**
 * Whether `doc` (as JSON.parse read it from the stored text, id included) meets one condition, as the SQL of
 * sqlite-query.ts decides it; UNKNOWN where this does not follow SQLite exactly.
 */
function meets(doc: Record<string, unknown>, condition: Condition): boolean | typeof UNKNOWN {
  const { value } = condition;
  if (condition.id) return doc.id === value;
  const found = valueAt(doc, condition.path);
  // `IS NULL`: json_extract is NULL for a missing field and for JSON null; an array or object is their JSON text.
  if (value === null) return found === undefined || found === null;
  // `json_type(...) = 'true'` / `'false'`.
  if (typeof value === "boolean") return found === value;
  if (found === undefined || found === null) return false;
  if (typeof value === "string") {
    if (typeof found === "string") return found === value;
    if (typeof found === "number" || typeof found === "boolean") return false;
    // An object's or array's JSON text as SQLite renders it: not decided here.
    return UNKNOWN;
  }
  // A number: JSON true and false are the integers 1 and 0 to json_extract; text never equals a number.
  if (typeof found === "number") return found === value;
  if (typeof found === "boolean") return (found ? 1 : 0) === value;
  if (typeof found === "string") return false;
  return typeof found === "object" ? false : UNKNOWN;
}

/** Whether `doc` matches every condition, or UNKNOWN. */
export function matches(doc: Record<string, unknown>, conditions: Condition[]): boolean | typeof UNKNOWN {
  let unknown = false;
  for (const condition of conditions) {
    const result = meets(doc, condition);
    if (result === false) return false;
    if (result === UNKNOWN) unknown = true;
  }
  return unknown ? UNKNOWN : true;
}

export { UNKNOWN };

/** A kept count: what it counts (a countable query's conditions) and how many there are. */
interface KeptEntry {
  conditions: Condition[];
  n: number;
}

/**
 * One collection's kept counts, keyed by the count's SQL and parameters. `moved` applies a written document's
 * change (before and after, either absent) to each of them.
 */
export class KeptCounts {
  private readonly entries = new Map<string, KeptEntry>();

  get size(): number {
    return this.entries.size;
  }

  get(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently read last: the first is the one dropped when full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.n;
  }

  keep(key: string, conditions: Condition[], n: number): void {
    if (this.entries.size >= KEPT_COUNTS_PER_COLLECTION && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { conditions, n });
  }

  /** Which kept counts a document (as JSON.parse read it from its stored text, with its id) is in, before a write changes it. */
  snapshot(doc: Record<string, unknown>): Map<string, boolean | typeof UNKNOWN> {
    const out = new Map<string, boolean | typeof UNKNOWN>();
    for (const [key, entry] of this.entries) out.set(key, matches(doc, entry.conditions));
    return out;
  }

  /**
   * Moves each kept count by a write: `before` says which counts the document was in (a snapshot; undefined for
   * an insert), `after` is the document as written (as JSON.parse read it from its stored text, with its id).
   */
  moved(before: Map<string, boolean | typeof UNKNOWN> | undefined, after: Record<string, unknown>): void {
    for (const [key, entry] of this.entries) {
      // A count kept after the snapshot was taken: not decided here.
      const was = before ? (before.has(key) ? before.get(key)! : UNKNOWN) : false;
      const is = matches(after, entry.conditions);
      if (was === UNKNOWN || is === UNKNOWN) {
        this.entries.delete(key);
        continue;
      }
      entry.n += (is ? 1 : 0) - (was ? 1 : 0);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
