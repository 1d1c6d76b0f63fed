// The site's search ranking, one function for the published search page (`~search`) and GitBook's
// searchSiteContent, so the same query gives the same order in both.
import type { PublishedContent, SearchHit, TreeIndex, TreePage } from "./content";

/** Pages the published search page shows. */
export const SEARCH_PAGE_RESULTS = 20;
/** The most content's published search answers at once (searchSiteContent asks for that many). */
export const MAX_SEARCH_RESULTS = 100;

/** A site space as the search needs it: its space and the revision the site shows. */
export interface SearchView {
  spaceId: string;
  revisionId: string;
}

export interface RankedHit<V extends SearchView> {
  /** The first site space (in the given order) that shows the hit's space. */
  view: V;
  tree: TreeIndex;
  page: TreePage;
  hit: SearchHit;
  /** 1 for the best page. */
  rank: number;
}

/**
 * One search of content's index (`content.publishedSearch`) over the spaces of `views` (each space
 * once, in the order of its first site space: the index breaks equal scores by that order), best page
 * first across spaces, `limit` pages at most. A page the index still has from an older revision, or a
 * hidden one, is left out. Asking for more gives the same order with more after it.
 */
export async function rankSiteSearch<V extends SearchView>(published: PublishedContent, views: V[], query: string, limit = SEARCH_PAGE_RESULTS): Promise<Array<RankedHit<V>>> {
  const bySpace = new Map<string, V>();
  for (const view of views) if (!bySpace.has(view.spaceId)) bySpace.set(view.spaceId, view);
  if (!bySpace.size || !query.trim()) return [];
  const hits = await published.search([...bySpace.keys()], query, limit);
  const trees = new Map<string, Promise<TreeIndex>>();
  const out: Array<RankedHit<V>> = [];
  for (const hit of hits) {
    const view = bySpace.get(hit.spaceId);
    if (!view) continue;
    let tree = trees.get(view.spaceId);
    if (!tree) trees.set(view.spaceId, (tree = published.tree(view.spaceId, view.revisionId)));
    const index = await tree;
    const page = index.byPath.get(hit.path);
    if (!page || !index.order.includes(page)) continue;
    out.push({ view, tree: index, page, hit, rank: out.length + 1 });
  }
  return out;
}
