// The targets of the customization's links (header items, footer links, the announcement's link) as URLs:
// GitBook's content references of kind `url` (web URLs only), and `page`, `space` and `anchor` resolved to
// this site's URL of that page or space as the visitor's site map shows it. A target the site does not show
// (another organization's space, a page gone from the published revision, a space hidden by a condition)
// resolves to nothing and its link is left out.
import type { Customization } from "../customization";
import { pageUrl, type TreeIndex } from "./content";
import type { SiteMap, SiteSpaceView } from "./site-map";

type Ref = { kind?: unknown; url?: unknown; page?: unknown; space?: unknown; anchor?: unknown };

/** Every `to` of the customization's links. */
export function chromeRefs(customization: Customization): unknown[] {
  const refs: unknown[] = [];
  const items = Array.isArray(customization.header.links) ? (customization.header.links as Array<{ to?: unknown; links?: unknown } | null>) : [];
  for (const item of items) {
    refs.push(item?.to);
    if (Array.isArray(item?.links)) for (const link of item.links as Array<{ to?: unknown } | null>) refs.push(link?.to);
  }
  for (const group of (Array.isArray(customization.footer.groups) ? customization.footer.groups : []) as Array<{ links?: unknown } | null>) {
    if (Array.isArray(group?.links)) for (const link of group.links as Array<{ to?: unknown } | null>) refs.push(link?.to);
  }
  refs.push(customization.announcement?.link?.to);
  return refs;
}

const ANCHOR = /^[^\s"'<>#]{1,256}$/;

function webUrl(ref: Ref): string | undefined {
  // Any http(s) URL as stored (the customization checked it; the layout escapes it).
  return typeof ref.url === "string" && /^https?:\/\//i.test(ref.url) ? ref.url : undefined;
}

/** The key a reference is looked up by once resolved. */
function keyOf(ref: Ref): string | undefined {
  if (ref.kind === "space" && typeof ref.space === "string") return `space:${ref.space}`;
  if ((ref.kind === "page" || ref.kind === "anchor") && typeof ref.page === "string") {
    const space = typeof ref.space === "string" ? ref.space : "";
    const anchor = ref.kind === "anchor" && typeof ref.anchor === "string" && ANCHOR.test(ref.anchor) ? ref.anchor : "";
    if (ref.kind === "anchor" && !anchor) return undefined;
    return `page:${space}:${ref.page}#${anchor}`;
  }
  return undefined;
}

/**
 * A resolver of the customization's link targets for one request: the pages named are looked up once in the
 * published trees of the site spaces that may hold them (the current one first), read through `treeOf`.
 * A page reference without `space` means a page of the site space being read, else of any the site shows.
 */
export async function chromeLinkResolver(
  refs: unknown[],
  map: SiteMap | undefined,
  current: SiteSpaceView | undefined,
  treeOf: (view: SiteSpaceView) => Promise<TreeIndex>,
): Promise<(to: unknown) => string | undefined> {
  const resolved = new Map<string, string>();
  const views = map ? [...(current ? [current] : []), ...map.all.filter((v) => v !== current)] : [];
  const trees = new Map<SiteSpaceView, Promise<TreeIndex | undefined>>();
  const tree = (view: SiteSpaceView) => {
    if (!trees.has(view)) trees.set(view, treeOf(view).catch(() => undefined));
    return trees.get(view)!;
  };
  for (const to of refs) {
    if (!to || typeof to !== "object") continue;
    const ref = to as Ref;
    const key = keyOf(ref);
    if (!key || resolved.has(key)) continue;
    const candidates = typeof ref.space === "string" ? views.filter((v) => v.spaceId === ref.space) : views;
    if (ref.kind === "space") {
      if (candidates[0]) resolved.set(key, candidates[0].base || "/");
      continue;
    }
    for (const view of candidates) {
      const index = await tree(view);
      const page = index?.byId.get(ref.page as string);
      if (!index || !page) continue;
      const anchor = key.slice(key.lastIndexOf("#") + 1);
      resolved.set(key, `${pageUrl(view.base, index, page)}${anchor ? `#${encodeURIComponent(anchor)}` : ""}`);
      break;
    }
  }
  return (to: unknown) => {
    if (!to || typeof to !== "object") return undefined;
    const ref = to as Ref;
    if (ref.kind === "url") return webUrl(ref);
    const key = keyOf(ref);
    return key ? resolved.get(key) : undefined;
  };
}
