// The orgs service's internal actions other services call, and the answers they give.
import type { Grants, Membership, OrganizationPermissions, RoleOrGuest } from "@docshelf/access";
import { action } from "./action";
import type { ListParams, Listed } from "./content";
import type { User } from "./identity";

export type { Membership };

/** Whether the organization exists and the user's membership of it. */
export const memberRole = action<{ organizationId: string; userId: string }, Membership>("orgs.memberRole");

/** GitBook's OrganizationMember, as `orgs.membersOf` gives it. */
export interface Member {
  object: "member";
  id: string;
  role: RoleOrGuest;
  user: User;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  spaces: number;
  teams: number;
}

/** The organization's members among `userIds`, by user id. */
export const membersOf = action<{ organizationId: string; userIds: string[] }, Record<string, Member>>("orgs.membersOf");

/** GitBook's Team. */
export interface Team {
  object: "team";
  id: string;
  title: string;
  members: number;
  spaces: number;
  createdAt: string;
  permissions: { admin: boolean; view: boolean };
}

/** The organization's teams among `teamIds`, by id. */
export const teamsById = action<{ organizationId: string; teamIds: string[] }, Record<string, Team>>("orgs.teamsById");
/** The ids of the teams the user belongs to in the organization. */
export const teamIdsOf = action<{ organizationId: string; userId: string }, string[]>("orgs.teamIdsOf");
/** Which of `teams` are not teams of the organization, and which of `users` are not active members of it. */
export const unknownPrincipals = action<{ organizationId: string; teams: string[]; users: string[] }, { teams: string[]; users: string[] }>("orgs.unknownPrincipals");

/** The default levels and grants of a collection and its ancestors, nearest first, for content access. */
export interface CollectionLevels {
  exists: boolean;
  organizationId: string | null;
  deleted: boolean;
  levels: RoleOrGuest[];
  grants: Grants[];
}

export const collectionLevels = action<{ collectionId: string }, CollectionLevels>("orgs.collectionLevels");

/** A rule that names users. */
export type UserMergeRuleName = "require_specific_reviewers" | "require_one_of_specific_reviewers" | "allow_bypass";
/** A rule that stands alone. */
export type PlainMergeRuleName =
  | "require_at_least_one_review"
  | "require_at_least_one_approved_review"
  | "require_all_reviews_approved"
  | "require_up_to_date_change_request"
  | "require_change_request_subject"
  | "require_author_to_merge";

/** GitBook's MergeRule shapes this instance evaluates (orgs refuses the others when they are set). */
export type MergeRule = { rule: UserMergeRuleName; users: string[] } | { rule: PlainMergeRuleName };
/** GitBook's organization merge rules (MergeRulesStandaloneConfiguration), as orgs stores them. */
export type MergeRules = { type: "none" } | { type: "rules"; rules: MergeRule[] };

/** The organization's merge rules, which change requests evaluate at merge. */
export const mergeRulesOf = action<{ organizationId: string }, MergeRules>("orgs.mergeRulesOf");

export interface JoinBySsoParams {
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  teamId?: string;
  email?: string;
}

/** Makes a user who signed in through the organization's SAML provider a member (their pending invitation applies). */
export const joinBySso = action<JoinBySsoParams, { member: boolean; role: RoleOrGuest }>("orgs.joinBySso");

/** GitBook's Organization, as `orgs.get` gives it to a member (only the fields callers read are typed). */
export interface OrganizationResource {
  object: "organization";
  id: string;
  title: string;
  /** What the caller may do in it. */
  permissions: OrganizationPermissions;
  [field: string]: unknown;
}

/** The organization as the caller (`ctx.meta.user`) may see it; 404 for a non-member. */
export const get = action<{ organizationId: string }, OrganizationResource>("orgs.get");

// The public actions the app calls as the signed-in user (GitBook's API resources; only the fields callers
// read are typed, the rest carried as is).

/** GitBook's Collection. */
export interface CollectionResource {
  object: "collection";
  id: string;
  title: string;
  description?: string;
  /** The organization's id. */
  organization: string;
  [field: string]: unknown;
}

export const list = action<ListParams, Listed<OrganizationResource>>("orgs.list");
/** Creates an organization with the caller as its administrator. */
export const create = action<{ title: string; [field: string]: unknown }, OrganizationResource>("orgs.create");
export const invite = action<{ organizationId: string; emails: string[]; role: RoleOrGuest }, unknown>("orgs.invite");
/** A pending email invitation to the signed-in user's own email (not in GitBook's API: `GET /v1/user/invites`). */
export interface MyInvite {
  object: "invite";
  id: string;
  organization: { id: string; title: string };
  role: RoleOrGuest;
  sso: boolean;
  createdAt: string;
}
export const listMyInvites = action<ListParams, Listed<MyInvite>>("orgs.listMyInvites");
/** GitBook's joinOrganizationWithInvite: accepts the signed-in user's email invitation (or joins by an invite link). */
export const acceptInvite = action<{ organizationId: string; inviteId: string }, Record<string, never>>("orgs.joinWithLinkInvite");
/** Declines the signed-in user's email invitation, or an admin revokes one. */
export const deleteInvite = action<{ organizationId: string; inviteId: string }, null>("orgs.deleteInvite");
export const updateMember = action<{ organizationId: string; userId: string; role: RoleOrGuest }, unknown>("orgs.updateMember");
export const createTeam = action<{ organizationId: string; title: string }, Team>("orgs.createTeam");
/** GitBook's listOrganizationMembers; `search` matches the lower-cased display name and email. */
export const listMembers = action<{ organizationId: string; search?: string } & ListParams, Listed<Member>>("orgs.listMembers");
export const listTeams = action<{ organizationId: string } & ListParams, Listed<Team>>("orgs.listTeams");
export const listCollections = action<{ organizationId: string } & ListParams, Listed<CollectionResource>>("orgs.listCollections");
export const getCollection = action<{ collectionId: string }, CollectionResource>("orgs.getCollection");

/** GitBook's TeamMember: the organization's member and their role in the team. */
export interface TeamMemberResource {
  organization: Member;
  team: { role: "owner" | "member" };
  [field: string]: unknown;
}
export const removeMember = action<{ organizationId: string; userId: string }, unknown>("orgs.removeMember");
export const getTeam = action<{ organizationId: string; teamId: string }, Team>("orgs.getTeam");
export const listTeamMembers = action<{ organizationId: string; teamId: string } & ListParams, Listed<TeamMemberResource>>("orgs.listTeamMembers");
export const addTeamMember = action<{ organizationId: string; teamId: string; userId: string; role?: "owner" | "member" }, unknown>("orgs.addTeamMember");
export const removeTeamMember = action<{ organizationId: string; teamId: string; userId: string }, unknown>("orgs.removeTeamMember");
/** Renames a team (organization administrators and the team's owners). */
export const updateTeam = action<{ organizationId: string; teamId: string; title: string }, Team>("orgs.updateTeam");
/** Deletes a team, its memberships and its grants (organization administrators). */
export const deleteTeam = action<{ organizationId: string; teamId: string }, null>("orgs.deleteTeam");
/** GitBook's updateOrganization (administrators); only the fields callers send are typed. */
export const update = action<{ organizationId: string; title?: string; mergeRules?: MergeRules; inviteLinks?: boolean }, OrganizationResource>("orgs.update");

// Administration in the app (issue 39): the collection and invite-link actions it calls as the signed-in user.
export const createCollection = action<{ organizationId: string; title: string; parent?: string }, CollectionResource>("orgs.createCollection");
export const updateCollection = action<{ collectionId: string; title?: string; description?: string }, CollectionResource>("orgs.updateCollection");
export const deleteCollection = action<{ collectionId: string }, null>("orgs.deleteCollection");
/** GitBook's OrganizationInvite (an invite link): its id is the capability. */
export interface LinkInviteResource {
  object: "invite";
  id: string;
  role: RoleOrGuest;
  [field: string]: unknown;
}
export const createLinkInvite = action<{ organizationId: string; role: RoleOrGuest }, LinkInviteResource>("orgs.createLinkInvite");
export const listLinkInvites = action<{ organizationId: string } & ListParams, Listed<LinkInviteResource>>("orgs.listLinkInvites");
export const deleteLinkInvite = action<{ organizationId: string; inviteId: string }, null>("orgs.deleteLinkInvite");
/** Pending email invitations of an organization (administrators). */
export interface PendingInvite {
  object: "invite";
  id: string;
  email?: string;
  role: RoleOrGuest;
  [field: string]: unknown;
}
export const listInvites = action<{ organizationId: string } & ListParams, Listed<PendingInvite>>("orgs.listInvites");
