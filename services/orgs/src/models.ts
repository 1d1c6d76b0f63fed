import type { MergeRules } from "./merge-rules";
// Organizations, memberships, invitations, teams, collections and translation settings as stored.
import type { Grants, Role, RoleOrGuest } from "@docshelf/access";
import type { CollectionSpec } from "@docshelf/store";

export interface OrgDoc {
  id: string;
  title: string;
  emailDomains: string[];
  hostname?: string;
  type: "business" | "community";
  useCase?: string;
  defaultRole: RoleOrGuest;
  defaultContent?: { type: "site"; site: string };
  logo?: string;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  /** GitBook's merge rules for every space of the organization; none when unset. */
  mergeRules?: MergeRules;
  createdAt: string;
  updatedAt: string;
  /** Held (`<ms>:<token>`) while a change that could remove an administrator checks and writes. */
  adminLock?: string | null;
}

export interface MemberDoc {
  /** `<organizationId>:<userId>`: one membership per user and organization, enforced by the key. */
  id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  /** Lower-cased display name and email, for the member list's `search` filter. */
  search?: string;
  sso: boolean;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  /** A JWT of visitor claims a service attached to the member through ping. */
  serviceVisitorClaims?: string;
}

export interface InviteDoc {
  id: string;
  organizationId: string;
  email: string;
  role: RoleOrGuest;
  sso: boolean;
  createdAt: string;
}

/** An invite link: anyone holding its id may join with `role`, which admins may change. */
export interface LinkInviteDoc {
  id: string;
  organizationId: string;
  role: RoleOrGuest;
  createdBy: string;
  createdAt: string;
}

export interface TeamDoc {
  id: string;
  organizationId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export type TeamRole = "owner" | "member";

export interface TeamMemberDoc {
  /** `<teamId>:<userId>`. */
  id: string;
  teamId: string;
  organizationId: string;
  userId: string;
  role: TeamRole;
  addedAt: string;
}

/** A collection's own default level: a role, null (guests) or "inherit" from its parent. */
export type DefaultLevel = RoleOrGuest | "inherit";

export interface CollectionDoc {
  id: string;
  organizationId: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  /** Roles granted on the collection (and so on everything in it) to teams and members, by `grantKey`. */
  grants?: Grants;
  /** Order among siblings, ascending. */
  position: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

export interface TranslationDoc {
  id: string;
  organizationId: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
}

export const memberId = (organizationId: string, userId: string) => `${organizationId}:${userId}`;
export const teamMemberId = (teamId: string, userId: string) => `${teamId}:${userId}`;

export type { Role };

export const collections: Record<
  "orgs" | "members" | "invites" | "linkInvites" | "teams" | "teamMembers" | "collections" | "translations",
  CollectionSpec
> = {
  orgs: { name: "orgs", indexes: [{ fields: ["hostname"], unique: true, sparse: true }, { fields: ["emailDomains"] }] },
  members: { name: "members", indexes: [{ fields: ["organizationId"] }, { fields: ["userId"] }] },
  invites: { name: "invites", indexes: [{ fields: ["email"] }, { fields: ["organizationId", "email"], unique: true }] },
  linkInvites: { name: "link_invites", indexes: [{ fields: ["organizationId", "createdAt"] }] },
  teams: { name: "teams", indexes: [{ fields: ["organizationId"] }] },
  teamMembers: { name: "team_members", indexes: [{ fields: ["teamId"] }, { fields: ["organizationId", "userId"] }] },
  collections: { name: "collections", indexes: [{ fields: ["organizationId"] }, { fields: ["parent"] }] },
  translations: { name: "translations", indexes: [{ fields: ["organizationId"] }] },
};
