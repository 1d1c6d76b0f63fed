// The "Test it" console of API blocks: its own page, `{page URL}/~api-console?spec={slug}&method={m}&path={p}`,
// for an operation of one of the organization's hosted OpenAPI specs that a block of that page names (the page's
// rendered body must hold that very link, so no other spec of the organization is shown). The page holds the spec as a JSON data block
// and loads the bundled console (console/console.ts, Scalar's API client: dist/console/, hashed names). It has
// a CSP of its own: the site's, plus `connect-src` for the spec's servers (requests go from the reader's browser
// to them) and what Scalar's client needs (`style-src 'unsafe-inline'`, `data:` images and fonts). The site's
// other pages keep the strict CSP and never load the console.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pageSecurityHeaders } from "@docshelf/document";

export const API_CONSOLE = "~api-console";
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
/** At most this many server origins go into the CSP. */
const MAX_ORIGINS = 20;

export interface ConsoleAssets {
  js: string;
  css: string;
  sizes?: Record<string, { bytes: number; gzipped: number }>;
}

let assets: ConsoleAssets | null | undefined;

/** The built console's file names (dist/console/manifest.json), or null when it is not built (unit tests). */
export function consoleAssets(): ConsoleAssets | null {
  if (assets !== undefined) return assets;
  try {
    assets = JSON.parse(readFileSync(join(consoleDir(), "manifest.json"), "utf8")) as ConsoleAssets;
  } catch {
    assets = null;
  }
  return assets;
}

/** dist/console beside dist/serve (compiled) or src/serve (ts-jest). */
export function consoleDir(): string {
  return join(__dirname, "..", "..", "dist", "console");
}

/** A console asset's URL path segment (`~console-HASH.js`) → its file name, when it is one. */
export function consoleAssetFile(segment: string): { file: string; contentType: string } | undefined {
  const built = consoleAssets();
  if (!built || !segment.startsWith("~")) return undefined;
  const name = segment.slice(1);
  if (name === built.js) return { file: join(consoleDir(), name), contentType: "text/javascript; charset=utf-8" };
  if (name === built.css) return { file: join(consoleDir(), name), contentType: "text/css; charset=utf-8" };
  return undefined;
}

export interface ConsoleRequest {
  spec: string;
  method: string;
  path: string;
}

/** The console's query, checked: a spec slug, an HTTP method and a path of at most 2,048 characters. */
export function consoleRequest(query: Record<string, string>): ConsoleRequest | { field: string } {
  const spec = query.spec ?? "";
  if (!/^[a-z0-9][a-z0-9_-]{0,99}$/i.test(spec)) return { field: "spec" };
  const method = (query.method ?? "").toLowerCase();
  if (!METHODS.has(method)) return { field: "method" };
  const path = query.path ?? "";
  if (!path.startsWith("/") || path.length > 2048) return { field: "path" };
  return { spec, method, path };
}

/** The console page's URL for an operation of a hosted spec, named by a block of the page at `pageHref`. */
export function consoleHref(pageHref: string, request: ConsoleRequest): string {
  return `${pageHref.replace(/\/+$/, "")}/${API_CONSOLE}?${new URLSearchParams({ spec: request.spec, method: request.method.toLowerCase(), path: request.path }).toString()}`;
}

/** Whether a page's rendered HTML links to this console (its block names the operation). */
export function pageLinksConsole(html: string, href: string): boolean {
  return html.includes(`href="${href.replace(/&/g, "&amp;")}"`);
}

/** Whether the document has that operation. */
export function hasOperation(document: Record<string, unknown>, method: string, path: string): boolean {
  const paths = document.paths as Record<string, Record<string, unknown> | undefined> | undefined;
  const item = paths && Object.prototype.hasOwnProperty.call(paths, path) ? paths[path] : undefined;
  return !!item && typeof item === "object" && Object.prototype.hasOwnProperty.call(item, method) && !!item[method];
}

/**
 * The document as the console should read it when the spec was fetched from `sourceURL` (a spec registered by
 * URL): OpenAPI says relative server URLs, and the default server `/` when there is none, are relative to where the
 * document is; a Swagger 2.0 document without `host` is served by the host it came from. Resolved here, so that
 * the console sends requests there and not to the site. A spec sent as text (no location) is left as it is.
 */
export function withSpecLocation(document: Record<string, unknown>, sourceURL: string | undefined): Record<string, unknown> {
  let location: URL;
  try {
    location = new URL(sourceURL ?? "");
  } catch {
    return document;
  }
  if (location.protocol !== "https:" && location.protocol !== "http:") return document;
  if (document.swagger === "2.0") {
    if (typeof document.host === "string" && document.host) return document;
    const schemes = Array.isArray(document.schemes) && document.schemes.length ? document.schemes : [location.protocol.slice(0, -1)];
    return { ...document, host: location.host, schemes };
  }
  const resolve = (list: unknown, fallback: boolean): unknown => {
    if (!Array.isArray(list) || !list.length) return fallback ? [{ url: new URL("/", location).href.replace(/\/$/, "") }] : list;
    return list.map((server: unknown) => {
      const s = server as { url?: unknown } | null;
      if (!s || typeof s.url !== "string" || /^[a-z][a-z0-9+.-]*:/i.test(s.url) || s.url.startsWith("{")) return server;
      try {
        return { ...s, url: new URL(s.url, location).href.replace(/\/$/, "") };
      } catch {
        return server;
      }
    });
  };
  const out: Record<string, unknown> = { ...document, servers: resolve(document.servers, true) };
  const paths = document.paths as Record<string, Record<string, unknown> | undefined> | undefined;
  if (paths && typeof paths === "object") {
    const resolvedPaths: Record<string, unknown> = {};
    for (const [path, item] of Object.entries(paths)) {
      if (!item || typeof item !== "object") {
        resolvedPaths[path] = item;
        continue;
      }
      const resolvedItem: Record<string, unknown> = { ...item };
      if (item.servers !== undefined) resolvedItem.servers = resolve(item.servers, false);
      for (const [key, operation] of Object.entries(item)) {
        const op = operation as Record<string, unknown> | null;
        if (key !== "servers" && op && typeof op === "object" && !Array.isArray(op) && op.servers !== undefined) resolvedItem[key] = { ...op, servers: resolve(op.servers, false) };
      }
      resolvedPaths[path] = resolvedItem;
    }
    out.paths = resolvedPaths;
  }
  return out;
}

/**
 * The http(s) origins of the document's servers (top level, the path's and the operation's), `{variables}` taken
 * at their defaults; relative and other URLs left out. What the console page's CSP lets the browser reach.
 */
export function serverOrigins(document: Record<string, unknown>, method: string, path: string): string[] {
  const lists: unknown[] = [document.servers];
  const item = (document.paths as Record<string, Record<string, unknown>> | undefined)?.[path];
  if (item && typeof item === "object") lists.push(item.servers, (item[method] as Record<string, unknown> | undefined)?.servers);
  const origins = new Set<string>();
  // Swagger 2.0: `schemes` × `host` (Scalar's client upgrades the document to 3.x the same way).
  if (document.swagger === "2.0" && typeof document.host === "string") {
    const schemes = Array.isArray(document.schemes) && document.schemes.length ? document.schemes : ["https"];
    for (const scheme of schemes) {
      if (scheme !== "http" && scheme !== "https") continue;
      try {
        const parsed = new URL(`${scheme}://${document.host}`);
        if (!/[\s;,'"]/.test(parsed.origin)) origins.add(parsed.origin);
      } catch {
        // A broken host: nothing to allow.
      }
    }
  }
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const server of list as Array<{ url?: unknown; variables?: Record<string, { default?: unknown }> }>) {
      if (typeof server?.url !== "string") continue;
      const url = server.url.replace(/\{([^}]{1,64})\}/g, (_m, name: string) => {
        const value = server.variables?.[name]?.default;
        return typeof value === "string" ? value : "";
      });
      try {
        const parsed = new URL(url);
        if ((parsed.protocol === "https:" || parsed.protocol === "http:") && !/[\s;,'"]/.test(parsed.origin)) origins.add(parsed.origin);
      } catch {
        // A relative or broken URL: nothing to allow.
      }
      if (origins.size >= MAX_ORIGINS) return [...origins];
    }
  }
  return [...origins];
}

/**
 * The console page's CSP. Decision: Scalar's client sets inline styles (Vue's style bindings, its CodeMirror
 * editor, floating panels) and `data:` icons and fonts, so this page alone allows `'unsafe-inline'` styles and
 * `data:`; scripts stay `'self'` only (no inline script, no eval: the bundle has none).
 */
export function consoleCsp(origins: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${origins.join(" ")}`.trim(),
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function consoleHeaders(origins: string[]): Record<string, string> {
  return { ...pageSecurityHeaders("strict-origin-when-cross-origin"), "Content-Security-Policy": consoleCsp(origins) };
}

const e = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside `<script type="application/json">`: no `<`, so no `</script>` or comment can end the block. */
function dataBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export function consoleHtml(view: { siteTitle: string; base: string; backHref: string; request: ConsoleRequest; document: Record<string, unknown>; assets: ConsoleAssets }): string {
  const { request, base } = view;
  const label = `${request.method.toUpperCase()} ${request.path}`;
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>Test ${e(label)} | ${e(view.siteTitle)}</title>`,
    `<link rel="stylesheet" href="${e(`${base}/~${view.assets.css}`)}">`,
    `<script type="module" src="${e(`${base}/~${view.assets.js}`)}"></script>`,
    "</head><body>",
    `<main class="api-console-page"><h1>Test <code>${e(label)}</code></h1>`,
    `<p><a href="${e(view.backHref)}">Back to the documentation</a> · <button type="button" id="api-console-open">Open the console</button></p>`,
    "<noscript><p>The console needs JavaScript.</p></noscript>",
    '<div id="api-console"></div></main>',
    `<script type="application/json" id="api-console-data">${dataBlock({ document: view.document, method: request.method, path: request.path })}</script>`,
    "</body></html>",
  ].join("\n");
}
