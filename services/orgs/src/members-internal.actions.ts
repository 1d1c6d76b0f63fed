// Internal: the membership other services ask about (memberRole, for every access check) and members by
// user id, for services that list people (the comments service's commenters).
import type { Membership } from "@docshelf/access";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { ssoAdmits } from "./membership-rules";
import { memberId } from "./models";
import type { MemberResource } from "./present";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

export const membersInternalActions: OrgsActions = {
  /** Internal: whether an organization exists and the user's membership in it. */
  memberRole: {
    visibility: "public",
    params: { organizationId: idRule, userId: idRule },
    async handler(ctx: Ctx<{ organizationId: string; userId: string }>): Promise<Membership> {
      const [org, member] = await Promise.all([
        this.orgs.findOne({ id: ctx.params.organizationId }),
        this.members.findOne({ id: memberId(ctx.params.organizationId, ctx.params.userId) }),
      ]);
      if (!org) return { exists: false, member: false, role: null };
      if (!member || member.disabled || !ssoAdmits(org, member)) return { exists: true, member: false, role: null };
      const links = await this.teamMembers.find({ organizationId: org.id, userId: member.userId });
      return { exists: true, member: true, role: member.role, userId: member.userId, teams: links.map((l) => l.teamId) };
    },
  },

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
