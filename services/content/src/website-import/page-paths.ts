// Page paths (slugs) derived from URL paths, kept unique, and relative links between them.
import { slugifyHeading } from "@docshelf/slugs";

const PAGE_EXTENSION = /\.(?:html?|xhtml|php|aspx?|jsp|md)$/i;

function slugifySegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep the raw segment when it is not valid percent-encoding
  }
  // The same rule as heading anchors: lower-case letters and digits of any script, joined by dashes.
  return slugifyHeading(decoded);
}

/** "/Docs/Getting_Started.html" → "docs/getting-started"; "/" and "/index.html" → "index". */
export function slugPath(url: URL): string {
  const segments = url.pathname.split("/").filter(Boolean);
  if (segments.length > 0) {
    const last = segments[segments.length - 1].replace(PAGE_EXTENSION, "");
    if (last.toLowerCase() === "index") segments.pop();
    else segments[segments.length - 1] = last;
  }
  return segments.map(slugifySegment).filter(Boolean).join("/") || "index";
}

/** Hands out each path once; a repeat gets "-2", "-3", … */
export class PathAllocator {
  private readonly used = new Set<string>();

  allocate(path: string): string {
    let candidate = path;
    for (let n = 2; this.used.has(candidate); n++) candidate = `${path}-${n}`;
    this.used.add(candidate);
    return candidate;
  }
}

/** The link from page `from` to page `to`, relative like file paths: "guides/a" → "api/b" is "../api/b". */
export function relativePagePath(from: string, to: string): string {
  const fromDir = from.split("/").slice(0, -1);
  const toParts = to.split("/");
  const toDir = toParts.slice(0, -1);
  let common = 0;
  while (common < fromDir.length && common < toDir.length && fromDir[common] === toDir[common]) common++;
  return [...Array<string>(fromDir.length - common).fill(".."), ...toParts.slice(common)].join("/");
}
