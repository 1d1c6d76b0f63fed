// Validates response bodies against GitBook's published OpenAPI document, by operation id and status.
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

type OpenApiDoc = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };

/**
 * OpenAPI 3.0 allows `nullable` beside `$ref` or `oneOf` without a `type`; Ajv does not. Such a
 * schema becomes `anyOf: [schema, {type: "null"}]`, which means the same.
 */
function normalizeNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalizeNullable);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = normalizeNullable(v);
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

// The pinned document is the contract; operations it lacks come from the newest one.
const SPECS: Array<{ id: string; doc: OpenApiDoc }> = [
  { id: "gitbook", doc: normalizeNullable(require("@gitbook/api/spec/openapi.json")) as OpenApiDoc },
  { id: "gitbook-latest", doc: normalizeNullable(require("@gitbook/api-latest/spec/openapi.json")) as OpenApiDoc },
];

/**
 * Two validators over the same documents: `fast` stops at the first mismatch (allErrors makes every
 * validation of GitBook's large unions several times slower), `full` lists every mismatch and is only
 * compiled and run to report a body that `fast` refused. Both give the same verdict.
 */
function validatorOver(allErrors: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors, logger: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat("emoji", true);
  for (const spec of SPECS) ajv.addSchema(spec.doc as object, spec.id);
  return ajv;
}
const fast = validatorOver(false);
let full: Ajv | undefined;

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const compiled = new Map<string, ValidateFunction>();
/** Response validators by `operationId status [latest]`; null for a response without a JSON body. */
const responses = new Map<string, { ref: string; validate: ValidateFunction } | null>();

/** Every mismatch of `value` with `schema` (a `$ref` schema), from the all-errors validator: for a failure's message only. */
function allProblems(schema: { $ref: string }, value: unknown): string[] {
  full ??= validatorOver(true);
  const validate = full.getSchema(schema.$ref) ?? full.compile(schema);
  validate(value);
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}

function responseSchemaRef(operationId: string, status: number, specs = SPECS): string | null {
  for (const spec of specs) {
    for (const [path, methods] of Object.entries(spec.doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (operation?.operationId !== operationId) continue;
        const response = operation.responses?.[String(status)] as { content?: Record<string, unknown> } | undefined;
        if (!response) throw new Error(`${spec.id} has no ${status} response for ${operationId}`);
        if (!response.content?.["application/json"]) return null;
        return `${spec.id}#/${pointer("paths", path, method, "responses", String(status), "content", "application/json", "schema")}`;
      }
    }
  }
  throw new Error(`no operation ${operationId} in GitBook's OpenAPI documents`);
}

/**
 * Throws, listing every mismatch, unless `body` is valid for `operationId`'s `status` response.
 * `{latest: true}` validates against the newest document only, for fields the pinned one predates
 * (e.g. the merge rules GitBook added since).
 */
export function expectSchema(operationId: string, status: number, body: unknown, options: { latest?: boolean } = {}): void {
  const key = `${operationId} ${status}${options.latest ? " latest" : ""}`;
  let entry = responses.get(key);
  if (entry === undefined) {
    const ref = responseSchemaRef(operationId, status, options.latest ? SPECS.filter((s) => s.id === "gitbook-latest") : SPECS);
    entry = ref === null ? null : { ref, validate: fast.compile({ $ref: ref }) };
    responses.set(key, entry);
  }
  if (entry === null) {
    if (body !== undefined && body !== null && body !== "") throw new Error(`${key} has no body, got ${JSON.stringify(body)}`);
    return;
  }
  if (!entry.validate(body)) {
    const problems = allProblems({ $ref: entry.ref }, body);
    throw new Error(`${key}: body does not match GitBook's schema:\n  ${problems.join("\n  ")}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
}

/** The error body every failure answers with. */
export function expectErrorBody(status: number, body: unknown): void {
  const error = (body as { error?: { code?: unknown; message?: unknown } })?.error;
  if (!error || error.code !== status || typeof error.message !== "string" || !error.message) {
    throw new Error(`expected {"error": {"code": ${status}, "message": "..."}}, got ${JSON.stringify(body)}`);
  }
}

/** Throws, listing every mismatch, unless `value` is valid for the component schema `name` of GitBook's newest OpenAPI document (e.g. `JSONDocument`). */
export function expectComponent(name: string, value: unknown): void {
  const key = `component ${name}`;
  const schema = { $ref: `gitbook-latest#/${pointer("components", "schemas", name)}` };
  let validate = compiled.get(key);
  if (!validate) {
    validate = fast.compile(schema);
    compiled.set(key, validate);
  }
  if (!validate(value)) {
    const problems = allProblems(schema, value);
    throw new Error(`${key}: value does not match GitBook's schema:\n  ${problems.join("\n  ")}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/**
 * A copy of `value` in which every document page without a body has an empty `markdown`: GitBook's page
 * schema wants a body member on every document page, and tree and list answers leave bodies out.
 */
export function withBodies<T>(value: T): T {
  const copy = structuredClone(value) as unknown;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const obj = node as Record<string, unknown>;
    if (obj.type === "document" && typeof obj.slug === "string" && obj.markdown === undefined && obj.document === undefined) obj.markdown = "";
    Object.values(obj).forEach(visit);
  };
  visit(copy);
  return copy as T;
}
