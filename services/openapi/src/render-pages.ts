// An OpenAPI document as pages for a `builtin:openapi` computed page: an overview (the computed page's
// own body) and one page per tag listing each operation's method, path, summary, parameters, request
// body and responses in markdown; with `models`, one more page describing the component schemas.
import { slugify as slugifyTitle } from "@docshelf/slugs";
import type { OpenAPIDocument } from "./parse-spec";
import type { RenderedSpec, RenderedSpecPage as RenderedPage } from "@docshelf/contracts/openapi";

export type { RenderedPage, RenderedSpec };

type Json = { [key: string]: unknown };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Untagged operations go on a page of their own. */
const UNTAGGED = "Other operations";

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** A table cell: one line, pipes escaped. */
function cell(value: string): string {
  return value.replace(/\r?\n+/g, " ").replace(/\|/g, "\\|").trim() || " ";
}

function slugify(title: string): string {
  return slugifyTitle(title, 40, "api");
}

/** Follows an internal `$ref` (`#/components/...`, `#/definitions/...`) once; anything else as is. */
function deref(doc: OpenAPIDocument, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== "string" || !value.$ref.startsWith("#/")) return value;
  let node: unknown = doc;
  for (const part of value.$ref.slice(2).split("/")) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[key] : undefined;
  }
  return node ?? value;
}

/** A schema in a few words: `Pet`, `array of Pet`, `string (uuid)`. */
function typeOf(doc: OpenAPIDocument, schema: unknown, depth = 0): string {
  if (!isObject(schema)) return "";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() ?? "object";
  if (schema.type === "array" && depth < 3) return `array of ${typeOf(doc, schema.items, depth + 1) || "any"}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : text(schema.type);
  for (const key of ["oneOf", "anyOf", "allOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && depth < 3) return list.map((s) => typeOf(doc, s, depth + 1) || "object").join(key === "allOf" ? " and " : " or ");
  }
  const format = text(schema.format);
  return `${type || "object"}${format ? ` (${format})` : ""}`;
}

interface Operation {
  method: string;
  path: string;
  op: Json;
  shared: unknown[];
}

function parametersTable(doc: OpenAPIDocument, operation: Operation): string[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...operation.shared, ...(Array.isArray(operation.op.parameters) ? operation.op.parameters : [])]) {
    const param = deref(doc, raw);
    if (isObject(param) && typeof param.name === "string" && param.in !== "body") byKey.set(`${text(param.in)}:${param.name}`, param);
  }
  if (!byKey.size) return [];
  const rows = [...byKey.values()].map((p) => {
    const type = typeOf(doc, deref(doc, p.schema)) || text(p.type);
    return `| ${cell(text(p.name))} | ${cell(text(p.in))} | ${cell(type)} | ${p.required === true ? "yes" : "no"} | ${cell(text(p.description))} |`;
  });
  return ["**Parameters**", "", "| Name | In | Type | Required | Description |", "|---|---|---|---|---|", ...rows, ""];
}

function requestBody(doc: OpenAPIDocument, operation: Operation): string[] {
  const body = deref(doc, operation.op.requestBody);
  if (isObject(body) && isObject(body.content)) {
    const types = Object.entries(body.content).map(([mime, media]) => {
      const type = isObject(media) ? typeOf(doc, media.schema) : "";
      return `\`${mime}\`${type ? `: ${type}` : ""}`;
    });
    const description = text(body.description);
    return [`**Request body**${body.required === true ? " (required)" : ""}: ${types.join(", ")}${description ? `. ${description}` : ""}`, ""];
  }
  // Swagger 2.0: the body is a parameter.
  const params = [...operation.shared, ...(Array.isArray(operation.op.parameters) ? operation.op.parameters : [])].map((p) => deref(doc, p));
  const bodyParam = params.find((p): p is Json => isObject(p) && p.in === "body");
  if (!bodyParam) return [];
  return [`**Request body**${bodyParam.required === true ? " (required)" : ""}: ${typeOf(doc, bodyParam.schema) || "object"}`, ""];
}

function responsesTable(doc: OpenAPIDocument, operation: Operation): string[] {
  const responses = operation.op.responses;
  if (!isObject(responses) || !Object.keys(responses).length) return [];
  const rows = Object.entries(responses).map(([status, raw]) => {
    const response = deref(doc, raw);
    const r = isObject(response) ? response : {};
    const content = isObject(r.content)
      ? Object.entries(r.content).map(([mime, media]) => `${mime}${isObject(media) && media.schema ? ` (${typeOf(doc, media.schema)})` : ""}`).join(", ")
      : r.schema
        ? typeOf(doc, r.schema)
        : "";
    return `| ${cell(status)} | ${cell(text(r.description))} | ${cell(content)} |`;
  });
  return ["**Responses**", "", "| Status | Description | Content |", "|---|---|---|", ...rows, ""];
}

function renderOperation(doc: OpenAPIDocument, operation: Operation): string[] {
  const { op } = operation;
  const title = text(op.summary) || text(op.operationId) || `${operation.method.toUpperCase()} ${operation.path}`;
  const lines = [`## ${title}`, "", `\`${operation.method.toUpperCase()} ${operation.path}\``, ""];
  if (op.deprecated === true) lines.push("_Deprecated._", "");
  const description = text(op.description);
  if (description) lines.push(description, "");
  return [...lines, ...parametersTable(doc, operation), ...requestBody(doc, operation), ...responsesTable(doc, operation)];
}

function renderModels(doc: OpenAPIDocument): RenderedPage | null {
  const components = isObject(doc.components) ? doc.components.schemas : doc.definitions;
  if (!isObject(components) || !Object.keys(components).length) return null;
  const lines: string[] = [];
  for (const [name, raw] of Object.entries(components)) {
    const schema = deref(doc, raw);
    const s = isObject(schema) ? schema : {};
    lines.push(`## ${name}`, "", `Type: ${typeOf(doc, s) || "object"}`, "");
    const description = text(s.description);
    if (description) lines.push(description, "");
    if (isObject(s.properties) && Object.keys(s.properties).length) {
      const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
      lines.push("| Property | Type | Required | Description |", "|---|---|---|---|");
      for (const [prop, value] of Object.entries(s.properties)) {
        const p = deref(doc, value);
        lines.push(`| ${cell(prop)} | ${cell(typeOf(doc, value))} | ${required.has(prop) ? "yes" : "no"} | ${cell(isObject(p) ? text(p.description) : "")} |`);
      }
      lines.push("");
    }
  }
  return { slug: "models", title: "Models", markdown: lines.join("\n") };
}

/** The pages of a document; `models` adds the Models page (GitBook's `props.models`). */
export function renderSpecPages(doc: OpenAPIDocument, options: { models: boolean }): RenderedSpec {
  const groups = new Map<string, Operation[]>();
  const tagInfo = new Map<string, Json>();
  // Declared tags first, in their order; then tags as operations use them.
  for (const tag of Array.isArray(doc.tags) ? doc.tags : []) {
    if (isObject(tag) && typeof tag.name === "string" && !groups.has(tag.name)) {
      groups.set(tag.name, []);
      tagInfo.set(tag.name, tag);
    }
  }
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : UNTAGGED;
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, op, shared });
    }
  }
  const pages: RenderedPage[] = [];
  const taken = new Set<string>();
  const claim = (slug: string) => {
    let candidate = slug;
    for (let n = 2; taken.has(candidate); n++) candidate = `${slug}-${n}`;
    taken.add(candidate);
    return candidate;
  };
  for (const [tag, operations] of groups) {
    if (!operations.length) continue;
    const description = text(tagInfo.get(tag)?.description);
    const markdown = [...(description ? [description, ""] : []), ...operations.flatMap((o) => renderOperation(doc, o))].join("\n");
    const page: RenderedPage = { slug: claim(slugify(tag)), title: tag.slice(0, 256), markdown };
    if (description) page.description = description.split("\n")[0].slice(0, 1000);
    pages.push(page);
  }
  if (options.models) {
    const models = renderModels(doc);
    if (models) pages.push({ ...models, slug: claim(models.slug) });
  }

  const info = isObject(doc.info) ? doc.info : {};
  const overview: string[] = [];
  const description = text(info.description);
  if (description) overview.push(description, "");
  const version = text(info.version);
  if (version) overview.push(`Version: ${version}`, "");
  const servers = Array.isArray(doc.servers) ? doc.servers.flatMap((s) => (isObject(s) && typeof s.url === "string" ? [s.url] : [])) : [];
  if (servers.length) overview.push("Servers:", "", ...servers.map((url) => `* \`${url}\``), "");
  if (pages.length) overview.push("Operations:", "", ...pages.map((p) => `* ${p.title}`), "");
  else overview.push("The specification describes no operations.", "");
  return { markdown: overview.join("\n"), pages };
}
