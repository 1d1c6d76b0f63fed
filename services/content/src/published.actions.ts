// Internal: what the sites service reads to serve published sites, without a user: the current
// revision of spaces, a revision's page tree, a page's markdown, and search restricted to given spaces.
// No access check: the sites service decides who may read a published site.
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { PublishedHead, PublishedPage, PublishedTree, PublishedTreePage, SearchHit } from "@docshelf/contracts/content";
import { documentResolver, refIndex } from "./revisions/document-refs";
import type { PageNode } from "./revisions/tree";
import { ensureIndexed } from "./search-indexing";
import type { ContentActions, Ctx } from "./service-types";

function treePage(page: PageNode): PublishedTreePage {
  const out: PublishedTreePage = { id: page.id, title: page.title, slug: page.slug, path: page.path, updatedAt: page.updatedAt, pages: page.pages.map(treePage) };
  if (page.description) out.description = page.description;
  if (page.emoji) out.emoji = page.emoji;
  if (page.hidden) out.hidden = true;
  if (page.noIndex) out.noIndex = true;
  if (page.noRobotsIndex) out.noRobotsIndex = true;
  if (page.variables && Object.keys(page.variables).length) out.variables = page.variables;
  if (page.git?.path) out.gitPath = page.git.path;
  return out;
}

const MAX_SPACES = 500;

export const publishedActions: ContentActions = {
  /** Internal: the current revision and title of each space; revisionId null when it is missing or deleted. */
  publishedHeads: {
    visibility: "public",
    params: { spaceIds: { type: "array", items: idRule, max: MAX_SPACES } },
    async handler(ctx: Ctx<{ spaceIds: string[] }>): Promise<PublishedHead[]> {
      const found = ctx.params.spaceIds.length ? await this.spaces.find({ id: op.in(ctx.params.spaceIds) }) : [];
      const byId = new Map(found.map((s) => [s.id, s]));
      return ctx.params.spaceIds.map((spaceId) => {
        const space = byId.get(spaceId);
        if (!space || space.deletedAt) return { spaceId, revisionId: null, title: "" };
        const head: PublishedHead = { spaceId, revisionId: space.revision, title: space.title };
        if (space.gitSync?.url) head.git = { url: space.gitSync.url, ...(space.gitSync.installationProvider ? { provider: space.gitSync.installationProvider } : {}) };
        return head;
      });
    },
  },

  /** Internal: a revision's page tree without bodies, and its variables. Large trees come as a stream of JSON text. */
  publishedTree: {
    visibility: "public",
    params: { spaceId: idRule, revisionId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; revisionId: string }>) {
      const revision = await this.loadRevision(ctx.params.spaceId, ctx.params.revisionId);
      return this.respondJson(ctx, `published-tree:${revision.id}`, (): PublishedTree => ({
        spaceId: revision.spaceId,
        revisionId: revision.id,
        ...(revision.git?.ref ? { gitRef: revision.git.ref } : {}),
        variables: revision.variables ?? {},
        pages: revision.pages.map(treePage),
        files: revision.files.map((file) => ({ name: file.name, url: this.downloadURL(file) })),
      }));
    },
  },

  /** Internal: the markdown body of a page of a revision; null when the page is not in it. */
  publishedPage: {
    visibility: "public",
    params: { spaceId: idRule, revisionId: idRule, pageId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; revisionId: string; pageId: string }>): Promise<PublishedPage | null> {
      const revision = await this.loadRevision(ctx.params.spaceId, ctx.params.revisionId);
      const page = this.pageIndex(revision).get(ctx.params.pageId);
      if (!page) return null;
      const markdown = await this.markdownOf(page.documentId);
      // The reusable contents the page includes, by the path its `{% include %}` gives (one level: GitBook's includes do not nest).
      const includes: Record<string, string> = {};
      const index = refIndex(revision.pages, revision.files, revision.reusableContents);
      const resolver = documentResolver(index, page.path);
      for (const m of markdown.matchAll(/\{%\s*include\s+"([^"]+)"\s*%\}/g)) {
        const ref = resolver.toRef?.(m[1], "include");
        const reusable = ref?.kind === "reusable-content" ? index.includesById.get(ref.reusableContent) : undefined;
        if (reusable && !(m[1] in includes)) includes[m[1]] = reusable.documentId ? await this.markdownOf(reusable.documentId) : "";
      }
      return Object.keys(includes).length ? { markdown, includes } : { markdown };
    },
  },

  /** Internal: full-text search over exactly the given live spaces, best pages first. */
  publishedSearch: {
    visibility: "public",
    params: {
      spaceIds: { type: "array", items: idRule, max: MAX_SPACES },
      query: { type: "string", max: 512 },
      limit: { type: "number", integer: true, min: 1, max: 100, optional: true },
    },
    async handler(ctx: Ctx<{ spaceIds: string[]; query: string; limit?: number }>): Promise<SearchHit[]> {
      const query = ctx.params.query.trim();
      if (!query || !ctx.params.spaceIds.length) return [];
      const spaces = (await this.spaces.find({ id: op.in(ctx.params.spaceIds) })).filter((s) => !s.deletedAt);
      await ensureIndexed(this, spaces);
      const hits = this.searchIndex.search(query, { spaceIds: spaces.map((s) => s.id), limit: ctx.params.limit ?? 20 });
      return hits.map((hit) => ({
        spaceId: hit.spaceId,
        id: hit.id,
        title: hit.title,
        path: hit.path,
        sections: hit.sections.map((s) => ({ id: s.id, title: s.title, path: s.path, body: s.body })),
      }));
    },
  },
};
