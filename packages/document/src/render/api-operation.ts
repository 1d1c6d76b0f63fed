// One operation of a hosted OpenAPI document as an API block shows it: summary, description, parameters, request
// body and responses, each body with an example (the spec's own, else one made from its schema). The document
// is an organization's upload, so everything here is bounded: local `$ref`s only, followed at most REF_DEPTH
// deep and REF_BUDGET times per operation; at most MAX_ITEMS parameters and responses; examples cut at
// EXAMPLE_CHARS.

export interface ApiParameter {
  name: string;
  in: string;
  required: boolean;
  type?: string;
  description?: string;
}

export interface ApiBody {
  contentType: string;
  example?: string;
}

export interface ApiResponse {
  status: string;
  description?: string;
  body?: ApiBody;
}

export interface ApiOperation {
  summary?: string;
  description?: string;
  deprecated: boolean;
  parameters: ApiParameter[];
  requestBody?: ApiBody & { required: boolean };
  responses: ApiResponse[];
}

const REF_DEPTH = 8;
const REF_BUDGET = 200;
const MAX_ITEMS = 50;
const EXAMPLE_CHARS = 4_000;
const TEXT_CHARS = 4_000;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.slice(0, TEXT_CHARS) : undefined);
const own = (o: Json, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined);

/** Resolves `#/a/b` references inside `document`, within a budget shared by one operation. */
class Refs {
  private used = 0;
  constructor(private readonly document: Json) {}

  resolve(value: unknown, depth = 0): unknown {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
      if (hops >= REF_DEPTH || depth >= REF_DEPTH || ++this.used > REF_BUDGET) return undefined;
      current = this.pointer(current.$ref);
    }
    return current;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith("#/")) return undefined; // a remote reference is never fetched
    let at: unknown = this.document;
    for (const raw of ref.slice(2).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(at) && !Array.isArray(at)) return undefined;
      at = own(at as Json, key);
    }
    return at;
  }
}

function typeOf(schema: unknown, refs: Refs): string | undefined {
  const s = refs.resolve(schema);
  if (!isObject(s)) return undefined;
  const type = typeof s.type === "string" ? s.type : Array.isArray(s.type) ? s.type.filter((t) => typeof t === "string").join(" | ") : undefined;
  if (type === "array") {
    const items = typeOf(s.items, refs);
    return items ? `${items}[]` : "array";
  }
  const format = typeof s.format === "string" ? ` (${s.format})` : "";
  return type ? `${type}${format}` : undefined;
}

/** An example made from a schema: its `example`, `default` or first `enum`, else a value of its type; bounded. */
function sample(schema: unknown, refs: Refs, depth: number, budget: { nodes: number }): unknown {
  if (depth > 6 || --budget.nodes < 0) return undefined;
  const s = refs.resolve(schema, depth);
  if (!isObject(s)) return undefined;
  if (own(s, "example") !== undefined) return s.example;
  if (own(s, "default") !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    const list = own(s, key);
    if (Array.isArray(list) && list.length) {
      if (key !== "allOf") return sample(list[0], refs, depth + 1, budget);
      const merged: Json = {};
      for (const part of list.slice(0, 10)) {
        const value = sample(part, refs, depth + 1, budget);
        if (isObject(value)) Object.assign(merged, value);
      }
      return merged;
    }
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || isObject(s.properties)) {
    const out: Json = {};
    const properties = isObject(s.properties) ? s.properties : {};
    for (const name of Object.keys(properties).slice(0, 30)) {
      const value = sample(properties[name], refs, depth + 1, budget);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  if (type === "array") {
    const item = sample(s.items, refs, depth + 1, budget);
    return item === undefined ? [] : [item];
  }
  if (type === "integer" || type === "number") return 0;
  if (type === "boolean") return true;
  if (type === "string") return s.format === "date-time" ? "2024-01-01T00:00:00Z" : s.format === "uuid" ? "00000000-0000-0000-0000-000000000000" : "string";
  return undefined;
}

function exampleText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let out: string;
  try {
    out = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  } catch {
    return undefined;
  }
  return out.length > EXAMPLE_CHARS ? `${out.slice(0, EXAMPLE_CHARS)}\n…` : out;
}

/** The first media type of a `content` map, with its example (given, or made from its schema). */
function bodyOf(content: unknown, refs: Refs): ApiBody | undefined {
  if (!isObject(content)) return undefined;
  const contentType = Object.keys(content).find((t) => isObject(content[t])) ?? Object.keys(content)[0];
  if (!contentType) return undefined;
  const media = refs.resolve(content[contentType]);
  if (!isObject(media)) return { contentType: contentType.slice(0, 200) };
  let example: unknown = own(media, "example");
  if (example === undefined && isObject(media.examples)) {
    const first = refs.resolve(Object.values(media.examples)[0]);
    if (isObject(first)) example = first.value;
  }
  if (example === undefined) example = sample(media.schema, refs, 0, { nodes: 300 });
  return { contentType: contentType.slice(0, 200), example: exampleText(example) };
}

/** The operation `method path` of an OpenAPI 3 (or Swagger 2: parameters only) document, or undefined. */
export function operationFromSpec(document: unknown, method: string, path: string): ApiOperation | undefined {
  if (!isObject(document) || !METHODS.has(method.toLowerCase())) return undefined;
  const refs = new Refs(document);
  const paths = document.paths;
  if (!isObject(paths)) return undefined;
  const item = refs.resolve(own(paths, path));
  if (!isObject(item)) return undefined;
  const operation = refs.resolve(own(item, method.toLowerCase()));
  if (!isObject(operation)) return undefined;

  const parameters: ApiParameter[] = [];
  const seen = new Set<string>();
  // The operation's own parameters override the path item's of the same name and place.
  for (const list of [operation.parameters, item.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list.slice(0, MAX_ITEMS)) {
      const p = refs.resolve(raw);
      if (!isObject(p) || typeof p.name !== "string" || typeof p.in !== "string") continue;
      const key = `${p.in}:${p.name}`;
      if (seen.has(key) || parameters.length >= MAX_ITEMS) continue;
      seen.add(key);
      parameters.push({ name: p.name.slice(0, 200), in: p.in.slice(0, 20), required: p.required === true || p.in === "path", type: typeOf(p.schema ?? p, refs), description: text(p.description) });
    }
  }

  const body = refs.resolve(operation.requestBody);
  const requestBody = isObject(body) ? bodyOf(body.content, refs) : undefined;

  const responses: ApiResponse[] = [];
  if (isObject(operation.responses)) {
    for (const status of Object.keys(operation.responses).slice(0, MAX_ITEMS)) {
      const r = refs.resolve(operation.responses[status]);
      if (!isObject(r)) continue;
      responses.push({ status: status.slice(0, 20), description: text(r.description), body: bodyOf(r.content, refs) });
    }
  }

  return {
    summary: text(operation.summary),
    description: text(operation.description),
    deprecated: operation.deprecated === true,
    parameters,
    ...(requestBody && isObject(body) ? { requestBody: { ...requestBody, required: body.required === true } } : {}),
    responses,
  };
}
