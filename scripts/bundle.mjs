// The browser bundles' common build step (services/app/scripts/build-client.mjs, services/sites/scripts/
// build-console.mjs): esbuild into a fresh dist/<name>/ folder, minified, each output named with its content's
// hash; and the sizes each script prints.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** Bundles `entryPoints` (name → file) for browsers into `out`, emptied first; answers esbuild's result with its metafile. */
export async function bundleForBrowsers(out, entryPoints, options = {}) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  return build({
    entryPoints,
    bundle: true,
    minify: true,
    target: ["es2022"],
    platform: "browser",
    outdir: out,
    entryNames: "[name]-[hash]",
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
    ...options,
  });
}

/** A built file's size and gzipped size, printed; answered for a manifest. */
export function sizeOf(out, name) {
  const body = readFileSync(join(out, name));
  const size = { bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  console.log(`${name}: ${size.bytes} bytes, ${size.gzipped} gzipped`);
  return size;
}
