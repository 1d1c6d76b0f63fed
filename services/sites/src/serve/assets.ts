// The published pages' one script (client/site.ts, compiled with the service) as a hashed static file:
// `{base}/~site.{hash}.js`, immutable, so a new build is a new URL and browsers keep the old one forever.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Asset {
  name: string;
  body: string;
}

let script: Asset | null | undefined;

/** The compiled client script, or null when it is not built (the unit tests run the TypeScript sources). */
export function siteScript(): Asset | null {
  if (script !== undefined) return script;
  try {
    // tsc compiles it as a CommonJS module: its `exports` marker line would throw in a browser, and the source map is not served.
    const body = readFileSync(join(__dirname, "client", "site.js"), "utf8")
      .replace(/^Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);\n/m, "")
      .replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n");
    script = { name: `~site.${createHash("sha256").update(body).digest("hex").slice(0, 16)}.js`, body };
  } catch {
    script = null;
  }
  return script;
}

/** Headers of a hashed asset: it never changes under its name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
