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

export async function parseSpec(text: string): Promise<ParsedSpec> {
  const data = readText(text);
  if (!isObject(data)) throw parseFailure("The specification must be a JSON or YAML object.");
  const specVersion = versionOf(data);
  const external = findExternalRef(data);
  if (external !== undefined) throw parseFailure(`External references are not supported; inline "${external}" into the document.`);
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
