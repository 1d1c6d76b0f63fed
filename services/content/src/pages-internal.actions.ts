// Internal: page metadata of a space's revision, for services that point at pages (comments' page targets).
import { idRule } from "@docshelf/validation";
import type { ContentActions, Ctx } from "./service-types";

/** The page fields another service may embed (GitBook's RevisionPageBase plus `path`). */
export interface PageMeta {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  path: string;
  createdAt: string;
  updatedAt: string;
}

/** What `content.pagesMeta` answers: the revision read (null when the space is missing or deleted) and the pages found in it. */
export interface PagesMeta {
  revision: string | null;
  pages: Record<string, PageMeta>;
}

export const pagesInternalActions: ContentActions = {
  /** Internal: metadata of `pageIds` in a revision of a live space (default its current one); unknown ids are left out. No access check: the caller decides. */
  pagesMeta: {
    visibility: "public",
    params: {
      spaceId: idRule,
      revisionId: { ...idRule, optional: true },
      pageIds: { type: "array", items: idRule, max: 1000 },
    },
    async handler(ctx: Ctx<{ spaceId: string; revisionId?: string; pageIds: string[] }>): Promise<PagesMeta> {
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space || space.deletedAt) return { revision: null, pages: {} };
      const revision = await this.loadRevision(space.id, ctx.params.revisionId ?? space.revision);
      const index = this.pageIndex(revision);
      const pages: Record<string, PageMeta> = {};
      for (const id of ctx.params.pageIds) {
        const page = index.get(id);
        if (!page) continue;
        const meta: PageMeta = { id: page.id, title: page.title, path: page.path, createdAt: page.createdAt, updatedAt: page.updatedAt };
        if (page.emoji) meta.emoji = page.emoji;
        if (page.icon) meta.icon = page.icon;
        pages[id] = meta;
      }
      return { revision: revision.id, pages };
    },
  },
};
