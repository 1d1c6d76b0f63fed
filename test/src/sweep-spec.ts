// What GitBook's OpenAPI document says about an operation's inputs: its query parameters and the fields
// of its JSON body (top level and one level down), with type, enum, maxLength and whether required.
type Json = Record<string, unknown>;
type OpenApiDoc = { paths: Record<string, Record<string, Json>>; components: Json };

// The pinned document is the contract; operations it lacks come from the newest one.
const DOCS: OpenApiDoc[] = [require("@gitbook/api/spec/openapi.json"), require("@gitbook/api-latest/spec/openapi.json")];

export type FieldType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "unknown";

export interface Field {
  /** `title`, or `body.markdown` one level down. */
  name: string;
  type: FieldType;
  enum?: string[];
  maxLength?: number;
  required: boolean;
  /** Fields of an object field, one level down. */
  fields?: Field[];
}

export interface OperationInputs {
  query: Field[];
  body: Field[] | null;
}

function resolve(doc: OpenApiDoc, node: unknown, depth = 0): Json {
  if (!node || typeof node !== "object" || depth > 20) return {};
  const json = node as Json;
  if (typeof json.$ref === "string") {
    const target = json.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], doc);
    return resolve(doc, target, depth + 1);
  }
  if (Array.isArray(json.allOf)) {
    const merged: Json = { type: "object", properties: {}, required: [] };
    for (const part of json.allOf.map((p) => resolve(doc, p, depth + 1))) {
      Object.assign(merged.properties as Json, part.properties ?? {});
      // A part that is one of several alternatives requires its fields only in that alternative.
      if (!part.alternatives) (merged.required as string[]).push(...((part.required as string[]) ?? []));
      if (part.minProperties !== undefined) merged.minProperties = part.minProperties;
    }
    return merged;
  }
  // A nullable or alternative schema is described by its first alternative that is not null.
  for (const key of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(json[key])) {
      const choices = (json[key] as unknown[]).map((c) => resolve(doc, c, depth + 1)).filter((c) => c.type !== "null");
      const first = choices[0] ?? {};
      return { ...first, ...(choices.length > 1 ? { alternatives: choices.length } : {}) };
    }
  }
  return json;
}

function typeOf(schema: Json): FieldType {
  const type = schema.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean" || type === "array" || type === "object") return type;
  if (schema.properties) return "object";
  return "unknown";
}

function fieldsOf(doc: OpenApiDoc, schema: Json, prefix: string, depth: number): Field[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Json | undefined) ?? {}).map(([key, raw]) => {
    const child = resolve(doc, raw);
    const field: Field = { name: prefix + key, type: typeOf(child), required: required.has(key) };
    if (Array.isArray(child.enum)) field.enum = child.enum as string[];
    if (typeof child.maxLength === "number") field.maxLength = child.maxLength;
    if (field.type === "object" && depth === 0 && !child.alternatives) field.fields = fieldsOf(doc, child, `${prefix}${key}.`, depth + 1);
    return field;
  });
}

function findOperation(id: string): { doc: OpenApiDoc; operation: Json; shared: unknown[] } {
  for (const doc of DOCS) {
    for (const methods of Object.values(doc.paths)) {
      for (const operation of Object.values(methods)) {
        if ((operation as Json)?.operationId === id) return { doc, operation: operation as Json, shared: (methods.parameters as unknown as unknown[]) ?? [] };
      }
    }
  }
  throw new Error(`no operation ${id} in GitBook's OpenAPI documents`);
}

/** The query parameters and body fields GitBook's document gives operation `id`. */
export function inputsOf(id: string): OperationInputs {
  const { doc, operation, shared } = findOperation(id);
  const params = [...shared, ...((operation.parameters as unknown[]) ?? [])].map((p) => resolve(doc, p));
  const query = params
    .filter((p) => p.in === "query")
    .map((p) => {
      const schema = resolve(doc, p.schema);
      const field: Field = { name: p.name as string, type: typeOf(schema), required: p.required === true };
      if (Array.isArray(schema.enum)) field.enum = schema.enum as string[];
      if (typeof schema.maxLength === "number") field.maxLength = schema.maxLength;
      return field;
    });
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  const schema = content?.["application/json"] ? resolve(doc, (content["application/json"] as Json).schema) : null;
  return { query, body: schema ? fieldsOf(doc, schema, "", 0) : null };
}
