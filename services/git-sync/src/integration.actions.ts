// A space's Git link: what GET …/git/info shows, and removing it (GitBook's legacy installation).
import { NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { presentInfo } from "./present";
import type { Ctx, GitSyncActions } from "./service-types";

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
