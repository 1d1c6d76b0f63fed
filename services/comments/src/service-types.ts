// The comments service's shape as its action modules see it: its collections and shared methods.
import type { Context, Service } from "moleculer";
import type { Caller, RoleOrGuest } from "@docshelf/access";
import type { Collection, Store } from "@docshelf/store";
import type { BodyFormat } from "./body";
import type { CountSync, PendingMark } from "@docshelf/count-sync";
import type { CommenterDoc, CommentDoc, ReplyDoc, Thread } from "./models";
import type { CommentResource, ReplyResource, User } from "./present";

export interface Vars {
  comments: Collection<CommentDoc>;
  replies: Collection<ReplyDoc>;
  commenters: Collection<CommenterDoc>;
  /** Threads whose comment count is still to be sent (packages/count-sync's durable marks). */
  countMarks: Collection<PendingMark>;
  store: Store;
  countSync: CountSync;
}

/** A thread the caller may see, with their role on its space and the revision a new comment targets. */
export interface ThreadAccess {
  thread: Thread;
  caller: Caller;
  role: RoleOrGuest;
  /** The space's current revision (for a change request: its revision). */
  revision: string;
  /** The space's organization, when the thread's access check told it. */
  organizationId?: string;
  /** A change request's thread: the change request's number (its app link). */
  changeRequestNumber?: number;
}

/** A comment or reply just posted, as notifications read it. */
export interface Posted {
  commentId: string;
  postedBy: string;
  markdown: string;
  /** The page the comment (or the replied comment) is on: the app shows a page's comments under it. */
  page?: { title: string; path: string };
}

export interface Methods {
  publicUrl(): string;
  /** The space's thread as the caller sees it: 404 when the space is missing, deleted or hidden from them. */
  /** `kept`: through the node's kept access answers, for reads only (writes always ask content). */
  openSpaceThread(ctx: Ctx<unknown>, spaceId: string, opts?: { kept?: boolean }): Promise<ThreadAccess>;
  /** A change request's thread (by id or number) as the caller sees it: 404 when it or its space is missing or hidden from them. */
  openChangeRequestThread(ctx: Ctx<unknown>, spaceId: string, changeRequestId: string): Promise<ThreadAccess>;
  /** 403 unless the caller's role is `comment` or better. */
  requireCommenter(access: ThreadAccess, doing: string): void;
  /** A comment of the thread, or 404. */
  loadComment(access: ThreadAccess, commentId: string): Promise<CommentDoc>;
  /** A reply of a comment, or 404. */
  loadReply(comment: CommentDoc, replyId: string): Promise<ReplyDoc>;
  /** `users`, when given, are the authors (and reacting users) of `docs`, already asked for. */
  presentComments(ctx: Ctx<unknown>, access: ThreadAccess, docs: CommentDoc[], format?: BodyFormat, users?: Promise<Record<string, User>>): Promise<CommentResource[]>;
  presentReplies(ctx: Ctx<unknown>, access: ThreadAccess, docs: ReplyDoc[], format?: BodyFormat): Promise<ReplyResource[]>;
  /** Applies a user's reaction changes by compare-and-set on `version`, retrying when another change raced it. */
  changeReactions<T extends CommentDoc | ReplyDoc>(collection: Collection<T>, id: string, userId: string, added: string[], removed: string[]): Promise<T>;
  /** Sends the thread's open-comment count to its owner; resolves after a count taken after the call went out. */
  countsChanged(thread: Thread): Promise<void>;
  syncCounts(key: string): Promise<void>;
  /** Makes `write` (a new comment) and answers it without waiting for the thread's count, which follows it (CountSync.afterWrite). */
  countedWrite<T>(thread: Thread, write: () => Promise<T>): Promise<T>;
  /** Notes that `userId` has commented or replied in the thread. */
  recordCommenter(thread: Thread, userId: string, at: string): Promise<void>;
  /** Drops those of `userIds` who have no comment or reply left in the thread from its commenters. */
  forgetSilent(thread: Thread, userIds: string[]): Promise<void>;
  /**
   * Notifies, best effort (a failure is logged), the users `posted` mentions and, for a reply (`parent`), the
   * comment's author and earlier repliers, and a change request's watchers: only members of the space's
   * organization who may read the space.
   */
  notifyPosted(ctx: Ctx<unknown>, access: ThreadAccess, posted: Posted, parent?: CommentDoc): Promise<void>;
  /** Who watches the change request (issue 39), as change-requests tells (bounded). */
  watchersOf(ctx: Ctx<unknown>, spaceId: string, changeRequestId: string): Promise<string[]>;
  /** A comment's author and its earlier repliers (bounded). */
  participantsOf(parent: CommentDoc): Promise<string[]>;
  /** Those of `userIds` who are members of the space's organization and may read the space, with its title. */
  readersAmong(ctx: Ctx<unknown>, access: ThreadAccess, userIds: string[]): Promise<Map<string, string>>;
  /** The organization of the thread's space. */
  organizationOf(ctx: Ctx<unknown>, access: ThreadAccess): Promise<string>;
}

export type CommentsService = Service<Record<string, unknown>> & Vars & Methods;
export type CommentsActions = Service.ServiceActionsSchema<CommentsService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
