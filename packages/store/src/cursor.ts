// Keyset pagination: the query that selects documents strictly after a cursor in a given order.
import { BadRequestError } from "@docshelf/errors";
import type { Cursor, Sort } from "./types";

export function normalizeSort(sort: Sort | undefined): Sort {
  const keys = (sort ?? []).filter(([field]) => field !== "id");
  const idDirection = sort?.find(([field]) => field === "id")?.[1] ?? keys[keys.length - 1]?.[1] ?? 1;
  return [...keys, ["id", idDirection]];
}

/** `(a > x) or (a = x and b > y) or ...`, over the sort keys with id last. */
export function afterQuery(sort: Sort, cursor: Cursor): Record<string, unknown> {
  const keys = sort.map(([field]) => (field === "id" ? "_id" : field));
  const values = [...cursor.values, cursor.id];
  if (values.length !== keys.length) throw new BadRequestError("The page token does not match this list.");
  const branches: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const branch: Record<string, unknown> = {};
    for (let j = 0; j < i; j++) branch[keys[j]] = values[j];
    branch[keys[i]] = { [sort[i][1] === 1 ? "$gt" : "$lt"]: values[i] };
    branches.push(branch);
  }
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
