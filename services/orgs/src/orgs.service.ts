// Organizations and their memberships: create, list, read, update, invite; the membership other services ask about.
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { atLeast, callerOf, ROLES, type Caller, type Membership, type RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listParams, listPage } from "@docshelf/list";
import { newId, op, storeMixin, type Collection } from "@docshelf/store";
import { urlRule } from "@docshelf/validation";
import { collections, memberId, type InviteDoc, type MemberDoc, type OrgDoc } from "./models";
import { presentOrganization } from "./present";

interface Vars {
  orgs: Collection<OrgDoc>;
  members: Collection<MemberDoc>;
  invites: Collection<InviteDoc>;
}
interface Methods {
  /** Loads the organization as the caller sees it: 404 when it is missing or the caller is no member. */
  loadForMember(organizationId: string, caller: Caller): Promise<{ org: OrgDoc; member: MemberDoc }>;
  requireAdmin(member: MemberDoc): void;
  addMember(organizationId: string, userId: string, role: RoleOrGuest, sso: boolean): Promise<MemberDoc>;
  membersChanged(organizationId: string): Promise<void>;
}

type Ctx<P> = Context<P, Record<string, unknown>>;

const role = { type: "enum", values: [...ROLES], nullable: true, optional: true } as const;
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
}

interface InviteParams {
  organizationId: string;
  emails: string[];
  role?: RoleOrGuest;
  sso?: boolean;
}

export function orgsSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "orgs",
    mixins: [storeMixin(collections)],

    actions: {
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
          return presentOrganization(org, "admin", configFor(this.broker).publicUrl);
        },
      },

      list: {
        params: { ...listParams },
        async handler(ctx: Ctx<{ page?: string; limit?: number }>) {
          const caller = callerOf(ctx);
          const publicUrl = configFor(this.broker).publicUrl;
          return listPage(this.members, { userId: caller.id }, { ...ctx.params, sort: [["organizationId", 1]] }, async (members) => {
            const orgs = await this.orgs.find({ id: op.in(members.map((m) => m.organizationId)) });
            const byId = new Map(orgs.map((o) => [o.id, o]));
            return members.flatMap((m) => {
              const org = byId.get(m.organizationId);
              return org ? [presentOrganization(org, m.role, publicUrl)] : [];
            });
          });
        },
      },

      get: {
        params: { organizationId: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<{ organizationId: string }>) {
          const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
          return presentOrganization(org, member.role, configFor(this.broker).publicUrl);
        },
      },

      update: {
        params: {
          organizationId: { type: "string", min: 1, max: 64 },
          ...orgFields,
          hostname: { type: "string", min: 3, max: 32, pattern: HOSTNAME, optional: true, messages: { stringPattern: "The 'hostname' field may contain only lower-case letters, digits and inner hyphens." } },
          defaultRole: role,
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
        },
        async handler(ctx: Ctx<UpdateParams>) {
          const { organizationId, ...fields } = ctx.params;
          const { org, member } = await this.loadForMember(organizationId, callerOf(ctx));
          this.requireAdmin(member);
          const set: Partial<OrgDoc> = { updatedAt: new Date().toISOString() };
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
          return presentOrganization(updated, member.role, configFor(this.broker).publicUrl);
        },
      },

      invite: {
        params: {
          organizationId: { type: "string", min: 1, max: 64 },
          emails: { type: "array", min: 1, max: 100, items: { type: "email", max: 254 } },
          role,
          sso: { type: "boolean", optional: true },
        },
        async handler(ctx: Ctx<InviteParams>) {
          const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
          this.requireAdmin(member);
          const role = ctx.params.role === undefined ? org.defaultRole : ctx.params.role;
          const sso = ctx.params.sso ?? false;
          const emails = [...new Set(ctx.params.emails.map((e) => e.toLowerCase()))];
          const existing = await ctx.call<Array<{ id: string; email: string }>, { emails: string[] }>("identity.findByEmails", { emails });
          const users: string[] = [];
          for (const user of existing) {
            await this.addMember(org.id, user.id, role, sso);
            users.push(user.id);
          }
          const known = new Set(existing.map((u) => u.email));
          let pending = 0;
          for (const email of emails.filter((e) => !known.has(e))) {
            const invite: InviteDoc = { id: newId(), organizationId: org.id, email, role, sso, createdAt: new Date().toISOString() };
            try {
              await this.invites.insert(invite);
            } catch (err) {
              if (!(err instanceof ConflictError)) throw err;
              await this.invites.updateOne({ organizationId: org.id, email }, { $set: { role, sso } });
            }
            pending++;
          }
          return { users, invited: users.length + pending };
        },
      },

      /** Internal: whether an organization exists and the user's membership in it. */
      memberRole: {
        visibility: "public",
        params: { organizationId: { type: "string", min: 1, max: 64 }, userId: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<{ organizationId: string; userId: string }>): Promise<Membership> {
          const [org, member] = await Promise.all([
            this.orgs.findOne({ id: ctx.params.organizationId }),
            this.members.findOne({ id: memberId(ctx.params.organizationId, ctx.params.userId) }),
          ]);
          if (!org) return { exists: false, member: false, role: null };
          if (!member || member.disabled) return { exists: true, member: false, role: null };
          return { exists: true, member: true, role: member.role };
        },
      },
    },

    events: {
      // A pending invitation becomes a membership as soon as a user with that email exists.
      "identity.user.created": {
        async handler(ctx: Context<{ id: string; email: string }>) {
          const invites = await this.invites.find({ email: ctx.params.email.toLowerCase() });
          for (const invite of invites) {
            await this.addMember(invite.organizationId, ctx.params.id, invite.role, invite.sso);
            await this.invites.deleteOne({ id: invite.id });
          }
        },
      },
    },

    methods: {
      async loadForMember(organizationId: string, caller: Caller) {
        const [org, member] = await Promise.all([
          this.orgs.findOne({ id: organizationId }),
          this.members.findOne({ id: memberId(organizationId, caller.id) }),
        ]);
        if (!org || !member || member.disabled) throw new NotFoundError(`Organization ${organizationId} was not found.`);
        return { org, member };
      },

      requireAdmin(member: MemberDoc) {
        if (!atLeast(member.role, "admin")) throw new ForbiddenError("Only an administrator of the organization can do this.");
      },

      async addMember(organizationId: string, userId: string, role: RoleOrGuest, sso: boolean) {
        const id = memberId(organizationId, userId);
        const now = new Date().toISOString();
        const doc: MemberDoc = { id, organizationId, userId, role, sso, disabled: false, joinedAt: now };
        try {
          await this.members.insert(doc);
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          // Already a member: an invitation updates the role, never creates a second membership.
          const updated = await this.members.updateOne({ id }, { $set: { role, disabled: false } });
          if (!updated) throw new BadRequestError("The membership changed concurrently; try again.");
          await this.membersChanged(organizationId);
          return updated;
        }
        await this.membersChanged(organizationId);
        return doc;
      },

      async membersChanged(organizationId: string) {
        await this.broker.broadcast("orgs.members.changed", { organizationId });
      },
    },
  };
}

export default orgsSchema;
