// The orgs service's shape as its action modules see it: its collections and its shared methods.
import type { Context, Service } from "moleculer";
import type { Caller, Principal, RoleOrGuest } from "@docshelf/access";
import type { Collection } from "@docshelf/store";
import type { CollectionDoc, InviteDoc, LinkInviteDoc, MemberDoc, OrgDoc, TeamDoc, TeamMemberDoc, TranslationDoc } from "./models";
import type { MemberResource, TeamResource } from "./present";

export interface Vars {
  orgs: Collection<OrgDoc>;
  members: Collection<MemberDoc>;
  invites: Collection<InviteDoc>;
  linkInvites: Collection<LinkInviteDoc>;
  teams: Collection<TeamDoc>;
  teamMembers: Collection<TeamMemberDoc>;
  collections: Collection<CollectionDoc>;
  translations: Collection<TranslationDoc>;
}

export interface Methods {
  publicUrl(): string;
  /** Loads the organization as the caller sees it: 404 when it is missing or the caller is no active member. */
  loadForMember(organizationId: string, caller: Caller): Promise<{ org: OrgDoc; member: MemberDoc }>;
  requireAdmin(member: MemberDoc): void;
  /** Guests may see the organization but not its members, teams or settings: 403. */
  requireFullMember(member: MemberDoc): void;
  /** Adds (or, for an existing member, sets the role of) a membership; `keepExisting` leaves an existing one as it is. */
  addMember(organizationId: string, userId: string, role: RoleOrGuest, sso: boolean, keepExisting?: boolean): Promise<MemberDoc>;
  /** Removes a membership and the user's team memberships; refuses to remove the last admin. */
  removeMember(member: MemberDoc): Promise<void>;
  membersChanged(organizationId: string): Promise<void>;
  /** Runs `run` holding the organization's admin lock: changes that could leave it without an administrator go one at a time. */
  withAdminLock<T>(organizationId: string, run: () => Promise<T>): Promise<T>;
  /** Takes a removed member's or deleted team's grants off collections here and (by event) spaces in content. */
  dropGrants(organizationId: string, principal: Principal, id: string): Promise<void>;
  presentMembers(members: MemberDoc[]): Promise<MemberResource[]>;
  presentTeams(teams: TeamDoc[], member: MemberDoc): Promise<TeamResource[]>;
  /** How many live spaces grant a role to each of these teams or users (content keeps the grants); 0 without content. */
  spaceCounts(organizationId: string, principal: Principal, ids: string[]): Promise<(id: string) => number>;
  /** The live collection as the caller sees it, with the caller's membership and role; 404 when hidden. */
  loadCollection(collectionId: string, caller: Caller): Promise<{ collection: CollectionDoc; member: Grantee; role: RoleOrGuest }>;
  /** `collection` and its ancestors by id (one read per level). */
  collectionChain(collection: CollectionDoc): Promise<Map<string, CollectionDoc>>;
  /** The caller's role on a collection of an organization whose live collections are `all`. */
  collectionRole(collection: CollectionDoc, member: Grantee | undefined, all: Map<string, CollectionDoc>): RoleOrGuest;
  /** The member with the ids of their teams, as collection grants need. */
  withTeams(member: MemberDoc): Promise<Grantee>;
  collectionsChanged(organizationId: string, collectionId: string): Promise<void>;
}

/** A member with the teams they belong to (team grants apply to them). */
export type Grantee = MemberDoc & { teams?: string[] };

export type OrgsService = Service<Record<string, unknown>> & Vars & Methods;
export type OrgsActions = Service.ServiceActionsSchema<OrgsService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
