// Builds the app's browser code (client/) with esbuild into dist/client/: one script and one stylesheet
// per entry, each named with its content's hash, and manifest.json naming them for the server.
// Run by `npm run build` after tsc; prints each file's size and gzipped size.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "client");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: { editor: join(root, "client", "editor.ts") },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2022"],
  platform: "browser",
  outdir: out,
  entryNames: "[name]-[hash]",
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});

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
for (const { js, css } of Object.values(manifest)) {
  for (const name of [js, css]) {
    const body = readFileSync(join(out, name));
    console.log(`${name}: ${body.length} bytes, ${gzipSync(body, { level: 9 }).length} gzipped`);
  }
}
