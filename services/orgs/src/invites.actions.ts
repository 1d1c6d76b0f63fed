// An organization's invitations: by email (invite, listInvites, revoked or declined with
// deleteInvite; the invitee lists theirs with listMyInvites and accepts with joinWithLinkInvite; an
// account is never made a member without its owner's acceptance, except one created for the
// invitation's email by the instance administrator or by that organization's own SSO) and by link
// (createLinkInvite, listLinkInvites, getLinkInvite, updateLinkInvite, deleteLinkInvite,
// joinWithLinkInvite, which also accepts an email invitation by its id).
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import { ROLES, atLeast, callerOf, type Caller, type RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { inviteRoles, linkInviteRole } from "./membership-rules";
import { memberId, type InviteDoc, type LinkInviteDoc } from "./models";
import { linkInviteRef, optionalRoleRule as role, type LinkInviteRef } from "./params";
import { presentLinkInvite } from "./present";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

interface InviteParams {
  organizationId: string;
  emails: Array<string | { email: string; role: RoleOrGuest }>;
  role?: RoleOrGuest;
  sso?: boolean;
}

interface UpdateLinkInviteParams extends LinkInviteRef {
  role?: RoleOrGuest;
  level?: RoleOrGuest;
}

interface LinkInviteParams {
  organizationId: string;
  role?: RoleOrGuest;
  space?: string;
  collection?: string;
}

/** The signed-in user's own email, lower-cased ("" when unknown). */
async function emailOf(service: OrgsService, caller: Caller): Promise<string> {
  const users = await call(service.broker, identity.getMany, { ids: [caller.id] });
  return users[caller.id]?.email?.toLowerCase() ?? "";
}

/** The signed-in user accepts a pending email invitation addressed to their own email; 404 otherwise. */
async function acceptEmailInvite(service: OrgsService, organizationId: string, inviteId: string, caller: Caller): Promise<void> {
  const invite = await service.invites.findOne({ id: inviteId, organizationId });
  const email = invite ? await emailOf(service, caller) : "";
  // Someone else's invitation is as unknown as a missing one.
  if (!invite || !email || invite.email !== email) throw new NotFoundError(`Invite ${inviteId} was not found.`);
  const existing = await service.members.findOne({ id: memberId(organizationId, caller.id) });
  if (!existing) await service.addMember(organizationId, caller.id, invite.role, invite.sso);
  await service.invites.deleteOne({ id: invite.id });
}

export const inviteActions: OrgsActions = {
  invite: {
    params: {
      organizationId: idRule,
      emails: {
        type: "array",
        min: 1,
        max: 100,
        items: {
          type: "multi",
          rules: [
            { type: "email", max: 254 },
            { type: "object", strict: "remove", props: { email: { type: "email", max: 254 }, role: { type: "enum", values: [...ROLES], nullable: true } } },
          ],
        },
      },
      role,
      sso: { type: "boolean", optional: true },
    },
    async handler(ctx: Ctx<InviteParams>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const defaultRole = ctx.params.role === undefined ? org.defaultRole : ctx.params.role;
      const sso = ctx.params.sso ?? false;
      const roles = inviteRoles(ctx.params.emails, defaultRole);
      const emails = [...roles.keys()];
      // Every address gets a pending invitation, whether an account has it or not: an account joins
      // when its owner accepts, and the answer (and the work done) is the same either way, so it
      // tells nobody which addresses have accounts. `users` is always empty: nobody was added now.
      for (const email of emails) {
        const role = roles.get(email) ?? defaultRole;
        const invite: InviteDoc = { id: newId(), organizationId: org.id, email, role, sso, createdAt: new Date().toISOString() };
        try {
          await this.invites.insert(invite);
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          await this.invites.updateOne({ organizationId: org.id, email }, { $set: { role, sso } });
        }
      }
      // Each address gets an email with a link to join (identity; logged when no SMTP is configured).
      // Best effort, after the answer's work: a mail that fails never fails the invitation.
      void call(ctx, identity.mailInvitations, { organizationId: org.id, organizationTitle: org.title, emails }).catch((err: unknown) =>
        this.logger.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, "invitation emails could not be sent"),
      );
      return { users: [], invited: emails.length };
    },
  },

  /**
   * Not in GitBook's API: `GET /v1/user/invites`, the signed-in user's pending email invitations (to
   * their own email), each with the organization's id and title, to accept with
   * joinOrganizationWithInvite or decline with `DELETE /v1/orgs/{organizationId}/invites/{inviteId}`.
   */
  listMyInvites: {
    params: { ...listParams },
    async handler(ctx: Ctx<{ page?: string; limit?: number }>) {
      const email = await emailOf(this, callerOf(ctx));
      if (!email) return { items: [] };
      return listPage(this.invites, { email }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["createdAt", 1]] }, async (docs) => {
        const orgs = await this.orgs.find({ id: op.in([...new Set(docs.map((d) => d.organizationId))]) });
        const titles = new Map(orgs.map((o) => [o.id, o.title]));
        return docs
          .filter((d) => titles.has(d.organizationId))
          .map((d) => ({ object: "invite", id: d.id, organization: { id: d.organizationId, title: titles.get(d.organizationId) }, role: d.role, sso: d.sso, createdAt: d.createdAt }));
      });
    },
  },

  /**
   * Not in GitBook's API: `DELETE /v1/orgs/{organizationId}/invites/{inviteId}` → 204. The invitee
   * declines (their own email's invitation), or an admin of the organization revokes it; for anyone
   * else, and for an unknown id, 404.
   */
  deleteInvite: {
    params: { organizationId: idRule, inviteId: idRule },
    async handler(ctx: Ctx<{ organizationId: string; inviteId: string }>) {
      const caller = callerOf(ctx);
      const { organizationId, inviteId } = ctx.params;
      const [invite, member] = await Promise.all([this.invites.findOne({ id: inviteId, organizationId }), this.members.findOne({ id: memberId(organizationId, caller.id) })]);
      const admin = !!member && !member.disabled && atLeast(member.role, "admin");
      if (!invite || (!admin && invite.email !== (await emailOf(this, caller)))) throw new NotFoundError(`Invite ${inviteId} was not found.`);
      await this.invites.deleteOne({ id: invite.id });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** Not in GitBook's API: the pending email invitations, whose ids the invitees accept with. */
  listInvites: {
    params: { organizationId: idRule, ...listParams },
    async handler(ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      return listPage(this.invites, { organizationId: org.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["createdAt", 1]] }, async (docs) =>
        docs.map((i) => ({ object: "invite", id: i.id, email: i.email, role: i.role, sso: i.sso, createdAt: i.createdAt })),
      );
    },
  },

  createLinkInvite: {
    params: { organizationId: idRule, role, space: { ...idRule, optional: true }, collection: { ...idRule, optional: true } },
    async handler(ctx: Ctx<LinkInviteParams>) {
      if (ctx.params.space !== undefined || ctx.params.collection !== undefined) {
        throw new BadRequestError("Invalid parameters: invite links to a 'space' or a 'collection' are not offered; create one for the organization.");
      }
      if (ctx.params.role === undefined) throw new BadRequestError("Invalid parameters: The 'role' field is required.");
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      if (!org.inviteLinks) throw new ForbiddenError("Invite links are turned off for this organization (inviteLinks).");
      const invite: LinkInviteDoc = { id: newId(), organizationId: org.id, role: ctx.params.role, createdBy: member.userId, createdAt: new Date().toISOString() };
      await this.linkInvites.insert(invite);
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = `${this.publicUrl()}/v1/orgs/${org.id}/link-invites/${invite.id}`;
      return presentLinkInvite(invite);
    },
  },

  deleteLinkInvite: {
    params: linkInviteRef,
    async handler(ctx: Ctx<LinkInviteRef>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      await this.linkInvites.deleteOne({ id: ctx.params.inviteId, organizationId: ctx.params.organizationId });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /**
   * GitBook's joinOrganizationWithInvite: whoever holds an invite link (its id is the capability)
   * joins with the link's role while the organization has invite links on. A member keeps the role
   * they have: a link never changes an existing membership. Missing, deleted or switched off: 404.
   * The id of a pending email invitation works the same for the signed-in user with that email
   * (and no one else): it becomes a membership with the invitation's role.
   */
  joinWithLinkInvite: {
    params: linkInviteRef,
    async handler(ctx: Ctx<LinkInviteRef>) {
      const caller = callerOf(ctx);
      const [org, invite] = await Promise.all([
        this.orgs.findOne({ id: ctx.params.organizationId }),
        this.linkInvites.findOne({ id: ctx.params.inviteId, organizationId: ctx.params.organizationId }),
      ]);
      if (!org) throw new NotFoundError(`Invite ${ctx.params.inviteId} was not found.`);
      if (!invite) {
        await acceptEmailInvite(this, org.id, ctx.params.inviteId, caller);
        return {};
      }
      if (!org.inviteLinks) throw new NotFoundError(`Invite ${ctx.params.inviteId} was not found.`);
      const existing = await this.members.findOne({ id: memberId(org.id, caller.id) });
      if (!existing) await this.addMember(org.id, caller.id, invite.role, false);
      return {};
    },
  },
  /** GET /orgs/:organizationId/link-invites — admins (the ids are capabilities); newest first. */
  listLinkInvites: {
    params: { organizationId: idRule, ...listParams },
    async handler(ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const { page, limit } = ctx.params;
      return listPage(this.linkInvites, { organizationId: org.id }, { page, limit, sort: [["createdAt", -1]] }, async (invites) => invites.map(presentLinkInvite));
    },
  },

  /** GET /orgs/:organizationId/link-invites/:inviteId — admins; 404 for a link of another organization. */
  getLinkInvite: {
    params: linkInviteRef,
    async handler(ctx: Ctx<LinkInviteRef>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const invite = await this.linkInvites.findOne({ id: ctx.params.inviteId, organizationId: org.id });
      if (!invite) throw new NotFoundError(`Invite link ${ctx.params.inviteId} was not found.`);
      return presentLinkInvite(invite);
    },
  },

  /**
   * PATCH /orgs/:organizationId/link-invites/:inviteId — GitBook's updateOrganizationInviteById: admins
   * change the role a link gives, as `role` or as `level` (GitBook's name for content links), exactly one
   * of them (linkInviteRole). Any role an admin may create a link with, null (guests) included. Members
   * who already joined through the link keep their role. 404 for a link of another organization.
   */
  updateLinkInvite: {
    params: { ...linkInviteRef, role, level: role },
    async handler(ctx: Ctx<UpdateLinkInviteParams>) {
      const next = linkInviteRole(ctx.params);
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const invite = await this.linkInvites.updateOne({ id: ctx.params.inviteId, organizationId: org.id }, { $set: { role: next } });
      if (!invite) throw new NotFoundError(`Invite link ${ctx.params.inviteId} was not found.`);
      return presentLinkInvite(invite);
    },
  },
};
