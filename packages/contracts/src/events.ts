// The events services broadcast (or emit) to each other: their names and payloads.
import { event } from "./action";
import type { ChangeRequestMerged } from "./change-requests";

export const orgsMembersChanged = event<{ organizationId: string }>("orgs.members.changed");
export const orgsPrincipalRemoved = event<{ organizationId: string; principal: "team" | "user"; id: string }>("orgs.principal.removed");
export const orgsCollectionsChanged = event<{ organizationId: string; collectionId?: string }>("orgs.collections.changed");
export const orgsCollectionDeleted = event<{ organizationId: string; collectionIds: string[]; deletedAt: string }>("orgs.collection.deleted");
export const orgsCollectionTransferred = event<{ fromOrganizationId: string; toOrganizationId: string; collectionIds: string[] }>("orgs.collection.transferred");

/** `via: "invite"`: the account was made from an emailed invitation of `organizationId` (the link proved the email). */
export const identityUserCreated = event<{ id: string; email: string; via: "instance-admin" | "sso" | "invite"; organizationId?: string }>("identity.user.created");
export const identityUserChanged = event<{ id: string; displayName: string; email: string }>("identity.user.changed");
export const identityTokenRevoked = event<{ tokenHash: string }>("identity.token.revoked");

export const openapiSpecVersioned = event<{ organizationId: string; slug: string; id: string; versionId: string }>("openapi.spec.versioned");
export const openapiSpecDeleted = event<{ organizationId: string; slug: string; id: string }>("openapi.spec.deleted");

export const sitesUrlsChanged = event<{ siteId: string }>("sites.urls.changed");
export const sitesSiteDeleted = event<{ organizationId: string; siteId: string }>("sites.site.deleted");
export const sitesSitePublished = event<{ organizationId: string; siteId: string }>("sites.site.published");
export const sitesSiteUnpublished = event<{ organizationId: string; siteId: string }>("sites.site.unpublished");
/**
 * A write through one of the sites' API actions (settings, customization, sections, site spaces, redirects,
 * share links, publishing auth...) changed, or may have changed, what the site's published pages show: the
 * gateways' edge caches drop what they keep of it.
 */
export const sitesSiteChanged = event<{ organizationId: string; siteId: string; action: string }>("sites.site.changed");

/** A change request was merged: also sent on the durable NATS JetStream channel of the same name when scaled out. */
export const changeRequestsMerged = event<ChangeRequestMerged>("change-requests.merged");
/**
 * A change request's content moved to a new revision (an edit through the API or the app, an import, an update
 * from main): broadcast by change-requests after the write, best effort (a lost one costs an open editor only
 * its fallback check). The gateways tell the block editors open on the change request's pages over their live
 * connections (services/gateway/src/collab.ts), so an edit made elsewhere reaches them at once.
 */
export const changeRequestsContentChanged = event<{ spaceId: string; changeRequestId: string; revision: string }>("change-requests.content.changed");

export const contentSpaceDeleted = event<{ spaceId: string; organizationId: string; deletedAt: string }>("content.space.deleted");
export const contentSpaceRestored = event<{ spaceId: string; organizationId: string }>("content.space.restored");
/** A space deleted for good (after the retention): other services drop what they keep about it. */
export const contentSpacePurged = event<{ spaceId: string; organizationId: string }>("content.space.purged");
export const contentSpaceTransferred = event<{ spaceId: string; fromOrganizationId: string; toOrganizationId: string }>("content.space.transferred");
/**
 * A write to a space changed (or may have changed) who sees it or what a read of its threads shows: anything but
 * its title, emoji, counts, position and Git sync state. Broadcast by content's spaces collection itself before
 * the write returns; nodes drop what they keep of the space's access (contracts' kept-access).
 */
export const contentSpaceAccessChanged = event<{ spaceId: string | null; organizationId: string | null }>("content.space.access.changed");
export const contentRevisionChanged = event<{ spaceId: string; revisionId: string }>("content.revision.changed");
/**
 * What a space shows beside its content and access changed: its title or emoji (`updateSpace`), or the Git sync
 * state git-sync pushes (`setGitSync`: the published pages' "edit on Git" link). Broadcast by content after the
 * write, before it returns; the gateways' edge caches drop what they keep.
 */
export const contentSpaceUpdated = event<{ spaceId: string; organizationId: string }>("content.space.updated");
