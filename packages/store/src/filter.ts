// Store filters: plain values mean equality; operators exist only as instances built in code.
import { BadRequestError } from "@docshelf/errors";

export type Primitive = string | number | boolean | null;

type OperatorName = "$in" | "$nin" | "$gt" | "$gte" | "$lt" | "$lte" | "$ne" | "$exists" | "$contains";

/**
 * A query operator. Only code can make one (through `op`), so a value that came from a request,
 * however it is shaped, is compared for equality and never interpreted as an operator.
 */
export class Operator {
  private constructor(
    readonly name: OperatorName,
    readonly value: Primitive | Primitive[],
  ) {}
  /** @internal */
  static make(name: OperatorName, value: Primitive | Primitive[]): Operator {
    return new Operator(name, value);
  }
}

export const op = {
  in: (values: Primitive[]) => Operator.make("$in", values),
  nin: (values: Primitive[]) => Operator.make("$nin", values),
  gt: (value: Primitive) => Operator.make("$gt", value),
  gte: (value: Primitive) => Operator.make("$gte", value),
  lt: (value: Primitive) => Operator.make("$lt", value),
  lte: (value: Primitive) => Operator.make("$lte", value),
  ne: (value: Primitive) => Operator.make("$ne", value),
  exists: (present: boolean) => Operator.make("$exists", present),
  /** Case-insensitive substring match; the text is matched literally. */
  contains: (text: string) => Operator.make("$contains", text),
};

export type FilterValue = Primitive | Operator;
export type Filter = Record<string, FilterValue | undefined>;

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function assertPrimitive(field: string, value: unknown): asserts value is Primitive {
  const t = typeof value;
  if (value !== null && t !== "string" && t !== "number" && t !== "boolean") {
    throw new BadRequestError(`Invalid value for '${field}'.`);
  }
}

function assertField(field: string): void {
  // `__proto__` passes the pattern but assigning it would replace the query's prototype instead of adding a condition.
  if (!FIELD.test(field) || field.split(".").includes("__proto__")) {
    throw new BadRequestError(`Invalid filter field '${field}'.`);
  }
}

/** A document whose field is null or missing: MongoDB's meaning of `{field: null}`, spelled out. */
export function nullOrMissing(key: string): Record<string, unknown> {
  return { $or: [{ [key]: null }, { [key]: { $exists: false } }] };
}

/**
 * Renders a Filter as a MongoDB-style query that both adapters understand.
 * `null` stands for "null or missing" everywhere (equality, `op.in`, `op.nin`, `op.ne`), as in MongoDB.
 */
export function toQuery(filter: Filter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const and: Record<string, unknown>[] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    assertField(field);
    const key = field === "id" ? "_id" : field;
    if (value instanceof Operator) {
      if (value.name === "$contains") {
        if (typeof value.value !== "string" && typeof value.value !== "number") {
          throw new BadRequestError(`Invalid value for '${field}'.`);
        }
        query[key] = { $regex: new RegExp(escapeRegExp(String(value.value)), "i") };
      } else if (value.name === "$in" || value.name === "$nin") {
        if (!Array.isArray(value.value)) throw new BadRequestError(`Invalid value for '${field}'.`);
        const list = value.value;
        list.forEach((v) => assertPrimitive(field, v));
        if (!list.includes(null)) query[key] = { [value.name]: list };
        else if (value.name === "$in") and.push({ $or: [{ [key]: { $in: list } }, { [key]: { $exists: false } }] });
        else query[key] = { $nin: list, $exists: true };
      } else if (value.name === "$exists") {
        if (typeof value.value !== "boolean") throw new BadRequestError(`Invalid value for '${field}'.`);
        query[key] = { $exists: value.value };
      } else {
        assertPrimitive(field, value.value);
        query[key] = value.name === "$ne" && value.value === null ? { $ne: null, $exists: true } : { [value.name]: value.value };
      }
    } else {
      assertPrimitive(field, value);
      if (value === null) and.push(nullOrMissing(key));
      else query[key] = value;
    }
  }
  if (and.length) query.$and = and;
  return query;
}
