// Grants on a collection to teams and members (GitBook's collection permissions), and the check
// content uses for the same on spaces: which of some team and user ids are not in an organization.
import { atLeast, callerOf, callOf, checkInvitees, grantKey, grantUpdate, invitees, inviteParams, listGrants, principalParam, roleParams, type Invite, type Principal, type RoleOrGuest } from "@docshelf/access";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { memberId } from "./models";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

type Ref = { collectionId: string };
type ListParams = Ref & { page?: string; limit?: number };
type PrincipalParams = Ref & { teamId?: string; userId?: string; role?: RoleOrGuest };

/** The collection when the caller administers it: 404 hidden, 403 short of admin. */
async function loadForAdmin(service: OrgsService, ctx: Ctx<Ref>) {
  const loaded = await service.loadCollection(ctx.params.collectionId, callerOf(ctx));
  if (!atLeast(loaded.role, "admin")) throw new ForbiddenError("Changing who may access a collection needs the admin role on it.");
  return loaded;
}

/** Members with a role who can see the collection may see who else can; guests 403. */
async function loadForList(service: OrgsService, ctx: Ctx<Ref>) {
  const loaded = await service.loadCollection(ctx.params.collectionId, callerOf(ctx));
  service.requireFullMember(loaded.member);
  return loaded;
}

async function setGrant(service: OrgsService, ctx: Ctx<Ref>, role: RoleOrGuest, principals: Array<[Principal, string]>): Promise<null> {
  const { collection } = await loadForAdmin(service, ctx);
  const updated = await service.collections.updateOne({ id: collection.id, deletedAt: op.exists(false) }, grantUpdate("grants", collection.grants, role, principals));
  if (!updated) throw new NotFoundError(`Collection ${ctx.params.collectionId} was not found.`);
  await service.collectionsChanged(collection.organizationId, collection.id);
  ctx.meta.$statusCode = 204;
  return null;
}

function listAction(principal: Principal) {
  return {
    params: { collectionId: idRule, ...listParams },
    async handler(this: OrgsService, ctx: Ctx<ListParams>) {
      const { collection } = await loadForList(this, ctx);
      return listGrants(callOf(ctx), collection.organizationId, collection.grants, principal, ctx.params);
    },
  };
}

/** PATCH sets one principal's grant (null takes it away); 404 when that principal holds no grant. */
function updateAction(principal: Principal) {
  return {
    params: { collectionId: idRule, [principalParam(principal)]: idRule, ...roleParams },
    async handler(this: OrgsService, ctx: Ctx<PrincipalParams>) {
      const id = ctx.params[principalParam(principal)] as string;
      const { collection } = await loadForAdmin(this, ctx);
      if (!collection.grants?.[grantKey(principal, id)]) {
        throw new NotFoundError(`The ${principal} ${id} has no permission on collection ${collection.id}.`);
      }
      return setGrant(this, ctx, ctx.params.role ?? null, [[principal, id]]);
    },
  };
}

/** DELETE takes one principal's grant away: 204 also when it held none. */
function removeAction(principal: Principal) {
  return {
    params: { collectionId: idRule, [principalParam(principal)]: idRule },
    async handler(this: OrgsService, ctx: Ctx<PrincipalParams>) {
      return setGrant(this, ctx, null, [[principal, ctx.params[principalParam(principal)] as string]]);
    },
  };
}

export const collectionPermissionActions: OrgsActions = {
  inviteToCollection: {
    params: { collectionId: idRule, ...inviteParams },
    async handler(this: OrgsService, ctx: Ctx<Ref & Invite>) {
      const named = invitees(ctx.params);
      const { collection } = await loadForAdmin(this, ctx);
      await checkInvitees(callOf(ctx), collection.organizationId, named);
      const principals: Array<[Principal, string]> = [...named.teams.map((id): [Principal, string] => ["team", id]), ...named.users.map((id): [Principal, string] => ["user", id])];
      return setGrant(this, ctx, ctx.params.role, principals);
    },
  },
  listTeamPermissionsInCollection: listAction("team"),
  listUserPermissionsInCollection: listAction("user"),
  updateTeamPermissionInCollection: updateAction("team"),
  updateUserPermissionInCollection: updateAction("user"),
  removeTeamFromCollection: removeAction("team"),
  removeUserFromCollection: removeAction("user"),

  /** Internal: which of `teams` are not teams of the organization, and which of `users` are not active members of it. */
  unknownPrincipals: {
    visibility: "public",
    params: {
      organizationId: idRule,
      teams: { type: "array", max: 1000, items: idRule },
      users: { type: "array", max: 1000, items: idRule },
    },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; teams: string[]; users: string[] }>) {
      const { organizationId, teams, users } = ctx.params;
      const [foundTeams, foundMembers] = await Promise.all([
        teams.length ? this.teams.find({ organizationId, id: op.in(teams) }) : [],
        users.length ? this.members.find({ id: op.in(users.map((u) => memberId(organizationId, u))) }) : [],
      ]);
      const teamIds = new Set(foundTeams.map((t) => t.id));
      const userIds = new Set(foundMembers.filter((m) => !m.disabled).map((m) => m.userId));
      return { teams: teams.filter((t) => !teamIds.has(t)), users: users.filter((u) => !userIds.has(u)) };
    },
  },
};
