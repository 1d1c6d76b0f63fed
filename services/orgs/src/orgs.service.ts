// The orgs service: organizations, their members, teams, collections, invitations, translations and
// SSO settings. Actions live in the *.actions.ts files; here are the store, the events and the
// methods those files share (membership loading, adding and removing members, collection roles).
import * as events from "@docshelf/contracts/events";
import { broadcast, call, type PayloadOf } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import * as content from "@docshelf/contracts/content";
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { atLeast, effectiveRole, grantedRoles, grantKey, type Principal, type Caller, type RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, isMissingService, NotFoundError } from "@docshelf/errors";
import { newId, op, storeMixin, type Filter } from "@docshelf/store";
import { chainGrants, chainLevels } from "./collection-tree";
import { collectionPermissionActions } from "./collection-permissions.actions";
import { collectionActions } from "./collections.actions";
import { inviteActions } from "./invites.actions";
import { memberActions } from "./members.actions";
import { membersInternalActions } from "./members-internal.actions";
import { assertAdminRemains, memberSearchText, ssoAdmits } from "./membership-rules";
import { collections, memberId, type CollectionDoc, type MemberDoc, type TeamDoc } from "./models";
import { organizationActions } from "./organizations.actions";
import { presentMember, presentTeam } from "./present";
import type { Grantee, Methods, Vars } from "./service-types";
import { ssoActions } from "./sso.actions";
import { teamMemberActions } from "./team-members.actions";
import { teamActions } from "./teams.actions";
import { translationActions } from "./translations.actions";

/** An admin lock held longer than this was left by a process that died; the next change takes it over. */
const ADMIN_LOCK_STALE_MS = 10_000;

export function orgsSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "orgs",
    mixins: [storeMixin(collections)],

    actions: {
      ...organizationActions,
      ...inviteActions,
      ...memberActions,
      ...membersInternalActions,
      ...teamActions,
      ...teamMemberActions,
      ...collectionActions,
      ...collectionPermissionActions,
      ...translationActions,
      ...ssoActions,
    },

    events: {
      /** A user's name or email changed (identity's updateUser): their memberships' search text follows. */
      "identity.user.changed": {
        async handler(ctx: Context<{ id?: string; displayName?: string; email?: string }>) {
          const { id, displayName, email } = ctx.params;
          if (!id || displayName === undefined || email === undefined) return;
          const search = memberSearchText({ displayName, email });
          for (const member of await this.members.find({ userId: id })) await this.members.updateOne({ id: member.id }, { $set: { search } });
        },
      },

      /**
       * A new account converts pending invitations only where its email was vouched for: all of them
       * when an instance administrator created it, those of one organization when that organization's
       * own SSO did, or that organization's emailed invitation did (its link proves the email). Anything else (another organization's IdP) converts none: the invitee accepts
       * with POST /v1/orgs/{organizationId}/invites/{inviteId} once signed in.
       */
      "identity.user.created": {
        async handler(ctx: Context<PayloadOf<typeof events.identityUserCreated>>) {
          const { via, organizationId } = ctx.params;
          const email = ctx.params.email.toLowerCase();
          let filter: Filter;
          if (via === "instance-admin") filter = { email };
          // An emailed invitation's link proves the email to that organization only, as its SSO does.
          else if ((via === "sso" || via === "invite") && organizationId) filter = { email, organizationId };
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

      requireAdmin(member: MemberDoc) {
        if (!atLeast(member.role, "admin")) throw new ForbiddenError("Only an administrator of the organization can do this.");
      },

      requireFullMember(member: MemberDoc) {
        if (member.role === null) throw new ForbiddenError("Guests cannot see the organization's members, teams and settings.");
      },

      async addMember(organizationId: string, userId: string, role: RoleOrGuest, sso: boolean, keepExisting = false) {
        const id = memberId(organizationId, userId);
        const now = new Date().toISOString();
        const users = await call(this.broker, identity.getMany, { ids: [userId] });
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
        await broadcast(this.broker, events.orgsPrincipalRemoved, { organizationId, principal, id });
      },

      async membersChanged(organizationId: string) {
        await broadcast(this.broker, events.orgsMembersChanged, { organizationId });
      },

      async presentMembers(members: MemberDoc[]) {
        if (!members.length) return [];
        const userIds = members.map((m) => m.userId);
        const organizationId = members[0].organizationId;
        const [users, links, spaces] = await Promise.all([
          call(this.broker, identity.getMany, { ids: userIds }),
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
          counts = await call(this.broker, content.grantCounts, { organizationId, teams: principal === "team" ? ids : [], users: principal === "user" ? ids : [] });
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
        await broadcast(this.broker, events.orgsCollectionsChanged, { organizationId, collectionId });
      },
    },
  };
}

export default orgsSchema;
