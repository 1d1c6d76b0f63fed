// The segments of a request path under a site, shared by the page routes and the site MCP server's getPage.

/** Decoded path segments, or null for a path that is not one (bad escapes, dot segments, slashes or NULs inside). */
export function pathSegments(path: string): string[] | null {
  if (!path.startsWith("/")) return null;
  const segments: string[] = [];
  for (const raw of path.slice(1).split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === "." || segment === ".." || /[/\\\0]/.test(segment) || segment.length > 200) return null;
    segments.push(segment);
  }
  return segments;
}
