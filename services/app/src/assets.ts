// The app's browser code (the block editor's script and stylesheet, every signed-in page's small script): built by scripts/build-client.mjs (esbuild) into
// dist/client/ with a content hash in each name, listed in dist/client/manifest.json. Served by the app
// itself under /app/assets/ with a year's cache (a new build is a new name); read once, when first asked.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AppAnswer } from "./http";
import { immutableAsset } from "./http";

export interface ClientManifest {
  /** The editor's script and stylesheet, as paths under /app/assets/. */
  editor: { js: string; css: string };
  /** Every signed-in page's small script (client/shell.ts: the jump dialog, @ suggestions in comment boxes). */
  shell?: { js: string };
}

const DIR = join(__dirname, "client");
const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
const NAME = /^[a-z]+-[A-Z0-9]{8,}\.(js|css)$/;

let loaded: { manifest: ClientManifest; files: Map<string, string> } | undefined;

function load(): { manifest: ClientManifest; files: Map<string, string> } {
  if (loaded) return loaded;
  const manifest = JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as ClientManifest;
  const files = new Map<string, string>();
  for (const path of [manifest.editor.js, manifest.editor.css, manifest.shell?.js]) if (path) files.set(path, readFileSync(join(DIR, path), "utf8"));
  loaded = { manifest, files };
  return loaded;
}

/** Where the editor's script and stylesheet are served. */
export function editorAssets(): { js: string; css: string } {
  const { manifest } = load();
  return { js: `/app/assets/${manifest.editor.js}`, css: `/app/assets/${manifest.editor.css}` };
}

/** Where every signed-in page's small script is served; undefined when the client was not built (pages work without it). */
export function shellScript(): string | undefined {
  try {
    const shell = load().manifest.shell;
    return shell ? `/app/assets/${shell.js}` : undefined;
  } catch {
    return undefined;
  }
}

/** `GET /app/assets/{name}`: one of the built files, or undefined (a 404). */
export function assetAnswer(name: string): AppAnswer | undefined {
  if (!NAME.test(name)) return undefined;
  const body = load().files.get(name);
  if (body === undefined) return undefined;
  return immutableAsset(TYPES[name.slice(name.lastIndexOf("."))], body);
}
