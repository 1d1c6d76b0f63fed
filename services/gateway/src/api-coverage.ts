// Which of GitBook's API operations this gateway routes, from the route table and GitBook's newest
// OpenAPI document: the README's summary and docs/API-COVERAGE.md are written from this
// (`node scripts/api-coverage.js`) and a test keeps them from drifting.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { V1_ROUTES } from "./routes";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
}

/** The part of an OpenAPI document this reads. */
export interface OpenApiPaths {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>;
}

export interface CoveredOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  deprecated: boolean;
  /** The action this gateway routes it to; undefined when it is not implemented. */
  action?: string;
}

/** `/spaces/{spaceId}/x` and `/spaces/:id/x` alike: parameters reduced to one placeholder. */
const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[A-Za-z0-9_]+/g, "{}")}`;

/** Every operation of `spec`, in the document's order, with the action routed for it. */
export function coverage(spec: OpenApiPaths, routes: Record<string, string> = V1_ROUTES): CoveredOperation[] {
  const routed = new Map<string, string>();
  for (const [route, action] of Object.entries(routes)) {
    const [method, path] = route.split(" ");
    routed.set(shape(method, path), action);
  }
  const out: CoveredOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      out.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        tag: op.tags?.[0] ?? "other",
        deprecated: op.deprecated === true,
        action: routed.get(shape(method, path)),
      });
    }
  }
  return out;
}

/** The README's few lines: how many operations are implemented, and where the list is. */
export function coverageSummary(ops: CoveredOperation[], version: string): string {
  const done = ops.filter((o) => o.action).length;
  return [
    `Of the ${ops.length} operations of GitBook's API (\`@gitbook/api\` ${version}), **${done}** are implemented;`,
    "[docs/API-COVERAGE.md](docs/API-COVERAGE.md) lists each one, by tag, with the action that serves it or",
    "\"not implemented\". Most of those missing are AI, billing and integration-platform features.",
  ].join("\n");
}

/** docs/API-COVERAGE.md: one table per tag, tags in the document's order. */
export function coverageDocument(ops: CoveredOperation[], version: string): string {
  const done = ops.filter((o) => o.action).length;
  const lines = [
    "# GitBook API coverage",
    "",
    "<!-- generated from the gateway's route table and @gitbook/api's OpenAPI document: node scripts/api-coverage.js -->",
    "",
    `${done} of GitBook's ${ops.length} operations (\`@gitbook/api\` ${version}) are routed by the gateway.`,
    "",
  ];
  const tags = [...new Set(ops.map((o) => o.tag))];
  for (const tag of tags) {
    const mine = ops.filter((o) => o.tag === tag);
    lines.push(`## ${tag} (${mine.filter((o) => o.action).length}/${mine.length})`, "", "| operation | route | served by |", "|---|---|---|");
    for (const o of mine) {
      lines.push(`| \`${o.operationId}\`${o.deprecated ? " (deprecated)" : ""} | \`${o.method} ${o.path}\` | ${o.action ? `\`${o.action}\`` : "not implemented"} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** The README with its coverage summary between the api-coverage markers replaced. */
export function withCoverageSummary(readme: string, summary: string): string {
  const start = readme.indexOf("<!-- api-coverage:start");
  const end = readme.indexOf("<!-- api-coverage:end -->");
  if (start < 0 || end < 0) throw new Error("README has no api-coverage markers");
  const head = readme.slice(0, readme.indexOf("\n", start) + 1);
  return `${head}${summary}\n${readme.slice(end)}`;
}

/** GitBook's newest OpenAPI document (the `@gitbook/api-latest` devDependency) and its package version. */
export function latestGitBookSpec(): { spec: OpenApiPaths; version: string } {
  // Read only when asked (the coverage script and its test), never by the running gateway.
  const specFile = require.resolve("@gitbook/api-latest/spec/openapi.json");
  const pkg = JSON.parse(readFileSync(join(dirname(specFile), "..", "package.json"), "utf8")) as { version: string };
  return { spec: JSON.parse(readFileSync(specFile, "utf8")) as OpenApiPaths, version: pkg.version };
}
