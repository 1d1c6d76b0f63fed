// Reads a spec's text (JSON or YAML; OpenAPI 3.0, 3.1 or Swagger 2.0) into a validated document whose
// $refs all point inside it: references to other files or URLs are refused, never fetched or read.
import { createHash } from "node:crypto";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parse as parseYaml } from "yaml";
import { ProcessingFailure } from "./processing-failure";

/** A parsed OpenAPI or Swagger document, as plain JSON data. */
export type OpenAPIDocument = { [key: string]: unknown };

export interface ParsedSpec {
  document: OpenAPIDocument;
  /** "2.0", "3.0.3", "3.1.0", ...: the document's own `swagger` or `openapi` field. */
  specVersion: string;
  /** SHA-256 of the document's JSON, to tell whether a new fetch changed anything. */
  hash: string;
}

const MESSAGE_MAX = 500;
/**
 * The most JSON values (objects, arrays, strings, numbers…) a document may hold once every internal `$ref`
 * is replaced by what it points at. Validation walks the dereferenced document, so its work grows with this
 * count, and a few `$ref`s can make it exponential in the text (a schema whose two properties both point at
 * the next, 21 deep: 2.7 KB of text, 2 million values, 41 s of validation). Counted before validating, in
 * time linear in the document.
 */
export const EXPANDED_VALUES_MAX = 500_000;
/** Deeper nesting than this (the document's own, `$ref`s followed) is refused before anything recurses further. */
export const NESTING_MAX = 1_000;

function parseFailure(message: string): ProcessingFailure {
  return new ProcessingFailure("PARSE_ERROR", message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX)}…` : message);
}

function readText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: YAML (a superset), with alias expansion bounded so a small file can't explode.
  }
  try {
    return parseYaml(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (err) {
    throw parseFailure(`The specification is neither valid JSON nor valid YAML: ${(err as Error).message}`);
  }
}

function isObject(value: unknown): value is OpenAPIDocument {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function versionOf(document: OpenAPIDocument): string {
  if (document.swagger === "2.0") return "2.0";
  if (typeof document.openapi === "string" && /^3\.[01]\.\d+/.test(document.openapi)) return document.openapi;
  throw parseFailure("The document is not an OpenAPI 3.0 or 3.1 document nor a Swagger 2.0 one (no supported 'openapi' or 'swagger' field).");
}

/** The first `$ref` that leaves the document (another file or a URL), if any. */
export function findExternalRef(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        if (key === "$ref" && typeof child === "string" && !child.startsWith("#")) return child;
        if (typeof child === "object" && child !== null) stack.push(child);
      }
    }
  }
  return undefined;
}

/** The value an internal `$ref` ("#/components/schemas/Pet") points at in `document`; undefined when none. */
function pointed(document: OpenAPIDocument, ref: string): unknown {
  let node: unknown = document;
  if (ref === "#" || ref === "#/") return node;
  for (const raw of ref.slice(2).split("/")) {
    let key = raw;
    try {
      key = decodeURIComponent(raw);
    } catch {
      // kept as written
    }
    key = key.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * How many JSON values `document` holds with its internal `$ref`s followed (a `$ref` counts as what it points
 * at, plus its sibling keys), stopping once over `limit`. Each object is sized once (memoised by identity,
 * whichever pointer reaches it), so the count costs time linear in the document however the `$ref`s fan out.
 * A `$ref` back into an object being sized (a cycle) counts 1: validation leaves it a `$ref`.
 */
export function expandedSize(document: OpenAPIDocument, limit: number): number {
  const sized = new WeakMap<object, number>();
  const open = new WeakSet<object>();
  const size = (value: unknown, depth: number): number => {
    if (typeof value !== "object" || value === null) return 1;
    const known = sized.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) return 1;
    if (depth > NESTING_MAX) throw parseFailure(`The specification nests deeper than ${NESTING_MAX} levels (its $refs followed).`);
    open.add(value);
    let n = 0;
    const ref = !Array.isArray(value) && typeof (value as OpenAPIDocument).$ref === "string" ? ((value as OpenAPIDocument).$ref as string) : undefined;
    const target = ref?.startsWith("#") ? pointed(document, ref) : undefined;
    if (target !== undefined) n += size(target, depth + 1);
    else n += 1;
    for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
      if (target !== undefined && key === "$ref") continue;
      n += size(child, depth + 1);
      if (n > limit) break;
    }
    open.delete(value);
    sized.set(value, n);
    return n;
  };
  return size(document, 0);
}

export async function parseSpec(text: string): Promise<ParsedSpec> {
  const data = readText(text);
  if (!isObject(data)) throw parseFailure("The specification must be a JSON or YAML object.");
  const specVersion = versionOf(data);
  const external = findExternalRef(data);
  if (external !== undefined) throw parseFailure(`External references are not supported; inline "${external}" into the document.`);
  if (expandedSize(data, EXPANDED_VALUES_MAX) > EXPANDED_VALUES_MAX) {
    throw parseFailure(`The specification holds more than ${EXPANDED_VALUES_MAX} values once its $refs are followed; share fewer schemas through nested $refs or split it.`);
  }
  try {
    // validate() dereferences in place, so it works on a copy; every resolver is off as a second guard.
    await SwaggerParser.validate(structuredClone(data) as never, {
      resolve: { external: false, file: false, http: false },
      dereference: { circular: "ignore" },
    });
  } catch (err) {
    throw parseFailure(`The specification is not valid: ${(err as Error).message}`);
  }
  const json = JSON.stringify(data);
  return { document: data, specVersion, hash: createHash("sha256").update(json).digest("hex") };
}
