// Organizations themselves: create, list, read and change them, find them by email domain, and the
// merge rules change-requests asks for.
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import { callerOf, type RoleOrGuest } from "@docshelf/access";
import { ConflictError, NotFoundError } from "@docshelf/errors";
import { listParams, listPage } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { checkMergeRules, mergeRulesRule, type MergeRule, type MergeRules } from "./merge-rules";
import { ssoAdmits } from "./membership-rules";
import { memberId, type OrgDoc } from "./models";
import { optionalRoleRule } from "./params";
import { presentOrganization } from "./present";
import type { Ctx, OrgsActions } from "./service-types";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

const orgFields = {
  title: { type: "string", min: 2, max: 255, trim: true, optional: true },
  emailDomains: { type: "array", optional: true, max: 50, items: { type: "string", pattern: DOMAIN, max: 253 } },
};

interface UpdateParams {
  organizationId: string;
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: RoleOrGuest;
  defaultContent?: { type: "site"; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: { type: "none" | "rules"; rules?: MergeRule[] };
}

export const organizationActions: OrgsActions = {
  create: {
    params: { ...orgFields, title: { type: "string", min: 2, max: 255, trim: true } },
    async handler(ctx: Ctx<{ title: string; emailDomains?: string[] }>) {
      const caller = callerOf(ctx);
      const now = new Date().toISOString();
      const org: OrgDoc = {
        id: newId(),
        title: ctx.params.title,
        emailDomains: (ctx.params.emailDomains ?? []).map((d) => d.toLowerCase()),
        type: "business",
        defaultRole: "read",
        sso: false,
        ai: false,
        inviteLinks: true,
        createdAt: now,
        updatedAt: now,
      };
      await this.orgs.insert(org);
      await this.addMember(org.id, caller.id, "admin", false);
      ctx.meta.$statusCode = 201;
      return presentOrganization(org, "admin", this.publicUrl());
    },
  },

  list: {
    params: { ...listParams },
    async handler(ctx: Ctx<{ page?: string; limit?: number }>) {
      const caller = callerOf(ctx);
      const publicUrl = this.publicUrl();
      return listPage(this.members, { userId: caller.id }, { ...ctx.params, sort: [["organizationId", 1]] }, async (members) => {
        const orgs = await this.orgs.find({ id: op.in(members.map((m) => m.organizationId)) });
        const byId = new Map(orgs.map((o) => [o.id, o]));
        return members.flatMap((m) => {
          const org = byId.get(m.organizationId);
          return org && ssoAdmits(org, m) ? [presentOrganization(org, m.role, publicUrl)] : [];
        });
      });
    },
  },

  get: {
    params: { organizationId: idRule },
    async handler(ctx: Ctx<{ organizationId: string }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      return presentOrganization(org, member.role, this.publicUrl());
    },
  },

  update: {
    params: {
      organizationId: idRule,
      ...orgFields,
      hostname: { type: "string", min: 3, max: 32, pattern: HOSTNAME, optional: true, messages: { stringPattern: "The 'hostname' field may contain only lower-case letters, digits and inner hyphens." } },
      defaultRole: optionalRoleRule,
      defaultContent: {
        type: "object",
        optional: true,
        nullable: true,
        strict: "remove",
        props: { type: { type: "equal", value: "site" }, site: { type: "string", min: 1, max: 64 } },
      },
      logo: urlRule(2048, { optional: true, nullable: true }),
      sso: { type: "boolean", optional: true },
      ai: { type: "boolean", optional: true },
      inviteLinks: { type: "boolean", optional: true },
      mergeRules: mergeRulesRule,
    },
    async handler(ctx: Ctx<UpdateParams>) {
      const { organizationId, ...fields } = ctx.params;
      const { org, member } = await this.loadForMember(organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const set: Partial<OrgDoc> = { updatedAt: new Date().toISOString() };
      if (fields.mergeRules !== undefined) set.mergeRules = checkMergeRules(fields.mergeRules);
      const unset: string[] = [];
      if (fields.title !== undefined) set.title = fields.title;
      if (fields.emailDomains !== undefined) set.emailDomains = [...new Set(fields.emailDomains.map((d) => d.toLowerCase()))];
      if (fields.hostname !== undefined) set.hostname = fields.hostname;
      if (fields.defaultRole !== undefined) set.defaultRole = fields.defaultRole;
      if (fields.defaultContent === null) unset.push("defaultContent");
      else if (fields.defaultContent !== undefined) set.defaultContent = { type: "site", site: fields.defaultContent.site };
      if (fields.logo === null) unset.push("logo");
      else if (fields.logo !== undefined) set.logo = fields.logo;
      for (const flag of ["sso", "ai", "inviteLinks"] as const) if (fields[flag] !== undefined) set[flag] = fields[flag];
      let updated: OrgDoc | null;
      try {
        updated = await this.orgs.updateOne({ id: org.id }, { $set: set, $unset: unset });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(`The hostname "${fields.hostname}" is already taken.`);
        throw err;
      }
      if (!updated) throw new NotFoundError(`Organization ${organizationId} was not found.`);
      // Who counts as a member depends on `sso`: cached memberships must go.
      if (fields.sso !== undefined && fields.sso !== org.sso) await this.membersChanged(org.id);
      return presentOrganization(updated, member.role, this.publicUrl());
    },
  },

  /** Internal: the organization's merge rules, for the change-requests service's merge. */
  mergeRulesOf: {
    visibility: "public",
    params: { organizationId: idRule },
    async handler(ctx: Ctx<{ organizationId: string }>): Promise<MergeRules> {
      const org = await this.orgs.findOne({ id: ctx.params.organizationId });
      return org?.mergeRules ?? { type: "none" };
    },
  },

  listForEmailDomain: {
    params: { emailDomain: { type: "string", max: 253, pattern: DOMAIN, messages: { stringPattern: "The 'emailDomain' field must be a domain name." } } },
    async handler(ctx: Ctx<{ emailDomain: string }>) {
      const caller = callerOf(ctx);
      const domain = ctx.params.emailDomain.toLowerCase();
      const users = await call(ctx, identity.getMany, { ids: [caller.id] });
      const callerDomain = users[caller.id]?.email?.split("@")[1]?.toLowerCase();
      // Listed under a domain: only the organization that holds it verified (anyone may write any domain
      // into emailDomains; it shows here once verified, and no longer once given up or lost).
      const owner = await call(ctx, identity.verifiedDomainOwner, { domain });
      const orgs = owner ? await this.orgs.find({ id: owner, emailDomains: domain }, { limit: 1 }) : [];
      const memberships = await this.members.find({ id: op.in(orgs.map((o) => memberId(o.id, caller.id))) });
      const roles = new Map(memberships.filter((m) => !m.disabled).map((m) => [m.organizationId, m.role]));
      // Organizations are disclosed to their members and to users whose own email is in that domain.
      const visible = orgs.filter((o) => roles.has(o.id) || callerDomain === domain);
      return { organizations: visible.map((o) => presentOrganization(o, roles.get(o.id), this.publicUrl())) };
    },
  },
};
