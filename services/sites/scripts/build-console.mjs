// Builds the API blocks' "Test it" console (console/console.ts: Scalar's API client) with esbuild into
// dist/console/: one script and one stylesheet, each named with its content's hash, and manifest.json naming
// them for the server (serve/api-console.ts). Run by `npm run build` after tsc; prints each file's size and
// gzipped size. Only the console page loads them, never the site's other pages.
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowsers, sizeOf } from "../../../scripts/bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "console");
const result = await bundleForBrowsers(out, { console: join(root, "console", "console.ts") }, {
  format: "esm",
  charset: "ascii",
  define: {
    "process.env.NODE_ENV": '"production"',
    __VUE_OPTIONS_API__: "true",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
});

const manifest = {};
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  manifest.js = basename(file);
  if (meta.cssBundle) manifest.css = basename(meta.cssBundle);
}
const sizes = {};
for (const kind of ["js", "css"]) sizes[kind] = sizeOf(out, manifest[kind]);
writeFileSync(join(out, "manifest.json"), JSON.stringify({ ...manifest, sizes }, null, 2));
