// Who belongs to a team, listed and changed in one request (GitBook's listTeamMembersInOrganizationById
// and updateMembersInOrganizationTeam).
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import { atLeast, callerOf } from "@docshelf/access";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { memberId, teamMemberId, type MemberDoc, type TeamDoc, type TeamMemberDoc, type TeamRole } from "./models";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

type TeamRef = { organizationId: string; teamId: string };
const teamRef = { organizationId: idRule, teamId: idRule };
/** Users named by one update (add, remove and memberships together). */
const MAX_USERS = 1000;
const userRef = { type: "string", min: 1, max: 254 } as const;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

interface UpdateBody extends TeamRef {
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

async function loadTeam(service: OrgsService, ctx: Ctx<TeamRef>): Promise<{ team: TeamDoc; member: MemberDoc }> {
  const { member } = await service.loadForMember(ctx.params.organizationId, callerOf(ctx));
  service.requireFullMember(member);
  const team = await service.teams.findOne({ id: ctx.params.teamId, organizationId: ctx.params.organizationId });
  if (!team) throw new NotFoundError(`Team ${ctx.params.teamId} was not found.`);
  return { team, member };
}

/** User ids for ids or emails of the request; 400 naming `field` for one that is no member of the organization. */
async function membersNamed(service: OrgsService, ctx: Ctx<unknown>, organizationId: string, refs: string[], field: string): Promise<Map<string, string>> {
  const emails = refs.filter((r) => EMAIL.test(r));
  const byEmail = new Map<string, string>();
  if (emails.length) {
    const users = await call(ctx, identity.findByEmails, { emails });
    for (const user of users) byEmail.set(user.email.toLowerCase(), user.id);
  }
  const ids = new Map(refs.map((r) => [r, EMAIL.test(r) ? byEmail.get(r.toLowerCase()) : r]));
  const known = ids.size ? await service.members.find({ id: op.in([...ids.values()].filter((id): id is string => !!id).map((id) => memberId(organizationId, id))), disabled: false }) : [];
  const members = new Set(known.map((m) => m.userId));
  const unknown = refs.filter((r) => !members.has(ids.get(r) ?? ""));
  if (unknown.length) throw new BadRequestError(`Invalid parameters: '${field}' names users who are not members of the organization: ${unknown.join(", ")}.`);
  return ids as Map<string, string>;
}

export const teamMemberActions: OrgsActions = {
  /** GET /orgs/:organizationId/teams/:teamId/members — members with a role; by when they joined the team. */
  listTeamMembers: {
    params: { ...teamRef, ...listParams },
    async handler(this: OrgsService, ctx: Ctx<TeamRef & { page?: string; limit?: number }>) {
      const { team } = await loadTeam(this, ctx);
      return listPage(this.teamMembers, { teamId: team.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["addedAt", 1]] }, async (links) => {
        const members = await this.members.find({ id: op.in(links.map((l) => memberId(team.organizationId, l.userId))) });
        const presented = new Map((await this.presentMembers(members)).map((m) => [m.id, m]));
        return links.flatMap((link) => {
          const organization = presented.get(link.userId);
          return organization ? [{ organization, team: { role: link.role }, permissions: { view: true } }] : [];
        });
      });
    },
  },

  /**
   * PUT /orgs/:organizationId/teams/:teamId/members `{add?, remove?, memberships?}` → 204 — admins and
   * the team's owners. Users by id or email; every one is checked before any write (400 naming the
   * field). Added users join as members unless `memberships` gives them a role; `memberships` sets
   * roles of users in the team (after `add`); `remove` goes last.
   */
  updateTeamMembers: {
    params: {
      ...teamRef,
      add: { type: "array", optional: true, max: MAX_USERS, items: userRef },
      remove: { type: "array", optional: true, max: MAX_USERS, items: userRef },
      memberships: { type: "record", optional: true, key: userRef, value: { type: "object", strict: "remove", props: { role: { type: "enum", values: ["owner", "member"] } } } },
    },
    async handler(this: OrgsService, ctx: Ctx<UpdateBody>) {
      const { team, member } = await loadTeam(this, ctx);
      if (!atLeast(member.role, "admin")) {
        const link = await this.teamMembers.findOne({ id: teamMemberId(team.id, member.userId) });
        if (link?.role !== "owner") throw new ForbiddenError("Only an owner of the team or an administrator of the organization can do this.");
      }
      const add = [...new Set(ctx.params.add ?? [])];
      const remove = [...new Set(ctx.params.remove ?? [])];
      const roles = Object.entries(ctx.params.memberships ?? {});
      if (add.length + remove.length + roles.length > MAX_USERS) throw new BadRequestError(`Invalid parameters: 'add', 'remove' and 'memberships' name at most ${MAX_USERS} users together.`);
      const added = await membersNamed(this, ctx, team.organizationId, add, "add");
      const removed = await membersNamed(this, ctx, team.organizationId, remove, "remove");
      const roled = await membersNamed(this, ctx, team.organizationId, roles.map(([ref]) => ref), "memberships");
      const current = new Set((await this.teamMembers.find({ teamId: team.id })).map((l) => l.userId));
      const after = new Set([...current, ...added.values()]);
      const outside = roles.filter(([ref]) => !after.has(roled.get(ref)!)).map(([ref]) => ref);
      if (outside.length) throw new BadRequestError(`Invalid parameters: 'memberships' names users who are not in the team: ${outside.join(", ")}.`);
      const roleOf = new Map(roles.map(([ref, value]) => [roled.get(ref)!, value.role]));
      const now = new Date().toISOString();
      for (const userId of new Set(added.values())) {
        if (current.has(userId)) continue;
        const link: TeamMemberDoc = { id: teamMemberId(team.id, userId), teamId: team.id, organizationId: team.organizationId, userId, role: roleOf.get(userId) ?? "member", addedAt: now };
        await this.teamMembers.insert(link);
        roleOf.delete(userId);
      }
      for (const [userId, role] of roleOf) await this.teamMembers.updateOne({ id: teamMemberId(team.id, userId) }, { $set: { role } });
      for (const userId of new Set(removed.values())) await this.teamMembers.deleteOne({ id: teamMemberId(team.id, userId) });
      if (added.size || removed.size || roleOf.size) await this.membersChanged(team.organizationId);
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
