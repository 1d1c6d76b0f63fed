// The change-requests service's internal actions other services call, and the answers they give.
import type { RoleOrGuest } from "@docshelf/access";
import { action } from "./action";
import type { FileResource, Listed, PageResource, RevisionResource, SemanticChanges } from "./content";
import type { User } from "./identity";

/** A change request of a space as the user may see it (for comments on change requests). */
export interface ChangeRequestAccess {
  exists: boolean;
  id: string | null;
  number: number | null;
  status: string | null;
  revision: string | null;
  role: RoleOrGuest;
}

export const access = action<{ spaceId: string; changeRequestId: string; userId: string }, ChangeRequestAccess>("change-requests.access");
/** The open comment count of a change request, sent by the comments service (absolute, so repeats cannot drift). */
/**
 * Internal, no access check (content's import runs check first): moves an active change request from revision
 * `from` to `to`, a revision content stored on top of `from`, recording `userId` as a contributor. `moved` is
 * false when the change request is gone, no longer active, or no longer at `from`.
 */
export const moveRevision = action<{ spaceId: string; changeRequestId: string; from: string; to: string; userId: string }, { moved: boolean }>("change-requests.moveRevision");

export const setComments = action<{ spaceId: string; changeRequestId: string; comments: number }, { updated: boolean }>("change-requests.setComments");

/**
 * Internal, no access check (issue 39): who watches the change request (`changeRequestId`: its id), at most
 * MAX_WATCHERS. The caller notifies only those who are members of the space's organization and may read it.
 */
export const watchers = action<{ spaceId: string; changeRequestId: string }, { userIds: string[] }>("change-requests.watchers");

/** What `change-requests.merged` (the broadcast, and the channel) carries. */
export interface ChangeRequestMerged {
  spaceId: string;
  changeRequestId: string;
  number: number;
  subject: string;
  revision: string;
}

// The public actions the app calls as the signed-in user (GitBook's API resources; only the fields callers
// read are typed, the rest carried as is).

/** GitBook's ChangeRequest. */
export interface ChangeRequestResource {
  object: "change-request";
  id: string;
  number: number;
  status: string;
  subject: string;
  createdBy: User;
  [field: string]: unknown;
}

/** GitBook's ChangeRequestReview. */
export interface ReviewResource {
  object: "change-request-review";
  id: string;
  status: string;
  outdated: boolean;
  reviewer: User;
  [field: string]: unknown;
}

/** A change request of a space, by its id or number. */
export interface ChangeRequestRef {
  spaceId: string;
  changeRequestId: string;
}

/** One edit of `updateContent` (GitBook's change operations: insert_page, update_page, insert_files, …). */
export type ContentChange = { operation: string; [field: string]: unknown };

export const list = action<{ spaceId: string; status?: string; limit?: number; page?: string }, Listed<ChangeRequestResource>>("change-requests.list");
export const create = action<{ spaceId: string; subject?: string }, ChangeRequestResource>("change-requests.create");
export const get = action<ChangeRequestRef, ChangeRequestResource>("change-requests.get");
/** `compat: false` answers GitBook's newer form: `{changeRequest, changes, insertedFiles?}` (the inserted files with their ids). */
export const updateContent = action<ChangeRequestRef & { changes: ContentChange[]; compat?: boolean }, unknown>("change-requests.updateContent");
export const submitReview = action<ChangeRequestRef & { status: "approved" | "changes-requested"; comment?: { markdown: string } }, ReviewResource>("change-requests.submitReview");
export const merge = action<ChangeRequestRef, unknown>("change-requests.merge");
export const listReviews = action<ChangeRequestRef & { outdated?: boolean; limit?: number; page?: string }, Listed<ReviewResource>>("change-requests.listReviews");
export const getRevision = action<ChangeRequestRef, RevisionResource>("change-requests.getRevision");
export const getPageByPath = action<ChangeRequestRef & { pagePath: string; format?: "document" | "markdown" }, PageResource>("change-requests.getPageByPath");
export const listFiles = action<ChangeRequestRef & { limit?: number; page?: string }, Listed<FileResource>>("change-requests.listFiles");
/** Whether the caller watches the change request, and how many people do (issue 39). */
export interface WatchState {
  watching: boolean;
  watchers: number;
}
/** Read role, and membership of the space's organization (404 otherwise). */
export const getWatch = action<ChangeRequestRef, WatchState>("change-requests.getWatch");
/** Watches (`watching: true`) or stops watching the change request; read role and membership (404 otherwise). */
export const setWatch = action<ChangeRequestRef & { watching: boolean }, WatchState>("change-requests.setWatch");
/** The most people who watch one change request (a watch beyond them is refused with 409). */
export const MAX_WATCHERS = 200;
/** GitBook's getChangeRequestChanges: the change request's semantic changes against its base (`limit` 1–1000, default 10). */
export const listChanges = action<ChangeRequestRef & { limit?: number }, SemanticChanges>("change-requests.listChanges");

/** The page of a conflict a merge answers (its 409's `data.conflicts`). */
export interface MergeConflict {
  kind: "page" | "file" | "reusable-content" | "variable";
  id: string;
  title?: string;
  reason: string;
}
