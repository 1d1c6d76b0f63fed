// The API shapes of organizations, members, teams, collections, translation settings and invite links.
import type { User } from "@docshelf/contracts/identity";
import type { Member, Team } from "@docshelf/contracts/orgs";
import {
  atLeast,
  collectionPermissions,
  organizationPermissions,
  type CollectionPermissions,
  type OrganizationPermissions,
  type RoleOrGuest,
} from "@docshelf/access";
import type { MergeRules } from "./merge-rules";
import type { CollectionDoc, DefaultLevel, LinkInviteDoc, MemberDoc, OrgDoc, TeamDoc, TranslationDoc } from "./models";

export interface OrganizationResource {
  object: "organization";
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: OrgDoc["type"];
  useCase?: string;
  defaultRole: RoleOrGuest;
  defaultContent?: { type: "site"; site: string };
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: "free_2024";
  mergeRules: MergeRules;
  trial: { status: "notapplicable"; count: number };
  internal_isOnNewTrial: true;
  urls: { location: string; app: string; logo?: string };
  permissions: OrganizationPermissions;
}

export function presentOrganization(org: OrgDoc, memberRole: RoleOrGuest | undefined, publicUrl: string): OrganizationResource {
  const resource: OrganizationResource = {
    object: "organization",
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    type: org.type,
    defaultRole: org.defaultRole,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    // A self-hosted instance has no billing: every organization has every feature.
    plan: "free_2024",
    mergeRules: org.mergeRules ?? { type: "none" },
    trial: { status: "notapplicable", count: 0 },
    internal_isOnNewTrial: true,
    urls: { location: `${publicUrl}/v1/orgs/${org.id}`, app: `${publicUrl}/o/${org.id}` },
    permissions: organizationPermissions(memberRole),
  };
  if (org.hostname) resource.hostname = org.hostname;
  if (org.useCase) resource.useCase = org.useCase;
  if (org.defaultContent) resource.defaultContent = org.defaultContent;
  if (org.logo) resource.urls.logo = org.logo;
  return resource;
}

/** The embedded User of a member, as the identity service presents it. */
export type UserResource = User;

/** GitBook's OrganizationMember: also what `orgs.membersOf` answers. */
export type MemberResource = Member;

/** `user` is undefined when identity no longer knows the user: a placeholder keeps the shape. */
/** `spaces` counts the live spaces granted to the member directly; `teams` the teams they belong to. */
export function presentMember(member: MemberDoc, user: UserResource | undefined, counts: { teams: number; spaces: number }, publicUrl: string): MemberResource {
  const resource: MemberResource = {
    object: "member",
    id: member.userId,
    role: member.role,
    user: user ?? { object: "user", id: member.userId, displayName: "", urls: { location: `${publicUrl}/v1/users/${member.userId}` } },
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    sso: member.sso,
    spaces: counts.spaces,
    teams: counts.teams,
  };
  if (member.lastSeenAt) resource.lastSeenAt = member.lastSeenAt;
  return resource;
}

/** GitBook's Team: also what `orgs.teamsById` answers. */
export type TeamResource = Team;

/** `spaces` counts the live spaces granted to the team (content keeps the grants). */
export function presentTeam(team: TeamDoc, counts: { members: number; spaces: number }, permissions: TeamResource["permissions"]): TeamResource {
  return { object: "team", id: team.id, title: team.title, members: counts.members, spaces: counts.spaces, createdAt: team.createdAt, permissions };
}

export interface CollectionResource {
  object: "collection";
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  urls: { location: string; app: string };
  permissions: CollectionPermissions;
}

export function presentCollection(collection: CollectionDoc, role: RoleOrGuest, publicUrl: string): CollectionResource {
  const resource: CollectionResource = {
    object: "collection",
    id: collection.id,
    title: collection.title,
    organization: collection.organizationId,
    defaultLevel: collection.defaultLevel,
    urls: { location: `${publicUrl}/v1/collections/${collection.id}`, app: `${publicUrl}/o/${collection.organizationId}/c/${collection.id}` },
    permissions: collectionPermissions(role),
  };
  if (collection.description !== undefined) resource.description = collection.description;
  if (collection.parent) resource.parent = collection.parent;
  return resource;
}

export interface TranslationSettingsResource {
  object: "translation-settings";
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
}

export function presentTranslation(doc: TranslationDoc, memberRole: RoleOrGuest, publicUrl: string): TranslationSettingsResource {
  return {
    object: "translation-settings",
    id: doc.id,
    title: doc.title,
    languages: doc.languages,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    permissions: { view: true, edit: atLeast(memberRole, "admin") },
    urls: { location: `${publicUrl}/v1/orgs/${doc.organizationId}/translations/${doc.id}` },
  };
}

export interface LinkInviteResource {
  object: "invite";
  id: string;
  role: RoleOrGuest;
  redundant: boolean;
}

export function presentLinkInvite(invite: LinkInviteDoc): LinkInviteResource {
  // The creator is an administrator, so the link never gives them anything: never redundant for others.
  return { object: "invite", id: invite.id, role: invite.role, redundant: false };
}
