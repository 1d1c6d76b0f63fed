// Organizations and their invitations, the membership other services ask about, and the methods
// every action module of the service shares (members, teams, collections, translation settings).
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { atLeast, callerOf, effectiveRole, grantedRoles, grantKey, ROLES, type Principal, type Caller, type Membership, type RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, isMissingService, NotFoundError } from "@docshelf/errors";
import { listParams, listPage } from "@docshelf/list";
import { newId, op, storeMixin, type Filter } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { chainGrants, chainLevels } from "./collection-tree";
import { collectionPermissionActions } from "./collection-permissions.actions";
import { collectionActions } from "./collections.actions";
import { checkMergeRules, mergeRulesRule, type MergeRule, type MergeRules } from "./merge-rules";
import { inviteLinkActions } from "./invite-links.actions";
import { memberActions } from "./members.actions";
import { membersInternalActions } from "./members-internal.actions";
import { assertAdminRemains, assertBatchKeepsAdmin, memberSearchText, ssoAdmits } from "./membership-rules";
import { collections, memberId, type CollectionDoc, type InviteDoc, type LinkInviteDoc, type MemberDoc, type OrgDoc, type TeamDoc } from "./models";
import { presentLinkInvite, presentMember, presentOrganization, presentTeam, type UserResource } from "./present";
import type { Ctx, Grantee, Methods, Vars } from "./service-types";
import { ssoActions } from "./sso.actions";
import { teamMemberActions } from "./team-members.actions";
import { teamActions } from "./teams.actions";
import { translationActions } from "./translations.actions";

const role = { type: "enum", values: [...ROLES], nullable: true, optional: true } as const;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
/** An admin lock held longer than this was left by a process that died; the next change takes it over. */
const ADMIN_LOCK_STALE_MS = 10_000;

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

interface InviteParams {
  organizationId: string;
  emails: Array<string | { email: string; role: RoleOrGuest }>;
  role?: RoleOrGuest;
  sso?: boolean;
}

interface LinkInviteParams {
  organizationId: string;
  role?: RoleOrGuest;
  space?: string;
  collection?: string;
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
          // One role per email: the last entry naming an email wins.
          const roles = new Map<string, RoleOrGuest>();
          for (const entry of ctx.params.emails) {
            if (typeof entry === "string") roles.set(entry.toLowerCase(), defaultRole);
            else roles.set(entry.email.toLowerCase(), entry.role);
          }
          const emails = [...roles.keys()];
          const existing = await ctx.call<Array<{ id: string; email: string }>, { emails: string[] }>("identity.findByEmails", { emails });
          // Checked before any write, so that a refused invitation changes nothing.
          const current = await this.members.find({ id: op.in(existing.map((u) => memberId(org.id, u.id))), role: "admin", disabled: false });
          const newRole = new Map(existing.map((u) => [u.id, roles.get(u.email) ?? defaultRole]));
          const demoted = current.filter((m) => newRole.get(m.userId) !== "admin").length;
          if (demoted) assertBatchKeepsAdmin(await this.members.count({ organizationId: org.id, role: "admin", disabled: false }), demoted);
          const users: string[] = [];
          for (const user of existing) {
            await this.addMember(org.id, user.id, roles.get(user.email) ?? defaultRole, sso);
            users.push(user.id);
          }
          const known = new Set(existing.map((u) => u.email));
          let pending = 0;
          for (const email of emails.filter((e) => !known.has(e))) {
            const role = roles.get(email) ?? defaultRole;
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
        params: { organizationId: idRule, inviteId: idRule },
        async handler(ctx: Ctx<{ organizationId: string; inviteId: string }>) {
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
        params: { organizationId: idRule, inviteId: idRule },
        async handler(ctx: Ctx<{ organizationId: string; inviteId: string }>) {
          const caller = callerOf(ctx);
          const [org, invite] = await Promise.all([
            this.orgs.findOne({ id: ctx.params.organizationId }),
            this.linkInvites.findOne({ id: ctx.params.inviteId, organizationId: ctx.params.organizationId }),
          ]);
          if (!org) throw new NotFoundError(`Invite ${ctx.params.inviteId} was not found.`);
          if (!invite) {
            await this.acceptEmailInvite(org.id, ctx.params.inviteId, caller);
            return {};
          }
          if (!org.inviteLinks) throw new NotFoundError(`Invite ${ctx.params.inviteId} was not found.`);
          const existing = await this.members.findOne({ id: memberId(org.id, caller.id) });
          if (!existing) await this.addMember(org.id, caller.id, invite.role, false);
          return {};
        },
      },

      listForEmailDomain: {
        params: { emailDomain: { type: "string", max: 253, pattern: DOMAIN, messages: { stringPattern: "The 'emailDomain' field must be a domain name." } } },
        async handler(ctx: Ctx<{ emailDomain: string }>) {
          const caller = callerOf(ctx);
          const domain = ctx.params.emailDomain.toLowerCase();
          const users = await ctx.call<Record<string, UserResource>, { ids: string[] }>("identity.getMany", { ids: [caller.id] });
          const callerDomain = users[caller.id]?.email?.split("@")[1]?.toLowerCase();
          const orgs = await this.orgs.find({ emailDomains: domain }, { sort: [["createdAt", 1]], limit: 1000 });
          const memberships = await this.members.find({ id: op.in(orgs.map((o) => memberId(o.id, caller.id))) });
          const roles = new Map(memberships.filter((m) => !m.disabled).map((m) => [m.organizationId, m.role]));
          // Organizations are disclosed to their members and to users whose own email is in that domain.
          const visible = orgs.filter((o) => roles.has(o.id) || callerDomain === domain);
          return { organizations: visible.map((o) => presentOrganization(o, roles.get(o.id), this.publicUrl())) };
        },
      },

      ...memberActions,
      ...membersInternalActions,
      ...teamActions,
      ...inviteLinkActions,
      ...teamMemberActions,
      ...collectionActions,
      ...collectionPermissionActions,
      ...translationActions,
      ...ssoActions,

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
    },

    events: {
      /**
       * A new account converts pending invitations only where its email was vouched for: all of them
       * when an instance administrator created it, those of one organization when that organization's
       * own SSO did. Anything else (another organization's IdP) converts none: the invitee accepts
       * with POST /v1/orgs/{organizationId}/invites/{inviteId} once signed in.
       */
      /** A user's name or email changed (identity's updateUser): their memberships' search text follows. */
      "identity.user.changed": {
        async handler(ctx: Context<{ id?: string; displayName?: string; email?: string }>) {
          const { id, displayName, email } = ctx.params;
          if (!id || displayName === undefined || email === undefined) return;
          const search = memberSearchText({ displayName, email });
          for (const member of await this.members.find({ userId: id })) await this.members.updateOne({ id: member.id }, { $set: { search } });
        },
      },

      "identity.user.created": {
        async handler(ctx: Context<{ id: string; email: string; via?: "instance-admin" | "sso"; organizationId?: string }>) {
          const { via, organizationId } = ctx.params;
          const email = ctx.params.email.toLowerCase();
          let filter: Filter;
          if (via === "instance-admin") filter = { email };
          else if (via === "sso" && organizationId) filter = { email, organizationId };
          else return;
          const invites = await this.invites.find(filter);
          for (const invite of invites) {
            await this.addMember(invite.organizationId, ctx.params.id, invite.role, invite.sso || via === "sso");
            await this.invites.deleteOne({ id: invite.id });
          }
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      async loadForMember(organizationId: string, caller: Caller) {
        const [org, member] = await Promise.all([
          this.orgs.findOne({ id: organizationId }),
          this.members.findOne({ id: memberId(organizationId, caller.id) }),
        ]);
        if (!org || !member || member.disabled || !ssoAdmits(org, member)) throw new NotFoundError(`Organization ${organizationId} was not found.`);
        return { org, member };
      },

      async acceptEmailInvite(organizationId: string, inviteId: string, caller: Caller) {
        const invite = await this.invites.findOne({ id: inviteId, organizationId });
        const users = invite ? await this.broker.call<Record<string, UserResource>, { ids: string[] }>("identity.getMany", { ids: [caller.id] }) : {};
        const email = users[caller.id]?.email?.toLowerCase();
        // Someone else's invitation is as unknown as a missing one.
        if (!invite || !email || invite.email !== email) throw new NotFoundError(`Invite ${inviteId} was not found.`);
        const existing = await this.members.findOne({ id: memberId(organizationId, caller.id) });
        if (!existing) await this.addMember(organizationId, caller.id, invite.role, invite.sso);
        await this.invites.deleteOne({ id: invite.id });
      },

      requireAdmin(member: MemberDoc) {
        if (!atLeast(member.role, "admin")) throw new ForbiddenError("Only an administrator of the organization can do this.");
      },

      requireFullMember(member: MemberDoc) {
        if (member.role === null) throw new ForbiddenError("Guests cannot see the organization's members, teams and settings.");
      },

      async addMember(organizationId: string, userId: string, role: RoleOrGuest, sso: boolean, keepExisting = false) {
        const id = memberId(organizationId, userId);
        const now = new Date().toISOString();
        const users = await this.broker.call<Record<string, UserResource>, { ids: string[] }>("identity.getMany", { ids: [userId] });
        const search = memberSearchText(users[userId]);
        const doc: MemberDoc = { id, organizationId, userId, role, search, sso, disabled: false, joinedAt: now };
        try {
          await this.members.insert(doc);
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          if (keepExisting) {
            const current = await this.members.findOne({ id });
            if (current) return current;
          }
          // Already a member: an invitation updates the role, never creates a second membership.
          const updated = await this.withAdminLock(organizationId, async () => {
            const current = await this.members.findOne({ id });
            if (current) {
              const admins = await this.members.count({ organizationId, role: "admin", disabled: false });
              assertAdminRemains(current.disabled ? null : current.role, role, admins);
            }
            return this.members.updateOne({ id }, { $set: { role, search, disabled: false } });
          });
          if (!updated) throw new BadRequestError("The membership changed concurrently; try again.");
          await this.membersChanged(organizationId);
          return updated;
        }
        await this.membersChanged(organizationId);
        return doc;
      },

      async removeMember(member: MemberDoc) {
        const { organizationId, userId } = member;
        await this.withAdminLock(organizationId, async () => {
          const current = await this.members.findOne({ id: member.id });
          if (!current) return;
          const admins = await this.members.count({ organizationId, role: "admin", disabled: false });
          assertAdminRemains(current.disabled ? null : current.role, undefined, admins);
          await this.members.deleteOne({ id: member.id });
        });
        await this.teamMembers.deleteMany({ organizationId, userId });
        // Their grants go with them, so that rejoining later does not bring old access back.
        await this.dropGrants(organizationId, "user", userId);
        await this.membersChanged(organizationId);
      },

      async withAdminLock<T>(organizationId: string, run: () => Promise<T>): Promise<T> {
        const token = newId();
        for (let attempt = 0; ; attempt++) {
          const org = await this.orgs.findOne({ id: organizationId });
          if (!org) throw new NotFoundError(`Organization ${organizationId} was not found.`);
          const held = org.adminLock ?? null;
          // A lock older than ADMIN_LOCK_STALE_MS was left by a process that died holding it.
          const free = held === null || Date.now() - Number(held.split(":")[0]) > ADMIN_LOCK_STALE_MS;
          if (free && (await this.orgs.compareAndSwap(organizationId, "adminLock", held, `${Date.now()}:${token}`))) break;
          if (attempt >= 100) throw new ConflictError("The organization's administrators are being changed right now; try again.");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        try {
          return await run();
        } finally {
          const org = await this.orgs.findOne({ id: organizationId });
          if (org?.adminLock?.endsWith(`:${token}`)) await this.orgs.compareAndSwap(organizationId, "adminLock", org.adminLock, null);
        }
      },

      async dropGrants(organizationId: string, principal: Principal, id: string) {
        const key = `grants.${grantKey(principal, id)}`;
        const held = await this.collections.find({ organizationId, [key]: op.exists(true) });
        for (const collection of held) await this.collections.updateOne({ id: collection.id }, { $unset: [key] });
        if (held.length) await this.collectionsChanged(organizationId, held[0].id);
        // Content drops the grants on spaces when it hears this.
        await this.broker.broadcast("orgs.principal.removed", { organizationId, principal, id });
      },

      async membersChanged(organizationId: string) {
        await this.broker.broadcast("orgs.members.changed", { organizationId });
      },

      async presentMembers(members: MemberDoc[]) {
        if (!members.length) return [];
        const userIds = members.map((m) => m.userId);
        const organizationId = members[0].organizationId;
        const [users, links, spaces] = await Promise.all([
          this.broker.call<Record<string, UserResource>, { ids: string[] }>("identity.getMany", { ids: userIds }),
          this.teamMembers.find({ organizationId, userId: op.in(userIds) }),
          this.spaceCounts(organizationId, "user", userIds),
        ]);
        const teams = new Map<string, number>();
        for (const link of links) teams.set(link.userId, (teams.get(link.userId) ?? 0) + 1);
        const publicUrl = this.publicUrl();
        return members.map((m) => presentMember(m, users[m.userId], { teams: teams.get(m.userId) ?? 0, spaces: spaces(m.userId) }, publicUrl));
      },

      async presentTeams(teams: TeamDoc[], member: MemberDoc) {
        if (!teams.length) return [];
        const teamIds = teams.map((t) => t.id);
        const [links, spaces] = await Promise.all([this.teamMembers.find({ teamId: op.in(teamIds) }), this.spaceCounts(teams[0].organizationId, "team", teamIds)]);
        const counts = new Map<string, number>();
        const owned = new Set<string>();
        for (const link of links) {
          counts.set(link.teamId, (counts.get(link.teamId) ?? 0) + 1);
          if (link.userId === member.userId && link.role === "owner") owned.add(link.teamId);
        }
        const admin = atLeast(member.role, "admin");
        return teams.map((t) => presentTeam(t, { members: counts.get(t.id) ?? 0, spaces: spaces(t.id) }, { admin: admin || owned.has(t.id), view: member.role !== null }));
      },

      async spaceCounts(organizationId: string, principal: Principal, ids: string[]) {
        let counts: Record<string, number> = {};
        try {
          counts = await this.broker.call<Record<string, number>, Record<string, unknown>>("content.grantCounts", { organizationId, teams: principal === "team" ? ids : [], users: principal === "user" ? ids : [] });
        } catch (err) {
          // Without a content service there are no spaces to count.
          if (!isMissingService(err)) throw err;
        }
        return (id: string) => counts[grantKey(principal, id)] ?? 0;
      },

      async loadCollection(collectionId: string, caller: Caller) {
        const collection = await this.collections.findOne({ id: collectionId });
        if (!collection || collection.deletedAt) throw new NotFoundError(`Collection ${collectionId} was not found.`);
        const [org, found, chain] = await Promise.all([
          this.orgs.findOne({ id: collection.organizationId }),
          this.members.findOne({ id: memberId(collection.organizationId, caller.id) }),
          this.collectionChain(collection),
        ]);
        const member = found && org && ssoAdmits(org, found) ? await this.withTeams(found) : null;
        const role = this.collectionRole(collection, member ?? undefined, chain);
        if (!member || !role) throw new NotFoundError(`Collection ${collectionId} was not found.`);
        return { collection, member, role };
      },

      async collectionChain(collection: CollectionDoc) {
        const chain = new Map<string, CollectionDoc>([[collection.id, collection]]);
        for (let parentId = collection.parent; parentId && !chain.has(parentId); ) {
          const parent = await this.collections.findOne({ id: parentId });
          if (!parent) break;
          chain.set(parent.id, parent);
          parentId = parent.parent;
        }
        return chain;
      },

      collectionRole(collection: CollectionDoc, member: Grantee | undefined, all: Map<string, CollectionDoc>) {
        const active = member && !member.disabled ? member : undefined;
        const grants = active ? chainGrants((id) => all.get(id), collection.id) : [];
        return effectiveRole({
          memberRole: active?.role,
          collectionLevels: chainLevels((id) => all.get(id), collection.id),
          teamRoles: active ? grantedRoles({ member: true, userId: active.userId, teams: active.teams }, ...grants) : [],
        });
      },

      async withTeams(member: MemberDoc): Promise<Grantee> {
        const links = await this.teamMembers.find({ organizationId: member.organizationId, userId: member.userId });
        return { ...member, teams: links.map((l) => l.teamId) };
      },

      async collectionsChanged(organizationId: string, collectionId: string) {
        await this.broker.broadcast("orgs.collections.changed", { organizationId, collectionId });
      },
    },
  };
}

export default orgsSchema;
