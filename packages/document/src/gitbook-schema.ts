// For tests: GitBook's newest JSONDocument schema (@gitbook/api-latest's OpenAPI, a dev dependency of the
// repository), as a check that a document is one GitBook accepts. Not part of the package's runtime (index.ts).
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { JSONDocument } from "./types";

/** OpenAPI 3.0's `nullable` beside `$ref` made JSON Schema (as testkit does). */
function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = normalize(v);
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

let spec: object | undefined;

/** A validator of GitBook's JSONDocument; `allErrors` (several times slower) only to report a failure. */
function documentValidator(allErrors: boolean) {
  spec ??= normalize(require("@gitbook/api-latest/spec/openapi.json")) as object;
  const ajv = new Ajv({ strict: false, allErrors, logger: false });
  addFormats(ajv);
  ajv.addFormat("emoji", true);
  ajv.addSchema(spec, "gitbook");
  return ajv.compile({ $ref: "gitbook#/components/schemas/JSONDocument" });
}

let valid: ReturnType<typeof documentValidator> | undefined;

/** Throws with the first errors unless `doc` is valid against GitBook's JSONDocument schema. */
export function expectValid(doc: JSONDocument): void {
  valid ??= documentValidator(false);
  if (valid(doc)) return;
  const full = documentValidator(true);
  full(doc);
  throw new Error(JSON.stringify(full.errors?.slice(0, 5), null, 1));
}
