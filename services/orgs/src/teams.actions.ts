// Team actions: create, list, read, rename, delete, and who belongs to a team.
import { atLeast, callerOf } from "@docshelf/access";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { memberId, teamMemberId, type MemberDoc, type TeamDoc, type TeamMemberDoc, type TeamRole } from "./models";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

const title = { type: "string", min: 1, max: 64, trim: true } as const;
type TeamRef = { organizationId: string; teamId: string };
const teamRef = { organizationId: idRule, teamId: idRule };

/** The team as a full member of its organization sees it; 404 when missing. */
async function loadTeam(service: OrgsService, ctx: Ctx<TeamRef>): Promise<{ team: TeamDoc | null; member: MemberDoc }> {
  const { member } = await service.loadForMember(ctx.params.organizationId, callerOf(ctx));
  service.requireFullMember(member);
  const team = await service.teams.findOne({ id: ctx.params.teamId, organizationId: ctx.params.organizationId });
  return { team, member };
}

function teamNotFound(teamId: string): NotFoundError {
  return new NotFoundError(`Team ${teamId} was not found.`);
}

/** Organization administrators manage every team; a team's owners manage theirs. */
async function requireTeamAdmin(service: OrgsService, team: TeamDoc, member: MemberDoc): Promise<void> {
  if (atLeast(member.role, "admin")) return;
  const link = await service.teamMembers.findOne({ id: teamMemberId(team.id, member.userId) });
  if (link?.role !== "owner") throw new ForbiddenError("Only an owner of the team or an administrator of the organization can do this.");
}

export const teamActions: OrgsActions = {
  listTeams: {
    params: { organizationId: idRule, ...listParams, owner: { ...idRule, optional: true }, title: { type: "string", max: 64, optional: true } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; page?: string; limit?: number; owner?: string; title?: string }>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireFullMember(member);
      const filter: Filter = { organizationId: ctx.params.organizationId };
      if (ctx.params.title) filter.title = op.contains(ctx.params.title);
      if (ctx.params.owner) {
        // Only the teams that member can manage: every team for an administrator, else those they own.
        const owner = await this.members.findOne({ id: memberId(ctx.params.organizationId, ctx.params.owner) });
        if (!owner || owner.disabled) filter.id = op.in([]);
        else if (!atLeast(owner.role, "admin")) {
          const owned = await this.teamMembers.find({ organizationId: ctx.params.organizationId, userId: owner.userId, role: "owner" });
          filter.id = op.in(owned.map((l) => l.teamId));
        }
      }
      return listPage(this.teams, filter, { page: ctx.params.page, limit: ctx.params.limit, sort: [["createdAt", 1]] }, (teams) =>
        this.presentTeams(teams, member),
      );
    },
  },

  createTeam: {
    params: { organizationId: idRule, title, members: { type: "array", optional: true, max: 1000, items: idRule } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; title: string; members?: string[] }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const userIds = [...new Set(ctx.params.members ?? [])];
      if (userIds.length) {
        const found = await this.members.find({ id: op.in(userIds.map((u) => memberId(org.id, u))) });
        const known = new Set(found.map((m) => m.userId));
        const unknown = userIds.filter((u) => !known.has(u));
        if (unknown.length) throw new BadRequestError(`Invalid parameters: 'members' names users who are not members of the organization: ${unknown.join(", ")}.`);
      }
      const now = new Date().toISOString();
      const team: TeamDoc = { id: newId(), organizationId: org.id, title: ctx.params.title, createdAt: now, updatedAt: now };
      await this.teams.insert(team);
      for (const userId of userIds) {
        await this.teamMembers.insert({ id: teamMemberId(team.id, userId), teamId: team.id, organizationId: org.id, userId, role: "member", addedAt: now });
      }
      if (userIds.length) await this.membersChanged(org.id);
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = `${this.publicUrl()}/v1/orgs/${org.id}/teams/${team.id}`;
      return (await this.presentTeams([team], member))[0];
    },
  },

  getTeam: {
    params: teamRef,
    async handler(this: OrgsService, ctx: Ctx<TeamRef>) {
      const { team, member } = await loadTeam(this, ctx);
      if (!team) throw teamNotFound(ctx.params.teamId);
      return (await this.presentTeams([team], member))[0];
    },
  },

  updateTeam: {
    params: { ...teamRef, title },
    async handler(this: OrgsService, ctx: Ctx<TeamRef & { title: string }>) {
      const { team, member } = await loadTeam(this, ctx);
      if (!team) throw teamNotFound(ctx.params.teamId);
      await requireTeamAdmin(this, team, member);
      const updated = await this.teams.updateOne({ id: team.id }, { $set: { title: ctx.params.title, updatedAt: new Date().toISOString() } });
      if (!updated) throw teamNotFound(ctx.params.teamId);
      return (await this.presentTeams([updated], member))[0];
    },
  },

  deleteTeam: {
    params: teamRef,
    async handler(this: OrgsService, ctx: Ctx<TeamRef>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const deleted = await this.teams.deleteOne({ id: ctx.params.teamId, organizationId: ctx.params.organizationId });
      if (deleted) {
        await this.teamMembers.deleteMany({ teamId: ctx.params.teamId });
        await this.dropGrants(ctx.params.organizationId, "team", ctx.params.teamId);
        await this.membersChanged(ctx.params.organizationId);
      }
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  addTeamMember: {
    params: { ...teamRef, userId: idRule, role: { type: "enum", values: ["owner", "member"], optional: true } },
    async handler(this: OrgsService, ctx: Ctx<TeamRef & { userId: string; role?: TeamRole }>) {
      const { team, member } = await loadTeam(this, ctx);
      if (!team) throw teamNotFound(ctx.params.teamId);
      await requireTeamAdmin(this, team, member);
      const target = await this.members.findOne({ id: memberId(team.organizationId, ctx.params.userId) });
      if (!target) throw new NotFoundError(`User ${ctx.params.userId} is not a member of this organization.`);
      const id = teamMemberId(team.id, target.userId);
      const role = ctx.params.role ?? "member";
      const existing = await this.teamMembers.findOne({ id });
      if (existing) await this.teamMembers.updateOne({ id }, { $set: { role } });
      else {
        const link: TeamMemberDoc = { id, teamId: team.id, organizationId: team.organizationId, userId: target.userId, role, addedAt: new Date().toISOString() };
        await this.teamMembers.insert(link);
      }
      await this.membersChanged(team.organizationId);
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  removeTeamMember: {
    params: { ...teamRef, userId: idRule },
    async handler(this: OrgsService, ctx: Ctx<TeamRef & { userId: string }>) {
      const { team, member } = await loadTeam(this, ctx);
      // Leaving a team needs no rights; removing someone else does.
      if (team && ctx.params.userId !== member.userId) await requireTeamAdmin(this, team, member);
      if (team && (await this.teamMembers.deleteOne({ id: teamMemberId(team.id, ctx.params.userId) }))) {
        await this.membersChanged(team.organizationId);
      }
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** Internal: the ids of the teams a user belongs to in an organization. */
  teamIdsOf: {
    visibility: "public",
    params: { organizationId: idRule, userId: idRule },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; userId: string }>): Promise<string[]> {
      const links = await this.teamMembers.find({ organizationId: ctx.params.organizationId, userId: ctx.params.userId });
      return links.map((l) => l.teamId);
    },
  },
};
