// The link reports of a space and of one page (answered by link-reports.ts).
import { listParams } from "@docshelf/list";
import { idRule } from "@docshelf/validation";
import { serveLinks, type LinksQuery } from "./link-reports";
import type { ContentActions, Ctx } from "./service-types";

const query = { ...listParams, status: { type: "enum", values: ["ok", "broken", "in-app"], optional: true } } as const;

export const linkActions: ContentActions = {
  listSpaceLinks: {
    params: { spaceId: idRule, ...query },
    async handler(ctx: Ctx<LinksQuery>) {
      return serveLinks(this, ctx, ctx.params);
    },
  },

  listPageLinks: {
    params: { spaceId: idRule, pageId: idRule, ...query },
    async handler(ctx: Ctx<LinksQuery & { pageId: string }>) {
      return serveLinks(this, ctx, ctx.params, ctx.params.pageId);
    },
  },
};
