// Internal: the space's `gitSync` field (GitBook's GitSyncState), a copy git-sync pushes whenever a
// space's link to a repository changes, so reading a space never asks git-sync.
import { broadcast } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import type { GitSyncState } from "./models";
import type { ContentActions, Ctx } from "./service-types";

const stateRule = {
  type: "object",
  nullable: true,
  strict: "remove",
  props: {
    repoName: { type: "string", min: 1, max: 512 },
    installationProvider: { type: "enum", values: ["github", "gitlab", "github-legacy"], optional: true },
    integration: { type: "string", min: 1, max: 64 },
    url: { type: "string", min: 1, max: 2048 },
    updatedAt: { type: "string", min: 1, max: 64 },
  },
} as const;

export const gitSyncStateActions: ContentActions = {
  /**
   * Internal (git-sync): sets the space's `gitSync` to `gitSync`, or removes it when null. An
   * absolute value, like setCounts: a repeated call changes nothing. A state older than the stored
   * one (`updatedAt`) is ignored, so two pushes arriving out of order cannot bring back the old one.
   */
  setGitSync: {
    visibility: "public",
    params: { spaceId: idRule, gitSync: stateRule },
    async handler(ctx: Ctx<{ spaceId: string; gitSync: GitSyncState | null }>) {
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
      const next = ctx.params.gitSync;
      if (next && space.gitSync && space.gitSync.updatedAt > next.updatedAt) return { spaceId: space.id, gitSync: space.gitSync };
      const updated = next ? await this.spaces.updateOne({ id: space.id }, { $set: { gitSync: next } }) : await this.spaces.updateOne({ id: space.id }, { $unset: ["gitSync"] });
      if (JSON.stringify(space.gitSync ?? null) !== JSON.stringify(updated?.gitSync ?? null)) {
        await broadcast(this.broker, events.contentSpaceUpdated, { spaceId: space.id, organizationId: space.organizationId });
      }
      return { spaceId: space.id, gitSync: updated?.gitSync ?? null };
    },
  },
};
