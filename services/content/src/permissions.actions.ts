// Grants on a space to teams and members (GitBook's space permissions), and their counts for orgs.
import { callOf, checkInvitees, grantKey, grantUpdate, invitees, inviteParams, listGrants, principalParam, roleParams, type Invite, type Principal, type RoleOrGuest } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { ContentActions, ContentService, Ctx } from "./service-types";

type Ref = { spaceId: string };
type PrincipalParams = Ref & { teamId?: string; userId?: string; role?: RoleOrGuest };

async function setGrant(service: ContentService, ctx: Ctx<Ref>, role: RoleOrGuest, principals: Array<[Principal, string]>, check?: () => Promise<void>): Promise<null> {
  const { space, role: callerRole } = await service.loadSpace(ctx, ctx.params.spaceId);
  service.requireRole(callerRole, "admin", "Changing who may access a space");
  await check?.();
  const updated = await service.spaces.updateOne({ id: space.id, deletedAt: op.exists(false) }, grantUpdate("grants", space.grants, role, principals));
  if (!updated) throw new NotFoundError(`Space ${space.id} was not found.`);
  ctx.meta.$statusCode = 204;
  return null;
}

function listAction(principal: Principal) {
  return {
    params: { spaceId: idRule, ...listParams },
    async handler(this: ContentService, ctx: Ctx<Ref & { page?: string; limit?: number }>) {
      const { space, membership } = await this.loadSpace(ctx, ctx.params.spaceId);
      // Who else may see the space is shown to its members with a role, not to guests or outsiders.
      if (!membership.member || membership.role === null) this.requireRole(null, "read", "Listing a space's permissions as a guest");
      return listGrants(callOf(ctx), space.organizationId, space.grants, principal, ctx.params);
    },
  };
}

/** PATCH sets one principal's grant (null takes it away); 404 when that principal holds none. */
function updateAction(principal: Principal) {
  return {
    params: { spaceId: idRule, [principalParam(principal)]: idRule, ...roleParams },
    async handler(this: ContentService, ctx: Ctx<PrincipalParams>) {
      const id = ctx.params[principalParam(principal)] as string;
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      return setGrant(this, ctx, ctx.params.role ?? null, [[principal, id]], async () => {
        if (!space?.grants?.[grantKey(principal, id)]) throw new NotFoundError(`The ${principal} ${id} has no permission on space ${ctx.params.spaceId}.`);
      });
    },
  };
}

/** DELETE takes one principal's grant away: 204 also when it held none. */
function removeAction(principal: Principal) {
  return {
    params: { spaceId: idRule, [principalParam(principal)]: idRule },
    async handler(this: ContentService, ctx: Ctx<PrincipalParams>) {
      return setGrant(this, ctx, null, [[principal, ctx.params[principalParam(principal)] as string]]);
    },
  };
}

export const permissionActions: ContentActions = {
  inviteToSpace: {
    params: { spaceId: idRule, ...inviteParams },
    async handler(ctx: Ctx<Ref & Invite>) {
      const named = invitees(ctx.params);
      const principals: Array<[Principal, string]> = [...named.teams.map((id): [Principal, string] => ["team", id]), ...named.users.map((id): [Principal, string] => ["user", id])];
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      return setGrant(this, ctx, ctx.params.role, principals, () => checkInvitees(callOf(ctx), space?.organizationId ?? "", named));
    },
  },
  listTeamPermissionsInSpace: listAction("team"),
  listUserPermissionsInSpace: listAction("user"),
  updateTeamPermissionInSpace: updateAction("team"),
  updateUserPermissionInSpace: updateAction("user"),
  removeTeamFromSpace: removeAction("team"),
  removeUserFromSpace: removeAction("user"),

  /** Internal: how many live spaces of the organization grant a role to each team or user (a member's or team's `spaces`). */
  grantCounts: {
    visibility: "public",
    params: { organizationId: idRule, teams: { type: "array", max: 1000, items: idRule }, users: { type: "array", max: 1000, items: idRule } },
    async handler(ctx: Ctx<{ organizationId: string; teams: string[]; users: string[] }>): Promise<Record<string, number>> {
      const { organizationId, teams, users } = ctx.params;
      const keys = [...teams.map((id) => grantKey("team", id)), ...users.map((id) => grantKey("user", id))];
      // One read of the organization's spaces that carry grants (few), counted here: not a query per key.
      const granted = keys.length ? await this.spaces.find({ organizationId, deletedAt: op.exists(false), grants: op.exists(true) }) : [];
      const counts = new Map(keys.map((key) => [key, 0]));
      for (const space of granted) for (const key of Object.keys(space.grants ?? {})) if (counts.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
      return Object.fromEntries(counts);
    },
  },
};
