// Roles and the one place that computes a caller's effective role and each resource's permissions.
import { hash } from "node:crypto";
import { UnauthorizedError } from "@docshelf/errors";

import { grantKey, type Grants, type Role, type RoleOrGuest } from "./roles";

export { ROLES, grantKey, type Grants, type Role, type RoleOrGuest } from "./roles";
export * from "./grants";

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export function rank(role: RoleOrGuest | undefined): number {
  return role ? RANK[role] : 0;
}

/** Whether `role` is `min` or stronger. */
export function atLeast(role: RoleOrGuest | undefined, min: Role): boolean {
  return rank(role) >= RANK[min];
}

export function strongest(...roles: Array<RoleOrGuest | undefined>): RoleOrGuest {
  let best: RoleOrGuest = null;
  for (const role of roles) if (rank(role) > rank(best)) best = role ?? null;
  return best;
}

/** What is known about a caller and a piece of content. */
export interface AccessFacts {
  /** The caller's membership role in the owning organization: undefined when not a member, null for a guest. */
  memberRole?: RoleOrGuest;
  /** `defaultLevel` of the enclosing collections, nearest first (null or absent levels inherit). */
  collectionLevels?: RoleOrGuest[];
  /** `defaultLevel` of the space itself; null inherits from the collections. */
  spaceLevel?: RoleOrGuest;
  /** Roles granted to the caller, or to the caller's teams, on this content or its collections. */
  teamRoles?: Role[];
  /** Content visibility; `public` and `unlisted` content is readable by any signed-in caller. */
  visibility?: string;
}

/**
 * A caller's effective role on an organization's content:
 * - non-members see only public or unlisted content (read);
 * - organization admins are admins everywhere in it;
 * - other members get the strongest of their own role (guests have none), the content's default
 *   level (the space's own, else the nearest collection's that sets one) and the grants to them or
 *   their teams (`grantedRoles`) on it and its collections.
 */
export function effectiveRole(facts: AccessFacts): RoleOrGuest {
  const open = facts.visibility === "public" || facts.visibility === "unlisted" ? ("read" as const) : null;
  if (facts.memberRole === undefined) return open;
  if (facts.memberRole === "admin") return "admin";
  const inherited = facts.spaceLevel ?? facts.collectionLevels?.find((level) => level != null) ?? null;
  const defaultLevel = facts.memberRole === null ? null : inherited;
  return strongest(facts.memberRole, defaultLevel, ...(facts.teamRoles ?? []), open);
}

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

export function spacePermissions(role: RoleOrGuest): SpacePermissions {
  return {
    view: atLeast(role, "read"),
    access: atLeast(role, "read"),
    admin: atLeast(role, "admin"),
    viewInviteLinks: atLeast(role, "admin"),
    edit: atLeast(role, "edit"),
    triggerGitSync: atLeast(role, "edit"),
    comment: atLeast(role, "comment"),
    merge: atLeast(role, "review"),
    review: atLeast(role, "review"),
    installIntegration: atLeast(role, "admin"),
  };
}

export interface OrganizationPermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** Permissions on an organization from the caller's membership role (undefined: not a member). */
export function organizationPermissions(memberRole: RoleOrGuest | undefined): OrganizationPermissions {
  const member = memberRole !== undefined;
  const full = member && memberRole !== null;
  return {
    view: member,
    access: member,
    admin: atLeast(memberRole, "admin"),
    ownTeam: atLeast(memberRole, "admin"),
    createContent: atLeast(memberRole, "create"),
    createOpenAPISpec: atLeast(memberRole, "create"),
    ingestConversations: atLeast(memberRole, "admin"),
    viewBilling: atLeast(memberRole, "admin"),
    listMembers: full,
    listTeams: full,
    listIntegrations: atLeast(memberRole, "create"),
    listInstallations: atLeast(memberRole, "admin"),
    installIntegration: atLeast(memberRole, "admin"),
  };
}

export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

export function collectionPermissions(role: RoleOrGuest): CollectionPermissions {
  return {
    view: atLeast(role, "read"),
    admin: atLeast(role, "admin"),
    viewInviteLinks: atLeast(role, "admin"),
    create: atLeast(role, "create"),
  };
}

/** The signed-in caller as the gateway puts it in `ctx.meta.user`: small, it travels with every call. */
export interface Caller {
  id: string;
  /** Instance administrators manage users; they get no content rights from it. */
  instanceAdmin: boolean;
}

/** The caller of an action, or an error when the gateway did not authenticate one. */
export function callerOf(ctx: { meta: unknown }): Caller {
  const user = (ctx.meta as { user?: Caller | null }).user;
  if (!user || typeof user.id !== "string") throw new UnauthorizedError();
  return user;
}

/** Tokens are stored and looked up only as this hash. They carry 256 random bits, so one SHA-256 is enough. */
export function hashToken(token: string): string {
  // The one-shot form: about half the cost of createHash().update().digest(), on every request.
  return hash("sha256", token, "hex");
}

/** What `orgs.memberRole` answers: whether the organization exists and the caller's membership. */
export interface Membership {
  exists: boolean;
  member: boolean;
  role: RoleOrGuest;
  /** The member's user id and the ids of the teams they belong to (for content grants), when a member. */
  userId?: string;
  teams?: string[];
}

/** The roles `grants` (of the content and of its enclosing collections) give a member: their own and their teams'. */
export function grantedRoles(membership: Pick<Membership, "member" | "userId" | "teams">, ...grants: Array<Grants | undefined>): Role[] {
  if (!membership.member || !membership.userId) return [];
  const keys = [grantKey("user", membership.userId), ...(membership.teams ?? []).map((team) => grantKey("team", team))];
  const roles: Role[] = [];
  for (const held of grants) {
    if (!held) continue;
    for (const key of keys) if (held[key]) roles.push(held[key]);
  }
  return roles;
}

/** The membership as `effectiveRole` wants it: undefined when not a member. */
export function memberRoleOf(membership: Membership): RoleOrGuest | undefined {
  return membership.member ? membership.role : undefined;
}

/**
 * A caller-side cache of memberships, so that reading content does not cost a call to the orgs
 * service every time. Entries live `ttlMs`; `orgs.members.changed` events drop an organization's at once.
 */
export class MembershipCache {
  /**
   * By organization, then user: the two ids are looked up as they come (strings whose hash V8 keeps),
   * where one joined key would be a new string to hash on every read; and an organization's entries go at once.
   */
  private readonly entries = new Map<string, Map<string, { value: Membership; expires: number }>>();
  private size = 0;
  /** Counts drops, so that an answer fetched across a drop (it may predate the change) is not cached. */
  private drops = 0;

  constructor(
    private readonly fetch: (organizationId: string, userId: string) => Promise<Membership>,
    private readonly ttlMs = 10_000,
  ) {}

  /** The cached membership, or undefined when it must be fetched (`get`): lets a hot path skip a promise. */
  peek(organizationId: string, userId: string): Membership | undefined {
    const hit = this.entries.get(organizationId)?.get(userId);
    return hit && hit.expires > Date.now() ? hit.value : undefined;
  }

  async get(organizationId: string, userId: string): Promise<Membership> {
    const hit = this.peek(organizationId, userId);
    if (hit) return hit;
    const drops = this.drops;
    const value = await this.fetch(organizationId, userId);
    if (this.drops !== drops) return value;
    if (this.size >= 50_000) {
      this.entries.clear();
      this.size = 0;
    }
    let users = this.entries.get(organizationId);
    if (!users) this.entries.set(organizationId, (users = new Map()));
    if (!users.has(userId)) this.size += 1;
    users.set(userId, { value, expires: Date.now() + this.ttlMs });
    return value;
  }

  dropOrganization(organizationId: string): void {
    this.drops += 1;
    const users = this.entries.get(organizationId);
    if (!users) return;
    this.size -= users.size;
    this.entries.delete(organizationId);
  }
}
