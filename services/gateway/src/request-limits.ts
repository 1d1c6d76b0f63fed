// Shape limits on parsed JSON bodies and query strings, checked before anything reaches an action.
import { BadRequestError } from "@docshelf/errors";

export interface ShapeLimits {
  /** Deepest nesting of objects and arrays; the body itself is level 1. */
  maxDepth: number;
  maxArrayLength: number;
  /** Longest string, keys included, in UTF-8 bytes; Infinity for none. */
  maxStringBytes: number;
  /** Objects with more keys than this break the array limit too (qs turns long arrays into objects). */
  maxObjectKeys?: number;
}

export type Violation = { limit: "depth" | "arrayLength" | "stringBytes"; path: string };

/** Which limit a value breaks and where (`$.a[2].b`), or null when it keeps them all. */
export function findViolation(value: unknown, limits: ShapeLimits): Violation | null {
  // Iterative, so a hostile nesting cannot overflow the stack before the depth limit is reached.
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: "$" }];
  while (stack.length) {
    const { value: node, depth, path } = stack.pop()!;
    if (typeof node === "string") {
      if (tooLong(node, limits.maxStringBytes)) return { limit: "stringBytes", path };
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > limits.maxDepth) return { limit: "depth", path };
    if (Array.isArray(node)) {
      if (node.length > limits.maxArrayLength) return { limit: "arrayLength", path };
      node.forEach((item, i) => stack.push({ value: item, depth: depth + 1, path: `${path}[${i}]` }));
      continue;
    }
    const entries = Object.entries(node);
    if (limits.maxObjectKeys !== undefined && entries.length > limits.maxObjectKeys) return { limit: "arrayLength", path };
    for (const [key, item] of entries) {
      const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
      if (tooLong(key, limits.maxStringBytes)) return { limit: "stringBytes", path: `${path}.${shown}` };
      stack.push({ value: item, depth: depth + 1, path: `${path}.${shown}` });
    }
  }
  return null;
}

/** A sentence naming what broke which limit, and the variable that sets it. */
export function describeViolation(what: string, v: Violation, limits: ShapeLimits, variables: Record<Violation["limit"], string>): string {
  const at = v.path === "$" ? what : `${what} at '${v.path}'`;
  if (v.limit === "depth") return `${at} is nested deeper than ${limits.maxDepth} levels (limit ${variables.depth}).`;
  if (v.limit === "arrayLength") return `${at} is an array of more than ${limits.maxArrayLength} elements (limit ${variables.arrayLength}).`;
  return `${at} holds a string longer than ${limits.maxStringBytes} bytes (limit ${variables.stringBytes}).`;
}

function tooLong(text: string, maxBytes: number): boolean {
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short strings skip the byte count.
  return text.length * 3 > maxBytes && Buffer.byteLength(text, "utf8") > maxBytes;
}

const BODY_VARIABLES = { depth: "JSON_MAX_DEPTH", arrayLength: "JSON_MAX_ARRAY_LENGTH", stringBytes: "JSON_MAX_STRING_BYTES" };
const QUERY_VARIABLES = { depth: "QUERY_MAX_DEPTH", arrayLength: "QUERY_MAX_ARRAY_LENGTH", stringBytes: "" };

/** 400 naming the limit when the parsed body breaks one. */
export function checkBody(body: unknown, limits: ShapeLimits): void {
  const violation = findViolation(body, limits);
  if (violation) throw new BadRequestError(describeViolation("The request body", violation, limits, BODY_VARIABLES));
}

/**
 * 400 when a query parameter parses into something deeper than `maxDepth` (`a[b][c]=1` is 2) or an
 * array longer than `maxArrayLength` (repeated keys or `a[]=`).
 */
export function checkQuery(query: Record<string, unknown>, maxDepth: number, maxArrayLength: number): void {
  // qs parses `a=1&a=2…` past its arrayLimit (and `a[500]=x`) into an object keyed by index, so an
  // object's keys count as items as well.
  const limits = { maxDepth, maxArrayLength, maxStringBytes: Infinity, maxObjectKeys: maxArrayLength };
  for (const [name, value] of Object.entries(query ?? {})) {
    // Levels are counted below the parameter itself, so a plain `a=1` is depth 0.
    const violation = findViolation(value, limits);
    if (!violation) continue;
    const at = `The query parameter '${name}'${violation.path === "$" ? "" : ` at '${violation.path}'`}`;
    if (violation.limit === "arrayLength") throw new BadRequestError(`${at} has more than ${maxArrayLength} items (limit ${QUERY_VARIABLES.arrayLength}).`);
    throw new BadRequestError(describeViolation(`The query parameter '${name}'`, violation, limits, QUERY_VARIABLES));
  }
}
