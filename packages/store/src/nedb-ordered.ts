// Ordered views of nedb's compound indexes: the newest (or oldest) documents of a group without reading them all.
import type { Filter, Primitive } from "./filter";
import type { Cursor, Doc, FindOptions, Sort } from "./types";

type Stored = Record<string, unknown> & { _id: string };

/** The part of a nedb index (not in its typings) that a view follows. */
interface NedbIndex {
  insert(doc: Stored | Stored[]): void;
  remove(doc: Stored | Stored[]): void;
  reset(newData?: Stored | Stored[]): void;
}

/** nedb's order of primitive values (null and missing first, then numbers, strings, booleans), which MongoDB shares. */
function rank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === "number") return 1;
  if (typeof value === "string") return 2;
  return 3;
}

function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 0) return 0;
  return (a as string | number | boolean) < (b as string | number | boolean) ? -1 : (a as string | number | boolean) > (b as string | number | boolean) ? 1 : 0;
}

function isPrimitiveOrMissing(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * One compound index spec `[a, b, …, s]` seen as groups of equal `a, b, …` (null and missing being one
 * value, as in the store's filters), each kept sorted by `s`, then id. It follows the nedb index of the
 * same fields: it wraps that index's insert, remove and reset, through which nedb makes every change to
 * its indexes (updates and roll-backs included) synchronously inside each operation, so the view always
 * holds what the index holds. A document whose grouping or sort value is not a primitive (an array,
 * an object) would match filters the view cannot tell; the view then turns itself off for good.
 *
 * It answers `find` with a filter of plain equalities on exactly the group fields, sorted by `s` (id as
 * the tie-breaker in the same direction), with or without a page cursor, and `count` of such a filter:
 * O(log n + limit) instead of nedb's match of every candidate and sort of them all.
 */
export class OrderedView {
  private readonly groups = new Map<string, Stored[]>();
  private usable = true;
  /** What the index held when followed, until the first read builds the groups from it (see filled()). */
  private pending: (() => Stored[]) | undefined;
  readonly groupFields: string[];
  readonly sortField: string;

  constructor(fields: string[]) {
    this.groupFields = fields.slice(0, -1).map((f) => (f === "id" ? "_id" : f));
    this.sortField = fields[fields.length - 1];
  }

  /**
   * Wraps `index` so that the view follows it. The groups are built on the first read, from `current`
   * (every document the datastore holds then), and kept from then on: an index never read this way costs
   * nothing but the wrapper.
   */
  follow(index: NedbIndex, current: () => Stored[]): void {
    const insert = index.insert.bind(index);
    const remove = index.remove.bind(index);
    const reset = index.reset.bind(index);
    this.pending = current;
    index.insert = (doc) => {
      insert(doc);
      if (!this.pending && !Array.isArray(doc)) this.add(doc);
    };
    index.remove = (doc) => {
      remove(doc);
      if (!this.pending && !Array.isArray(doc)) this.delete(doc);
    };
    index.reset = (newData) => {
      // Built again from the datastore's documents on the next read.
      this.groups.clear();
      this.usable = true;
      this.pending = current;
      reset(newData);
    };
  }

  /** Builds the groups on the first read: each sorted once, not an insertion per document. */
  private filled(): boolean {
    const current = this.pending;
    if (current) {
      this.pending = undefined;
      for (const doc of current()) {
        const key = this.keyOf(doc);
        if (key === undefined || !isPrimitiveOrMissing(doc[this.sortField])) {
          this.usable = false;
          this.groups.clear();
          break;
        }
        let group = this.groups.get(key);
        if (!group) this.groups.set(key, (group = []));
        group.push(doc);
      }
      const field = this.sortField;
      for (const group of this.groups.values()) {
        group.sort((a, b) => compareValues(a[field], b[field]) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
      }
    }
    return this.usable;
  }

  private keyOf(doc: Stored): string | undefined {
    const values: unknown[] = [];
    for (const field of this.groupFields) {
      const value = doc[field];
      if (!isPrimitiveOrMissing(value)) return undefined;
      values.push(value ?? null);
    }
    return JSON.stringify(values);
  }

  /** Position of the first entry not before (value, id) in ascending order. */
  private static lowerBound(group: Stored[], field: string, value: unknown, id: string): number {
    let lo = 0;
    let hi = group.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const entry = group[mid];
      const c = compareValues(entry[field], value) || (entry._id < id ? -1 : entry._id > id ? 1 : 0);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private add(doc: Stored): void {
    if (!this.usable) return;
    const key = this.keyOf(doc);
    const value = doc[this.sortField];
    if (key === undefined || !isPrimitiveOrMissing(value)) {
      this.usable = false;
      this.groups.clear();
      return;
    }
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = []));
    group.splice(OrderedView.lowerBound(group, this.sortField, value, doc._id), 0, doc);
  }

  private delete(doc: Stored): void {
    if (!this.usable) return;
    const key = this.keyOf(doc);
    const group = key === undefined ? undefined : this.groups.get(key);
    if (!group) return;
    const at = OrderedView.lowerBound(group, this.sortField, doc[this.sortField], doc._id);
    if (group[at]?._id !== doc._id) return;
    group.splice(at, 1);
    if (!group.length) this.groups.delete(key as string);
  }

  /** The group a filter names, or undefined when the filter is not plain equalities on exactly the group fields. */
  private groupFor(filter: Filter): Stored[] | null | undefined {
    if (!this.usable) return undefined;
    // Only a filter the view can answer builds it.
    if (!this.names(filter) || !this.filled()) return undefined;
    const key = JSON.stringify(this.groupFields.map((f) => filter[f === "_id" ? "id" : f] as Primitive));
    return this.groups.get(key) ?? null;
  }

  /** Whether `filter` is plain equalities on exactly the group fields. */
  private names(filter: Filter): boolean {
    let named = 0;
    for (const field in filter) {
      const value = filter[field];
      if (value === undefined) continue;
      if (value !== null && typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return false;
      if (!this.groupFields.includes(field === "id" ? "_id" : field)) return false;
      named++;
    }
    return named === this.groupFields.length;
  }

  /** How many documents match `filter`, or undefined when the view cannot tell. */
  count(filter: Filter): number | undefined {
    const group = this.groupFor(filter);
    return group === undefined ? undefined : (group?.length ?? 0);
  }

  /** Copies of the documents `find` would answer, or undefined when the view cannot tell. */
  find<T extends Doc>(filter: Filter, sort: Sort, options: FindOptions, copyOut: (stored: Stored) => T): T[] | undefined {
    if (sort.length !== 2 || sort[0][0] !== this.sortField || sort[1][0] !== "id" || sort[0][1] !== sort[1][1]) return undefined;
    const group = this.groupFor(filter);
    if (group === undefined) return undefined;
    if (!group) return [];
    const limit = options.limit ?? Infinity;
    const ascending = sort[0][1] === 1;
    const out: T[] = [];
    const after: Cursor | undefined = options.after;
    if (after && (after.values.length !== 1 || !isPrimitiveOrMissing(after.values[0]) || typeof after.id !== "string")) return undefined;
    if (ascending) {
      let at = after ? OrderedView.lowerBound(group, this.sortField, after.values[0], after.id) : 0;
      if (after && group[at] && compareValues(group[at][this.sortField], after.values[0]) === 0 && group[at]._id === after.id) at++;
      for (; at < group.length && out.length < limit; at++) out.push(copyOut(group[at]));
    } else {
      let at = after ? OrderedView.lowerBound(group, this.sortField, after.values[0], after.id) - 1 : group.length - 1;
      for (; at >= 0 && out.length < limit; at--) out.push(copyOut(group[at]));
    }
    return out;
  }
}
