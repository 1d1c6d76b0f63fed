// The one set of slug rules: URL path segments from titles, and heading anchors (the published sites'
// heading ids and the search index's section anchors must agree, and content, sites, Git sync and the
// OpenAPI pages must cut the same paths from the same titles).

/**
 * A URL path segment from a title: its ASCII letters and digits, lower-cased, in words joined by "-",
 * at most `max` characters (no dash left at the cut); `fallback` when nothing is left.
 */
export function slugify(title: string, max: number, fallback: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
  return slug || fallback;
}

/** GitBook-style heading anchor: lower-case letters and digits of any script, joined by dashes. */
export function slugifyHeading(heading: string): string {
  return heading
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** `base` (or "section" when empty), else `base-1`, `base-2`…: the first one `used` does not hold, which it then holds. */
export function uniqueAnchor(base: string, used: Set<string>): string {
  const root = base || "section";
  let anchor = root;
  for (let n = 1; used.has(anchor); n++) anchor = `${root}-${n}`;
  used.add(anchor);
  return anchor;
}
