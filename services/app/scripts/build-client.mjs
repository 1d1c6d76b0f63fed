// Builds the app's browser code (client/) with esbuild into dist/client/: one script (and a stylesheet when it
// imports one) per entry, each named with its content's hash, and manifest.json naming them for the server.
// Run by `npm run build` after tsc; prints each file's size and gzipped size.
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowsers, sizeOf } from "../../../scripts/bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "client");
// editor: the block editor's page; shell: every signed-in page's small script (jump dialog, @ suggestions).
const entries = { editor: join(root, "client", "editor.ts"), shell: join(root, "client", "shell.ts") };
const result = await bundleForBrowsers(out, entries, { format: "iife" });

const manifest = {};
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const name = basename(file);
  const entry = name.slice(0, name.indexOf("-"));
  const kind = name.endsWith(".css") ? "css" : "js";
  manifest[entry] = { ...manifest[entry], [kind]: name };
  if (meta.cssBundle) manifest[entry].css = basename(meta.cssBundle);
}
writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2));
const sizes = {};
for (const { js, css } of Object.values(manifest)) for (const name of [js, css]) if (name) sizes[name] = sizeOf(out, name);

// The editor's script budget (issue 38: at most 350 KB gzipped): a build over it fails, not only prints.
const EDITOR_BUDGET_GZIPPED = 350 * 1024;
const editor = sizes[manifest.editor.js];
if (editor.gzipped > EDITOR_BUDGET_GZIPPED) {
  console.error(`${manifest.editor.js} is ${editor.gzipped} bytes gzipped, over the editor's budget of ${EDITOR_BUDGET_GZIPPED}.`);
  process.exit(1);
}
