// Organizations, memberships and pending invitations as stored.
import type { RoleOrGuest } from "@docshelf/access";
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
  createdAt: string;
  updatedAt: string;
}

export interface MemberDoc {
  /** `<organizationId>:<userId>`: one membership per user and organization, enforced by the key. */
  id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  sso: boolean;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
}

export interface InviteDoc {
  id: string;
  organizationId: string;
  email: string;
  role: RoleOrGuest;
  sso: boolean;
  createdAt: string;
}

export const memberId = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

export const collections: Record<"orgs" | "members" | "invites", CollectionSpec> = {
  orgs: { name: "orgs", indexes: [{ fields: ["hostname"], unique: true, sparse: true }, { fields: ["emailDomains"] }] },
  members: { name: "members", indexes: [{ fields: ["organizationId"] }, { fields: ["userId"] }] },
  invites: { name: "invites", indexes: [{ fields: ["email"] }, { fields: ["organizationId", "email"], unique: true }] },
};
