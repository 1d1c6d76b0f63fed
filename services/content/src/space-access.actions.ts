// Internal: what other services (comments, sites, change requests) need to know about a space and a user.
import { idRule } from "@docshelf/validation";
import type { ContentActions, Ctx } from "./service-types";

export interface SpaceAccess {
  exists: boolean;
  organizationId: string | null;
  /** The user's effective role on the space; null when they may not see it. */
  role: string | null;
  /** The space's current revision. */
  revision: string | null;
  title: string | null;
  visibility: string | null;
}

const missing: SpaceAccess = { exists: false, organizationId: null, role: null, revision: null, title: null, visibility: null };

export const spaceAccessActions: ContentActions = {
  /** Internal: a live space and the user's effective role on it (deleted spaces do not exist). */
  spaceAccess: {
    visibility: "public",
    params: { spaceId: idRule, userId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; userId: string }>): Promise<SpaceAccess> {
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
