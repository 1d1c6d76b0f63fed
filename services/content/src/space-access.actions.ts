// Internal: what other services (comments, sites, change requests) need to know about a space and a user.
import type { SpaceAccess, SpaceAccessParams } from "@docshelf/contracts/content";
import { idRule } from "@docshelf/validation";
import type { ContentActions, Ctx } from "./service-types";

const missing: SpaceAccess = { exists: false, organizationId: null, role: null, revision: null, title: null, visibility: null };

export const spaceAccessActions: ContentActions = {
  /** Internal: a live space and the user's effective role on it (deleted spaces do not exist). */
  spaceAccess: {
    visibility: "public",
    params: { spaceId: idRule, userId: idRule },
    async handler(ctx: Ctx<SpaceAccessParams>): Promise<SpaceAccess> {
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space || space.deletedAt) return missing;
      const role = await this.roleOn(space, await this.membership(space.organizationId, ctx.params.userId));
      return {
        exists: true,
        organizationId: space.organizationId,
        role,
        revision: space.revision,
        title: space.title,
        visibility: space.visibility,
      };
    },
  },
};
