// The SQLite adapter's query language: the MongoDB-style queries that `toQuery` and `afterQuery` build
// (filter.ts, cursor.ts), rendered as SQL over a table of (id TEXT PRIMARY KEY, doc TEXT JSON). Values are
// always bound parameters; field names are checked by `toQuery` ([A-Za-z0-9_] and dots) before they get here,
// and checked again below before they become a JSON path.
import type { Sort } from "./types";

export type SqlValue = string | number | null;

export interface SqlPart {
  sql: string;
  params: SqlValue[];
}

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/**
 * The SQL expression of a field's value. It is written the same way everywhere (queries, sorts, index
 * definitions), so that SQLite uses an index whose expression is the same text.
 */
export function fieldExpr(field: string): string {
  if (field === "_id" || field === "id") return "id";
  if (!PATH.test(field)) throw new Error(`invalid field path '${field}'`);
  return `json_extract(doc, '$.${field}')`;
}

/** The JSON type of a field: SQL NULL when missing, 'null', 'true', 'false', 'integer', 'real', 'text', 'array', 'object'. */
function typeExpr(field: string): string {
  if (field === "_id" || field === "id") return "'text'";
  return `json_type(doc, '$.${field}')`;
}

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Fields that hold an array in some document of the collection: equality means "is or contains" there. */
type Arrays = ReadonlySet<string>;

/** The JSON path of a field, for json_each. */
function jsonPath(field: string): string {
  if (!PATH.test(field)) throw new Error(`invalid field path '${field}'`);
  return `'$.${field}'`;
}

/**
 * A value of the field or, when it holds an array, one of its elements (MongoDB's equality on an array
 * field), matching `where` (over json_each's `value` and `type` columns).
 */
function anyElement(field: string, where: SqlPart): SqlPart {
  return { sql: `EXISTS (SELECT 1 FROM json_each(doc, ${jsonPath(field)}) WHERE ${where.sql})`, params: where.params };
}

/** `field = value` in MongoDB's sense for a scalar value: null means null or missing; booleans by JSON type. */
function equals(field: string, value: Scalar, arrays: Arrays): SqlPart {
  if (value !== null && arrays.has(field)) {
    return anyElement(field, typeof value === "boolean" ? { sql: `type = '${value ? "true" : "false"}'`, params: [] } : { sql: "value = ?", params: [value] });
  }
  if (value === null) return { sql: `${fieldExpr(field)} IS NULL`, params: [] };
  if (typeof value === "boolean") return { sql: `${typeExpr(field)} = '${value ? "true" : "false"}'`, params: [] };
  return { sql: `${fieldExpr(field)} = ?`, params: [value] };
}

function anyOf(field: string, list: Scalar[], arrays: Arrays): SqlPart {
  const plain = list.filter((v): v is string | number => typeof v === "string" || typeof v === "number");
  const parts: SqlPart[] = [];
  if (plain.length) {
    const inList: SqlPart = { sql: `IN (${plain.map(() => "?").join(", ")})`, params: plain };
    parts.push(arrays.has(field) ? anyElement(field, { sql: `value ${inList.sql}`, params: inList.params }) : { sql: `${fieldExpr(field)} ${inList.sql}`, params: inList.params });
  }
  for (const v of list) if (v === null || typeof v === "boolean") parts.push(equals(field, v, arrays));
  if (!parts.length) return { sql: "0", params: [] };
  return join(parts, "OR");
}

/** Order comparisons within one type, as in MongoDB: a string bound never matches a number, nor the reverse. */
function compare(field: string, operator: string, value: Scalar, arrays: Arrays): SqlPart {
  const sqlOp = operator === "$gt" ? ">" : operator === "$gte" ? ">=" : operator === "$lt" ? "<" : "<=";
  if (value === null) return { sql: "0", params: [] };
  if (typeof value === "boolean") {
    // false < true: the only booleans beyond (or before) one.
    const holds = [false, true].filter((b) => (sqlOp === ">" ? b > value : sqlOp === ">=" ? b >= value : sqlOp === "<" ? b < value : b <= value));
    return holds.length ? join(holds.map((b) => equals(field, b, arrays)), "OR") : { sql: "0", params: [] };
  }
  const types = typeof value === "string" ? "('text')" : "('integer', 'real')";
  return { sql: `(${fieldExpr(field)} ${sqlOp} ? AND ${typeExpr(field)} IN ${types})`, params: [value] };
}

function join(parts: SqlPart[], glue: "AND" | "OR"): SqlPart {
  if (parts.length === 1) return parts[0];
  return { sql: `(${parts.map((p) => p.sql).join(` ${glue} `)})`, params: parts.flatMap((p) => p.params) };
}

function not(part: SqlPart): SqlPart {
  // A comparison with NULL is NULL: a document without the field is "not equal".
  return { sql: `NOT ifnull(${part.sql}, 0)`, params: part.params };
}

function condition(field: string, value: unknown, arrays: Arrays): SqlPart {
  if (isScalar(value)) return equals(field, value, arrays);
  if (value instanceof RegExp) return regex(field, value);
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error(`unsupported query value for '${field}'`);
  const parts: SqlPart[] = [];
  for (const [operator, operand] of Object.entries(value as Record<string, unknown>)) {
    switch (operator) {
      case "$in":
      case "$nin": {
        if (!Array.isArray(operand) || !operand.every(isScalar)) throw new Error(`unsupported ${operator} list for '${field}'`);
        const part = anyOf(field, operand, arrays);
        parts.push(operator === "$in" ? part : not(part));
        break;
      }
      case "$ne":
        if (!isScalar(operand)) throw new Error(`unsupported $ne value for '${field}'`);
        parts.push(not(equals(field, operand, arrays)));
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        if (!isScalar(operand)) throw new Error(`unsupported ${operator} value for '${field}'`);
        parts.push(compare(field, operator, operand, arrays));
        break;
      case "$exists": {
        // `$ne: null` and a `$nin` with null beside it (filter.ts writes them so for MongoDB) already need the
        // field present: json_type, which no index holds, would only add a parse of each document.
        const ops = value as Record<string, unknown>;
        if (operand === true && (ops.$ne === null || (Array.isArray(ops.$nin) && ops.$nin.includes(null)))) break;
        parts.push({ sql: `${typeExpr(field)} IS ${operand ? "NOT NULL" : "NULL"}`, params: [] });
        break;
      }
      case "$regex":
        if (!(operand instanceof RegExp)) throw new Error(`unsupported $regex value for '${field}'`);
        parts.push(regex(field, operand));
        break;
      default:
        throw new Error(`unsupported query operator ${operator}`);
    }
  }
  if (!parts.length) return { sql: "1", params: [] };
  return join(parts, "AND");
}

/** A regular expression test through the `ds_regexp` function the adapter registers (JavaScript's own engine). */
function regex(field: string, re: RegExp): SqlPart {
  return { sql: `ds_regexp(${fieldExpr(field)}, ?, ?)`, params: [re.source, re.flags] };
}

/** The field of a query that is only `{field: {$exists: false}}`, else undefined. */
function missingOnly(query: Record<string, unknown>): string | undefined {
  const keys = Object.keys(query);
  if (keys.length !== 1 || keys[0].startsWith("$")) return undefined;
  const value = query[keys[0]];
  if (value === null || typeof value !== "object" || value instanceof RegExp || Array.isArray(value)) return undefined;
  const ops = Object.keys(value);
  return ops.length === 1 && ops[0] === "$exists" && (value as Record<string, unknown>).$exists === false ? keys[0] : undefined;
}

/** Whether a query matches every document whose `field` is null or missing (`{field: null}`, or `$in` with null). */
function matchesNull(query: Record<string, unknown>, field: string): boolean {
  const keys = Object.keys(query);
  if (keys.length !== 1 || keys[0] !== field) return false;
  const value = query[field];
  if (value === null) return true;
  if (typeof value !== "object" || value instanceof RegExp || Array.isArray(value)) return false;
  const ops = Object.keys(value);
  const list = (value as Record<string, unknown>).$in;
  return ops.length === 1 && Array.isArray(list) && list.includes(null);
}

/**
 * The branches of an `$or` without a `{field: {$exists: false}}` that another branch already covers: in SQL a
 * missing field's `json_extract` is NULL, so `{field: null}` (rendered `IS NULL`) matches it too. filter.ts spells
 * null out as `$or: [{field: null}, {field: {$exists: false}}]` for MongoDB; kept as it is, the `json_type` of the
 * second branch is in no index, and SQLite would read and parse every document the rest of the query selects
 * (a space's comment count: every comment of the space).
 */
function withoutCoveredMissing(branches: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return branches.filter((branch) => {
    const field = missingOnly(branch);
    return field === undefined || field === "_id" || field === "id" || !branches.some((other) => other !== branch && matchesNull(other, field));
  });
}

/**
 * The WHERE clause (without the keyword) of a MongoDB-style query. `arrays` names the fields that hold an
 * array in some document: there, equality and `$in` match an element, as in MongoDB.
 */
export function toWhere(query: Record<string, unknown>, arrays: Arrays = new Set()): SqlPart {
  const parts: SqlPart[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value)) throw new Error(`unsupported ${key}`);
      const branches = key === "$or" ? withoutCoveredMissing(value as Array<Record<string, unknown>>) : (value as Array<Record<string, unknown>>);
      const subs = branches.map((sub) => toWhere(sub, arrays));
      parts.push(subs.length ? join(subs, key === "$and" ? "AND" : "OR") : { sql: key === "$and" ? "1" : "0", params: [] });
    } else if (key.startsWith("$")) {
      throw new Error(`unsupported query operator ${key}`);
    } else {
      parts.push(condition(key, value, arrays));
    }
  }
  if (!parts.length) return { sql: "1", params: [] };
  return join(parts, "AND");
}

/** ORDER BY (without the keywords) for a normalized sort (id last). */
export function toOrderBy(sort: Sort): string {
  return sort.map(([field, direction]) => `${fieldExpr(field)} ${direction === 1 ? "ASC" : "DESC"}`).join(", ");
}
