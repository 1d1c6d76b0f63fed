// Grants of a role on one piece of content (a space or a collection) to teams and single members:
// GitBook's invite / list / update / remove permission operations, shared by content and orgs.
import { BadRequestError } from "@docshelf/errors";
import { listArray, type ListEnvelope, type PageRequest } from "@docshelf/list";
import { grantKey, ROLES, type Grants, type Role, type RoleOrGuest } from "./roles";

export type Principal = "team" | "user";

/** At most this many principals in one invite, and grants on one piece of content. */
export const MAX_INVITE = 100;
export const MAX_GRANTS = 1000;

const idList = { type: "array", optional: true, min: 1, max: MAX_INVITE, items: { type: "string", min: 1, max: 64 } } as const;

/** Parameters of `POST …/permissions` (GitBook's InviteUsersAndTeams): a role (null: take the grants away) and teams and/or users. */
export const inviteParams = {
  role: { type: "enum", values: [...ROLES], nullable: true },
  teams: idList,
  users: idList,
} as const;

export const roleParams = { role: { type: "enum", values: [...ROLES], nullable: true } } as const;

export interface Invite {
  role: RoleOrGuest;
  teams?: string[];
  users?: string[];
}

/** The principals an invite names, deduplicated; 400 when it names none. */
export function invitees(invite: Invite): { teams: string[]; users: string[] } {
  const teams = [...new Set(invite.teams ?? [])];
  const users = [...new Set(invite.users ?? [])];
  if (!teams.length && !users.length) throw new BadRequestError("Invalid parameters: give 'teams' or 'users' (at least one id).");
  return { teams, users };
}

/**
 * The store update that gives `role` to each principal (or, for null, takes their grant away), and
 * refuses to grow past MAX_GRANTS. `field` is the document's grants field.
 */
export function grantUpdate(field: string, current: Grants | undefined, role: RoleOrGuest, principals: Array<[Principal, string]>) {
  const keys = principals.map(([principal, id]) => grantKey(principal, id));
  if (role === null) return { $unset: keys.map((key) => `${field}.${key}`) };
  const after = new Set([...Object.keys(current ?? {}), ...keys]);
  if (after.size > MAX_GRANTS) throw new BadRequestError(`Invalid parameters: content can carry at most ${MAX_GRANTS} permissions.`);
  return { $set: Object.fromEntries(keys.map((key) => [`${field}.${key}`, role])) as Record<string, unknown> };
}

/** The grants to one kind of principal, as `{id, role}` in id order (for `listArray`). */
export function grantsTo(grants: Grants | undefined, principal: Principal): Array<{ id: string; role: Role }> {
  const prefix = grantKey(principal, "");
  return Object.entries(grants ?? {})
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, role]) => ({ id: key.slice(prefix.length), role }));
}

/** Calls an action (ctx.call or broker.call), typed by the caller. */
export type Call = <R>(action: string, params: Record<string, unknown>) => Promise<R>;

/** A context's `call` as a `Call`. */
export function callOf(ctx: { call(action: string, params: Record<string, unknown>): Promise<unknown> }): Call {
  return <R>(action: string, params: Record<string, unknown>) => ctx.call(action, params) as Promise<R>;
}

/** The path parameter naming a principal in GitBook's permission routes. */
export function principalParam(principal: Principal): "teamId" | "userId" {
  return principal === "team" ? "teamId" : "userId";
}

/** 400 unless every team is a team of the organization and every user an active member of it. */
export async function checkInvitees(call: Call, organizationId: string, invitees: { teams: string[]; users: string[] }): Promise<void> {
  const unknown = await call<{ teams: string[]; users: string[] }>("orgs.unknownPrincipals", { organizationId, ...invitees });
  if (unknown.teams.length) throw new BadRequestError(`Invalid parameters: 'teams' names teams that are not in the organization: ${unknown.teams.join(", ")}.`);
  if (unknown.users.length) throw new BadRequestError(`Invalid parameters: 'users' names users who are not members of the organization: ${unknown.users.join(", ")}.`);
}

/**
 * One page of the grants to teams (`{permission, team}`) or users (`{permission, user}`), GitBook's
 * list items; grants to teams since deleted, or to users no longer members, are left out.
 */
export async function listGrants(call: Call, organizationId: string, grants: Grants | undefined, principal: Principal, request: PageRequest): Promise<ListEnvelope<unknown>> {
  const held = grantsTo(grants, principal);
  const ids = held.map((g) => g.id);
  const unknown = ids.length ? await call<{ teams: string[]; users: string[] }>("orgs.unknownPrincipals", { organizationId, teams: principal === "team" ? ids : [], users: principal === "user" ? ids : [] }) : { teams: [], users: [] };
  const gone = new Set(principal === "team" ? unknown.teams : unknown.users);
  const page = listArray(held.filter((g) => !gone.has(g.id)), request);
  const pageIds = page.items.map((g) => g.id);
  const found = !pageIds.length
    ? {}
    : principal === "team"
      ? await call<Record<string, unknown>>("orgs.teamsById", { organizationId, teamIds: pageIds })
      : await call<Record<string, unknown>>("identity.getMany", { ids: pageIds });
  const items = page.items.filter((g) => found[g.id]).map((g) => ({ permission: g.role, [principal]: found[g.id] }));
  return { ...page, items };
}
