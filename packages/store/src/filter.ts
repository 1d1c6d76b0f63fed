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

/** Renders a Filter as a MongoDB-style query that both adapters understand. */
export function toQuery(filter: Filter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (!FIELD.test(field)) throw new BadRequestError(`Invalid filter field '${field}'.`);
    const key = field === "id" ? "_id" : field;
    if (value instanceof Operator) {
      if (value.name === "$contains") {
        query[key] = { $regex: new RegExp(escapeRegExp(String(value.value)), "i") };
      } else if (value.name === "$in" || value.name === "$nin") {
        const list = value.value as Primitive[];
        list.forEach((v) => assertPrimitive(field, v));
        query[key] = { [value.name]: list };
      } else {
        if (value.name !== "$exists") assertPrimitive(field, value.value);
        query[key] = { [value.name]: value.value };
      }
    } else {
      assertPrimitive(field, value);
      query[key] = value;
    }
  }
  return query;
}
