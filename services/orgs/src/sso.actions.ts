// Internal actions the identity service uses for SAML single sign-on.
import { ROLES, type RoleOrGuest } from "@docshelf/access";
import { ConflictError } from "@docshelf/errors";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { memberId, teamMemberId } from "./models";
import { presentTeam, type TeamResource } from "./present";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

interface JoinParams {
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  teamId?: string;
  /** The email the organization's IdP vouched for. */
  email?: string;
}

export const ssoActions: OrgsActions = {
  /** Internal: teams of an organization by id, as its administrators see them; unknown ids are left out. */
  teamsById: {
    visibility: "public",
    params: { organizationId: idRule, teamIds: { type: "array", items: idRule, max: 1000 } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; teamIds: string[] }>): Promise<Record<string, TeamResource>> {
      const teams = await this.teams.find({ organizationId: ctx.params.organizationId, id: op.in(ctx.params.teamIds) });
      const [counts, spaces] = await Promise.all([Promise.all(teams.map((t) => this.teamMembers.count({ teamId: t.id }))), this.spaceCounts(ctx.params.organizationId, "team", teams.map((t) => t.id))]);
      return Object.fromEntries(teams.map((t, i) => [t.id, presentTeam(t, { members: counts[i], spaces: spaces(t.id) }, { admin: true, view: true })]));
    },
  },

  /**
   * Internal: makes the user an SSO member after a SAML sign-in. A new member gets `role`; an
   * existing one keeps their role. `teamId` (a team of the organization) gains the user as a member.
   * A pending invitation of this organization for `email` becomes the membership (with its role).
   * Answers `{member: false}` when the organization is gone or the membership is disabled.
   */
  joinBySso: {
    visibility: "public",
    params: {
      organizationId: idRule,
      userId: idRule,
      role: { type: "enum", values: [...ROLES], nullable: true },
      teamId: { ...idRule, optional: true },
      email: { type: "email", optional: true, max: 254 },
    },
    async handler(this: OrgsService, ctx: Ctx<JoinParams>): Promise<{ member: boolean; role: RoleOrGuest }> {
      const { organizationId, userId, role, teamId, email } = ctx.params;
      const org = await this.orgs.findOne({ id: organizationId });
      if (!org) return { member: false, role: null };
      let member = await this.members.findOne({ id: memberId(organizationId, userId) });
      if (!member) {
        // This organization's own SSO vouched for the email: its pending invitation (and role) applies.
        const invite = email ? await this.invites.findOne({ organizationId, email: email.toLowerCase() }) : null;
        // keepExisting: a membership the same invitation made meanwhile (identity.user.created) keeps its role.
        member = await this.addMember(organizationId, userId, invite ? invite.role : role, true, true);
        if (invite) await this.invites.deleteOne({ id: invite.id });
      }
      // Also when the membership was just made by the invitation this sign-in converted (identity.user.created).
      if (!member.sso) {
        member = (await this.members.updateOne({ id: member.id }, { $set: { sso: true } })) ?? member;
        await this.membersChanged(organizationId);
      }
      if (member.disabled) return { member: false, role: null };
      if (teamId) await joinTeam(this, organizationId, teamId, userId);
      return { member: true, role: member.role };
    },
  },
};

async function joinTeam(service: OrgsService, organizationId: string, teamId: string, userId: string): Promise<void> {
  const team = await service.teams.findOne({ id: teamId, organizationId });
  if (!team) return; // the default team was deleted since: the sign-in still succeeds
  try {
    await service.teamMembers.insert({ id: teamMemberId(teamId, userId), teamId, organizationId, userId, role: "member", addedAt: new Date().toISOString() });
    await service.membersChanged(organizationId);
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err; // already in the team
  }
}
