// Internal: page metadata of a space's revision, for services that point at pages (comments' page targets).
import type { PageMeta, PagesMeta, PagesMetaParams } from "@docshelf/contracts/content";
import { idRule } from "@docshelf/validation";
import type { ContentActions, Ctx } from "./service-types";

export const pagesInternalActions: ContentActions = {
  /** Internal: metadata of `pageIds` in a revision of a live space (default its current one); unknown ids are left out. No access check: the caller decides. */
  pagesMeta: {
    visibility: "public",
    params: {
      spaceId: idRule,
      revisionId: { ...idRule, optional: true },
      pageIds: { type: "array", items: idRule, max: 1000 },
    },
    async handler(ctx: Ctx<PagesMetaParams>): Promise<PagesMeta> {
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
