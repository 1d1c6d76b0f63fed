// GitBook's searchSiteContent: the site's spaces the caller can read, ranked by the published search
// page's own function (serve/search.ts) and grouped by space, with GitBook's scopes and its deprecated modes.
import { createHash } from "node:crypto";
import { callerOf } from "@docshelf/access";
import { BadRequestError } from "@docshelf/errors";
import { decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, listParams } from "@docshelf/list";
import type { Sort } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SiteSpaceDoc } from "./models";
import { siteRef, type SiteRef } from "./params";
import { StructurePresenter } from "./present";
import type { PublishedHead, TreeIndex } from "./serve/content";
import { MAX_SEARCH_RESULTS, rankSiteSearch } from "./serve/search";
import { buildSiteMap } from "./serve/site-map";
import type { Ctx, SitesActions, SitesService } from "./service-types";

const MAX_QUERY_LENGTH = 512;
const TOKEN_SORT: Sort = [["siteSearch", 1]];

type Scope =
  | { mode: "default"; currentSiteSpace?: string; restrictTo?: "currentSiteSpace" | "otherSiteSpaces" }
  | { mode: "specific"; siteSpaceIds: string[] }
  | { mode: "all" };

interface SearchParams extends SiteRef {
  query: string;
  scope?: Scope;
  mode?: "specific" | "current" | "all";
  siteSpaceIds?: string[];
  siteSpaceId?: string;
  page?: string;
  limit?: number;
}

interface SpaceResult {
  type: "space";
  id: string;
  title: string;
  score: number;
  pages: Array<Record<string, unknown>>;
}

const siteSpaceIdsRule = { type: "array", items: idRule, min: 1, max: 100 } as const;

/** The scope the request names, the deprecated `mode`s read as GitBook documents them; none: every site space. */
function scopeOf(params: SearchParams): Scope {
  if (params.scope) {
    if (params.scope.mode === "default" && params.scope.restrictTo && !params.scope.currentSiteSpace) {
      throw new BadRequestError("Invalid parameters: 'scope.currentSiteSpace' is required with 'scope.restrictTo'.");
    }
    if (params.scope.mode === "specific" && !params.scope.siteSpaceIds) throw new BadRequestError("Invalid parameters: 'scope.siteSpaceIds' is required with mode 'specific'.");
    return params.scope;
  }
  if (params.siteSpaceIds) return { mode: "specific", siteSpaceIds: params.siteSpaceIds };
  if (params.mode === "current") {
    if (!params.siteSpaceId) throw new BadRequestError("Invalid parameters: 'siteSpaceId' is required with mode 'current'.");
    return { mode: "default", currentSiteSpace: params.siteSpaceId };
  }
  if (params.mode === "specific") throw new BadRequestError("Invalid parameters: 'siteSpaceIds' is required with mode 'specific'.");
  return { mode: "all" };
}

function offsetOf(page: string | undefined, key: string): number {
  if (!page) return 0;
  const cursor = decodePageToken(TOKEN_SORT, page);
  const offset = cursor.values[0];
  if (cursor.id !== key || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    throw new BadRequestError("Invalid parameters: 'page' is not a page token this API issued for this search.");
  }
  return offset;
}

/** Titles of a page's ancestors, from the top level down to its parent. */
function ancestors(tree: TreeIndex | undefined, path: string): Array<{ title: string }> {
  const page = tree?.byPath.get(path);
  const out: Array<{ title: string }> = [];
  for (let parent = page && tree?.parentOf.get(page.id); parent; parent = tree?.parentOf.get(parent.id)) out.unshift({ title: parent.title || "Untitled" });
  return out;
}

export const siteSearchActions: SitesActions = {
  /**
   * POST …/search `{query, scope? | siteSpaceIds? | mode?}` `?page&limit` — site read; the spaces of
   * the scope the caller can read are ranked together by the published search page's ranking
   * (serve/search.ts: one search of content's index, best page first, MAX_SEARCH_RESULTS pages);
   * `rank` is the place in that order, `score` 1/rank. Items are spaces, `limit` of them per page, in
   * the order of their best page.
   */
  searchContent: {
    params: {
      ...siteRef,
      query: { type: "string", max: MAX_QUERY_LENGTH },
      scope: {
        type: "object",
        strict: true,
        optional: true,
        props: {
          mode: { type: "enum", values: ["default", "specific", "all"] },
          currentSiteSpace: { ...idRule, optional: true },
          restrictTo: { type: "enum", values: ["currentSiteSpace", "otherSiteSpaces"], optional: true },
          siteSpaceIds: { ...siteSpaceIdsRule, optional: true },
        },
      },
      mode: { type: "enum", values: ["specific", "current", "all"], optional: true },
      siteSpaceIds: { ...siteSpaceIdsRule, optional: true },
      siteSpaceId: { ...idRule, optional: true },
      ...listParams,
    },
    async handler(this: SitesService, ctx: Ctx<SearchParams>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const scope = scopeOf(ctx.params);
      const structure = await this.loadStructure(ctx, site);
      const presenter = new StructurePresenter(structure, this.publicUrl(), undefined);
      // Every site space in the site's order: the root's, then each section's.
      const ordered: SiteSpaceDoc[] = ["", ...presenter.sections.map((s) => s.id)].flatMap((id) => presenter.siteSpacesIn(id));
      const known = new Set(ordered.map((s) => s.id));
      for (const id of [scope.mode === "specific" ? scope.siteSpaceIds : [], scope.mode === "default" && scope.currentSiteSpace ? [scope.currentSiteSpace] : []].flat()) {
        if (!known.has(id)) throw new BadRequestError(`Invalid parameters: site space ${id} was not found in the site ('${ctx.params.scope ? "scope." : ""}${scope.mode === "specific" ? "siteSpaceIds" : ctx.params.scope ? "currentSiteSpace" : "siteSpaceId"}').`);
      }
      let chosen: SiteSpaceDoc[];
      if (scope.mode === "all") chosen = ordered;
      else if (scope.mode === "specific") chosen = ordered.filter((s) => scope.siteSpaceIds.includes(s.id));
      else {
        const current = scope.currentSiteSpace;
        const defaults = ordered.filter((s) => presenter.isDefaultSiteSpace(s) || s.id === current);
        chosen = scope.restrictTo === "currentSiteSpace" ? defaults.filter((s) => s.id === current) : scope.restrictTo === "otherSiteSpaces" ? defaults.filter((s) => s.id !== current) : defaults;
      }
      // The published search page's ranking (serve/search.ts) over the chosen site spaces of spaces the
      // caller can read, in the site's order as the page takes them.
      const heads = new Map<string, PublishedHead>([...structure.spaces].map(([spaceId, space]) => [spaceId, { spaceId, revisionId: typeof space.revision === "string" ? space.revision : null, title: String(space.title ?? "") }]));
      const map = buildSiteMap(structure, heads, {}, "", { ignoreConditions: true });
      const chosenIds = new Set(chosen.map((s) => s.id));
      const views = map.all.filter((view) => chosenIds.has(view.doc.id));
      const { query } = ctx.params;
      const ranked = await rankSiteSearch(this.publishedContent, views, query, MAX_SEARCH_RESULTS);
      const publicUrl = this.publicUrl();
      const appUrl = (spaceId: string, path: string) => {
        const urls = structure.spaces.get(spaceId)?.urls as { app?: unknown } | undefined;
        return `${typeof urls?.app === "string" ? urls.app : `${publicUrl}/s/${spaceId}`}/${path}`;
      };
      const bySpace = new Map<string, SpaceResult>();
      for (const { view, tree, page, hit, rank } of ranked) {
        const score = 1 / rank;
        let result = bySpace.get(view.spaceId);
        if (!result) bySpace.set(view.spaceId, (result = { type: "space", id: view.spaceId, title: structure.spaces.get(view.spaceId)?.title ?? "", score, pages: [] }));
        result.pages.push({
          id: hit.id,
          title: hit.title,
          description: page.description ?? "",
          path: hit.path,
          score,
          rank,
          resultType: hit.sections.some((s) => s.path.includes("#")) ? "section" : "page",
          sections: hit.sections.map((s) => ({ ...s, urls: { app: appUrl(view.spaceId, s.path) }, score, resultType: s.path.includes("#") ? "section" : "page" })),
          ancestors: ancestors(tree, hit.path),
          urls: { app: appUrl(view.spaceId, hit.path) },
        });
      }
      const items = [...bySpace.values()];
      const key = createHash("sha256").update(`${site.id}:${query.trim()}`).digest("base64url").slice(0, 16);
      const limit = ctx.params.limit ?? DEFAULT_PAGE_SIZE;
      const offset = offsetOf(ctx.params.page, key);
      const page = items.slice(offset, offset + limit);
      return {
        items: page,
        count: items.length,
        ...(offset + limit < items.length ? { next: { page: encodePageToken(TOKEN_SORT, { values: [offset + limit], id: key }) } } : {}),
      };
    },
  },
};
