// A space's Git link: what GET …/git/info shows, and removing it (GitBook's legacy installation).
import type { SpaceGitRedirects } from "@docshelf/contracts/git-sync";
import { NotFoundError } from "@docshelf/errors";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { presentInfo } from "./present";
import type { Ctx, GitSyncActions } from "./service-types";

const MAX_SPACES = 500;

export const integrationActions: GitSyncActions = {
  info: {
    params: { spaceId: idRule },
    async handler(ctx: Ctx<{ spaceId: string }>) {
      await this.access(ctx, ctx.params.spaceId, "read", "Reading Git info");
      const link = await this.links.findOne({ id: ctx.params.spaceId });
      if (!link) throw new NotFoundError(`Space ${ctx.params.spaceId} has no Git sync set up.`);
      const [latest] = await this.jobs.find({ spaceId: ctx.params.spaceId }, { sort: [["createdAt", -1]], limit: 1 });
      return presentInfo(link, latest ?? null, this.publicUrl());
    },
  },

  /**
   * Internal (sites): the `.gitbook.yaml` redirects of each space's latest import, resolved to pages.
   * Read from the link on every call, so a later import that drops one, a removed link or a purged
   * space shows at once.
   */
  spaceRedirects: {
    visibility: "public",
    params: { spaceIds: { type: "array", items: idRule, max: MAX_SPACES } },
    async handler(ctx: Ctx<{ spaceIds: string[] }>): Promise<SpaceGitRedirects[]> {
      if (!ctx.params.spaceIds.length) return [];
      const links = await this.links.find({ id: op.in(ctx.params.spaceIds) });
      return links
        .filter((link) => link.siteRedirects?.length)
        .map((link) => ({
          spaceId: link.id,
          organizationId: link.organizationId,
          updatedAt: link.redirectsAt ?? link.updatedAt,
          redirects: (link.siteRedirects ?? []).map(({ source, file, pageId }) => ({ source, file, pageId })),
        }));
    },
  },

  deleteLegacyInstallation: {
    params: { spaceId: idRule },
    async handler(ctx: Ctx<{ spaceId: string }>) {
      await this.access(ctx, ctx.params.spaceId, "admin", "Removing the Git installation");
      await this.links.deleteOne({ id: ctx.params.spaceId });
      await this.pushGitSync(ctx.params.spaceId, null);
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
