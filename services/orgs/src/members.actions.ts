// Member actions: list, read, change role, remove, ping, SSO membership and a member's teams.
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import { callerOf, ROLES, type RoleOrGuest } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { assertAdminRemains } from "./membership-rules";
import { memberId, type MemberDoc } from "./models";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

interface ListParams {
  organizationId: string;
  page?: string;
  limit?: number;
  order?: "asc" | "desc";
  role?: (typeof ROLES)[number] | "guest";
  search?: string;
  sort?: "joinedAt" | "lastSeenAt";
}

type MemberRef = { organizationId: string; userId: string };
const memberRef = { organizationId: idRule, userId: idRule };

/** The member `userId` of an organization the caller belongs to; 404 when either is missing. */
async function loadTarget(service: OrgsService, ctx: Ctx<MemberRef>) {
  const caller = callerOf(ctx);
  const { org, member: self } = await service.loadForMember(ctx.params.organizationId, caller);
  const target = await service.members.findOne({ id: memberId(org.id, ctx.params.userId) });
  return { org, self, target };
}

function notAMember(userId: string): NotFoundError {
  return new NotFoundError(`User ${userId} is not a member of this organization.`);
}

/** A compact JWT: three base64url parts (the signature may be empty for an unsecured token). */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export const memberActions: OrgsActions = {
  listMembers: {
    params: {
      organizationId: idRule,
      ...listParams,
      order: { type: "enum", values: ["asc", "desc"], optional: true },
      role: { type: "enum", values: [...ROLES, "guest"], optional: true },
      search: { type: "string", max: 512, optional: true },
      sort: { type: "enum", values: ["joinedAt", "lastSeenAt"], optional: true },
    },
    async handler(this: OrgsService, ctx: Ctx<ListParams>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireFullMember(member);
      const sortBy = ctx.params.sort ?? "joinedAt";
      const filter: Filter = { organizationId: ctx.params.organizationId };
      if (ctx.params.role) filter.role = ctx.params.role === "guest" ? null : ctx.params.role;
      if (ctx.params.search) filter.search = op.contains(ctx.params.search.toLowerCase());
      // Sorting by lastSeenAt lists only the members who have been active.
      if (sortBy === "lastSeenAt") filter.lastSeenAt = op.exists(true);
      const sort: Array<[string, 1 | -1]> = [[sortBy, ctx.params.order === "asc" ? 1 : -1]];
      return listPage(this.members, filter, { page: ctx.params.page, limit: ctx.params.limit, sort }, (docs) => this.presentMembers(docs));
    },
  },

  getMember: {
    params: memberRef,
    async handler(this: OrgsService, ctx: Ctx<MemberRef>) {
      const { self, target } = await loadTarget(this, ctx);
      if (target?.userId !== self.userId) this.requireFullMember(self);
      if (!target) throw notAMember(ctx.params.userId);
      return (await this.presentMembers([target]))[0];
    },
  },

  updateMember: {
    params: { ...memberRef, role: { type: "enum", values: [...ROLES], nullable: true } },
    async handler(this: OrgsService, ctx: Ctx<MemberRef & { role: RoleOrGuest }>) {
      const { org, self, target } = await loadTarget(this, ctx);
      this.requireAdmin(self);
      if (!target) throw notAMember(ctx.params.userId);
      // Under the organization's admin lock, so that two demotions cannot each leave "the other" admin.
      const updated = await this.withAdminLock(org.id, async () => {
        const current = await this.members.findOne({ id: target.id });
        if (!current) throw notAMember(ctx.params.userId);
        const admins = await this.members.count({ organizationId: org.id, role: "admin", disabled: false });
        assertAdminRemains(current.disabled ? null : current.role, ctx.params.role, admins);
        return this.members.updateOne({ id: target.id }, { $set: { role: ctx.params.role } });
      });
      if (!updated) throw notAMember(ctx.params.userId);
      await this.membersChanged(org.id);
      return (await this.presentMembers([updated]))[0];
    },
  },

  removeMember: {
    params: memberRef,
    async handler(this: OrgsService, ctx: Ctx<MemberRef>) {
      const { self, target } = await loadTarget(this, ctx);
      // Anyone may leave; removing someone else takes an administrator.
      if (ctx.params.userId !== self.userId) this.requireAdmin(self);
      if (target) await this.removeMember(target);
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /**
   * Records lastSeenAt. A `serviceVisitorClaims` JWT in the body is attached to the member (it replaces
   * the one before); the answer carries the claims attached to the caller, if any. The token is kept as
   * given: whoever reads the claims verifies it with the key of its issuer.
   */
  ping: {
    params: {
      organizationId: idRule,
      serviceVisitorClaims: { type: "string", optional: true, max: 8192, pattern: JWT, messages: { stringPattern: "The 'serviceVisitorClaims' field must be a JWT (three base64url parts)." } },
    },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; serviceVisitorClaims?: string }>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      const set: Partial<MemberDoc> = { lastSeenAt: new Date().toISOString() };
      if (ctx.params.serviceVisitorClaims !== undefined) set.serviceVisitorClaims = ctx.params.serviceVisitorClaims;
      const updated = await this.members.updateOne({ id: member.id }, { $set: set });
      const claims = updated?.serviceVisitorClaims;
      return claims ? { serviceVisitorClaims: claims } : {};
    },
  },

  setSsoMember: {
    params: memberRef,
    async handler(this: OrgsService, ctx: Ctx<MemberRef>) {
      const { org, self, target } = await loadTarget(this, ctx);
      this.requireAdmin(self);
      let member: MemberDoc | null;
      if (target) {
        member = await this.members.updateOne({ id: target.id }, { $set: { sso: true } });
        await this.membersChanged(org.id);
      } else {
        // Only someone who came through this organization's SSO (and left or was removed since) is
        // enrolled anew: any other user id is as unknown here as a missing one, whoever it names.
        const linked = await call(ctx, identity.ssoLinkedTo, { organizationId: org.id, userId: ctx.params.userId });
        if (!linked) throw notAMember(ctx.params.userId);
        member = await this.addMember(org.id, ctx.params.userId, org.defaultRole, true);
      }
      if (!member) throw notAMember(ctx.params.userId);
      return (await this.presentMembers([member]))[0];
    },
  },

  listMemberTeams: {
    params: { ...memberRef, ...listParams, title: { type: "string", max: 64, optional: true } },
    async handler(this: OrgsService, ctx: Ctx<MemberRef & { page?: string; limit?: number; title?: string }>) {
      const { self, target } = await loadTarget(this, ctx);
      if (ctx.params.userId !== self.userId) this.requireFullMember(self);
      if (!target) throw notAMember(ctx.params.userId);
      const filter: Filter = { organizationId: target.organizationId, userId: target.userId };
      if (ctx.params.title) {
        const teams = await this.teams.find({ organizationId: target.organizationId, title: op.contains(ctx.params.title) });
        filter.teamId = op.in(teams.map((t) => t.id));
      }
      return listPage(this.teamMembers, filter, { page: ctx.params.page, limit: ctx.params.limit, sort: [["addedAt", -1]] }, async (links) => {
        const teams = await this.teams.find({ id: op.in(links.map((l) => l.teamId)) });
        const presented = new Map((await this.presentTeams(teams, self)).map((t) => [t.id, t]));
        return links.flatMap((link) => {
          const team = presented.get(link.teamId);
          return team ? [{ team, member: { role: link.role } }] : [];
        });
      });
    },
  },
};
