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

/**
 * The anchors of one page: `take(base)` answers `base` (or "section" when empty), else `base-1`, `base-2`…:
 * the first one not yet taken, which it then holds. Each root remembers the last number it handed out, so a
 * page of n headings costs O(n) however many repeat (counting up from 1 each time was O(n²): 20,000 `# a`
 * headings took half a minute). The anchors are the same as counting up from 1, since every number below a
 * root's counter is taken and taken anchors stay taken.
 */
export class UniqueAnchors {
  private readonly taken = new Set<string>();
  private readonly next = new Map<string, number>();

  take(base: string): string {
    const root = base || "section";
    let n = this.next.get(root) ?? 0;
    let anchor = n === 0 ? root : `${root}-${n}`;
    while (this.taken.has(anchor)) anchor = `${root}-${++n}`;
    this.taken.add(anchor);
    this.next.set(root, n + 1);
    return anchor;
  }
}
