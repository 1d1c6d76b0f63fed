// Keyset pagination: the query that selects documents strictly after a cursor in a given order.
import { BadRequestError } from "@docshelf/errors";
import { nullOrMissing, type Primitive } from "./filter";
import type { Cursor, Sort, SortDirection } from "./types";

export function normalizeSort(sort: Sort | undefined): Sort {
  const keys = (sort ?? []).filter(([field]) => field !== "id");
  const idDirection = sort?.find(([field]) => field === "id")?.[1] ?? keys[keys.length - 1]?.[1] ?? 1;
  return [...keys, ["id", idDirection]];
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Documents equal to `value` on `key` in sort order, where null and missing are one value. */
function sameAs(key: string, value: Primitive): Record<string, unknown> {
  return value === null ? nullOrMissing(key) : { [key]: value };
}

/**
 * Documents strictly beyond `value` on `key` in `direction`, in the order both stores sort by:
 * null and missing first, then numbers, then strings, then booleans (false before true).
 * Null when nothing can be beyond it.
 */
function beyond(key: string, direction: SortDirection, value: Primitive): Record<string, unknown> | null {
  if (direction === 1) {
    if (value === null) return { [key]: { $exists: true, $ne: null } };
    if (typeof value === "boolean") return value ? null : { [key]: true };
    return { [key]: { $gt: value } };
  }
  if (value === null) return null;
  const below = typeof value === "boolean" ? (value ? { [key]: false } : null) : { [key]: { $lt: value } };
  return below ? { $or: [below, nullOrMissing(key)] } : nullOrMissing(key);
}

/** `(a > x) or (a = x and b > y) or ...`, over the sort keys with id last. */
export function afterQuery(sort: Sort, cursor: Cursor): Record<string, unknown> {
  const keys = sort.map(([field]) => (field === "id" ? "_id" : field));
  const values = [...cursor.values, cursor.id];
  if (values.length !== keys.length || !values.every(isPrimitive)) {
    throw new BadRequestError("The page token does not match this list.");
  }
  const branches: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const next = beyond(keys[i], sort[i][1], values[i]);
    if (!next) continue;
    const conditions = [...keys.slice(0, i).map((key, j) => sameAs(key, values[j])), next];
    branches.push(conditions.length === 1 ? conditions[0] : { $and: conditions });
  }
  if (branches.length === 0) return { _id: { $in: [] } };
  return branches.length === 1 ? branches[0] : { $or: branches };
}

export function sortSpec(sort: Sort): Record<string, 1 | -1> {
  const spec: Record<string, 1 | -1> = {};
  for (const [field, direction] of sort) spec[field === "id" ? "_id" : field] = direction;
  return spec;
}

/** The cursor that points just after `doc` in `sort` order. */
export function cursorOf(sort: Sort, doc: Record<string, unknown>): Cursor {
  const values = sort
    .filter(([field]) => field !== "id")
    .map(([field]) => {
      const v = field.split(".").reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), doc);
      return (v === undefined ? null : v) as Cursor["values"][number];
    });
  return { values, id: String(doc.id) };
}
