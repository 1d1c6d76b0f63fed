// Internal: members of an organization by user id, for services that list people (the comments service's commenters).
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { MemberResource } from "./present";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

export const membersInternalActions: OrgsActions = {
  /** Internal: `{userId: Member}` for those of `userIds` who are members of the organization (others are left out). No access check: the caller decides. */
  membersOf: {
    visibility: "public",
    params: { organizationId: idRule, userIds: { type: "array", items: idRule, max: 1000 } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; userIds: string[] }>): Promise<Record<string, MemberResource>> {
      const members = await this.members.find({ organizationId: ctx.params.organizationId, userId: op.in(ctx.params.userIds) });
      const presented = await this.presentMembers(members);
      return Object.fromEntries(presented.map((m) => [m.id, m]));
    },
  },
};
