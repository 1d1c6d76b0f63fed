// Pure rules of a site's structure: order, defaults, paths, published URLs and moves.
import { slugify as slugifyTitle } from "@docshelf/slugs";
import type { SectionDoc, SiteDoc, SiteSpaceDoc } from "./models";

interface Positioned {
  id: string;
  position: number;
}

/** Position order, id breaking ties. */
export function byPosition<T extends Positioned>(items: T[]): T[] {
  return [...items].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The position after every item (1 for the first). */
export function nextPosition(items: Positioned[]): number {
  return items.reduce((max, item) => Math.max(max, item.position), 0) + 1;
}

/** The default of ordered items: the chosen one while it exists, else the first; undefined when empty. */
export function defaultOf<T extends { id: string }>(ordered: T[], chosenId: string | undefined): T | undefined {
  return ordered.find((item) => item.id === chosenId) ?? ordered[0];
}

export type MoveTarget = { before: string } | { after: string } | { end: true };

/**
 * The positions that change when `id` moves before or after a sibling (or to the end): the siblings
 * in their new order renumbered 1..n, only those whose number changes. Throws RangeError when the
 * reference is not a sibling or is the moved item itself.
 */
export function movePositions(siblings: Positioned[], id: string, target: MoveTarget): Map<string, number> {
  const ordered = byPosition(siblings).filter((item) => item.id !== id);
  const moved = siblings.find((item) => item.id === id);
  if (!moved) throw new RangeError(`${id} is not among the siblings`);
  let index = ordered.length;
  if ("before" in target || "after" in target) {
    const ref = "before" in target ? target.before : target.after;
    const at = ordered.findIndex((item) => item.id === ref);
    if (at < 0) throw new RangeError(`${ref} is not a sibling`);
    index = "before" in target ? at : at + 1;
  }
  ordered.splice(index, 0, moved);
  const changes = new Map<string, number>();
  ordered.forEach((item, i) => {
    if (item.position !== i + 1) changes.set(item.id, i + 1);
  });
  return changes;
}

/** A URL path segment from a title: lower-case words joined by hyphens ("section" when nothing is left). */
export function slugify(title: string): string {
  return slugifyTitle(title, 90, "section");
}

/** `base`, or `base-2`, `base-3`… : the first that `taken` does not hold. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 100 - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The site's name in `/sites/{name}`: its basename when it has one, else its id. */
export function sitePathName(site: Pick<SiteDoc, "id" | "basename">): string {
  return encodeURIComponent(site.basename ?? site.id);
}

/** Where the instance serves a site: `PUBLIC_URL/sites/{basename or id}`. */
export function instanceSiteUrl(site: SiteDoc, publicUrl: string): string {
  return `${publicUrl}/sites/${sitePathName(site)}`;
}

/** Where a site is served: its custom hostname, its proxy origin, else under the instance's `/sites/`. */
export function siteBaseUrl(site: SiteDoc, publicUrl: string): string {
  if (site.hostname) return `https://${site.hostname}`;
  if (site.proxyOrigin) return `https://${site.proxyOrigin}`;
  return instanceSiteUrl(site, publicUrl);
}

/**
 * Published URLs of a site's structure. Unpublished sites have none; share-link sites only with a
 * valid key, which the URL then carries (`?share=`). Defaults sit at their parent's URL.
 */
export class PublishedUrls {
  constructor(
    private readonly site: SiteDoc,
    private readonly publicUrl: string,
    private readonly shareKey: string | undefined,
  ) {}

  private get resolvable(): boolean {
    return this.site.published && (this.site.visibility !== "share-link" || this.shareKey !== undefined);
  }

  private withKey(url: string): string {
    return this.site.visibility === "share-link" && this.shareKey ? `${url}?share=${encodeURIComponent(this.shareKey)}` : url;
  }

  forSite(): string | undefined {
    return this.resolvable ? this.withKey(siteBaseUrl(this.site, this.publicUrl)) : undefined;
  }

  section(section: SectionDoc, isDefault: boolean): string | undefined {
    if (!this.resolvable) return undefined;
    return this.withKey(this.sectionBase(section, isDefault));
  }

  siteSpace(siteSpace: SiteSpaceDoc, isDefault: boolean, section: { doc: SectionDoc; isDefault: boolean } | undefined): string | undefined {
    if (!this.resolvable) return undefined;
    const base = section ? this.sectionBase(section.doc, section.isDefault) : siteBaseUrl(this.site, this.publicUrl);
    return this.withKey(isDefault ? base : `${base}/${siteSpace.path}`);
  }

  private sectionBase(section: SectionDoc, isDefault: boolean): string {
    const base = siteBaseUrl(this.site, this.publicUrl);
    return isDefault ? base : `${base}/${section.path}`;
  }
}
