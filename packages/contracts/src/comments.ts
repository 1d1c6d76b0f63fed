// The comments service's actions change requests call on a change request's thread (reviews with a comment).
import { action } from "./action";
import type { Listed } from "./content";
import type { User } from "./identity";

/** A comment as the API presents it; only the fields callers read are typed. */
export interface PostedComment {
  object: "comment";
  id: string;
  /** How many replies it has. */
  replies: number;
  postedBy: User;
  postedAt: string;
  /** With `format: "markdown"`, the body's Markdown. */
  body: { markdown?: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** A reply as the API presents it; only the fields callers read are typed. */
export interface PostedReply {
  object: "comment-reply";
  id: string;
  postedBy: User;
  postedAt: string;
  body: { markdown?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface ChangeRequestThread {
  spaceId: string;
  changeRequestId: string;
}


export const getInChangeRequest = action<ChangeRequestThread & { commentId: string }, PostedComment>("comments.getInChangeRequest");
export const listRepliesInChangeRequest = action<ChangeRequestThread & ReplyParams, Listed<PostedReply>>("comments.listRepliesInChangeRequest");

// The public actions the app calls as the signed-in user, on a space's thread and on a change request's.

export interface SpaceThread {
  spaceId: string;
}

export interface CommentListParams {
  targetPage?: string;
  status?: "open" | "resolved";
  format?: "document" | "markdown";
  limit?: number;
  page?: string;
}

export interface PostComment {
  body: { markdown: string };
  /** The page commented on. */
  page?: string;
}

export interface ReplyParams {
  commentId: string;
  format?: "document" | "markdown";
  limit?: number;
  page?: string;
}

export const list = action<SpaceThread & CommentListParams, Listed<PostedComment>>("comments.list");
export const post = action<SpaceThread & PostComment, PostedComment>("comments.post");
export const listReplies = action<SpaceThread & ReplyParams, Listed<PostedReply>>("comments.listReplies");
export const postReply = action<SpaceThread & { commentId: string; body: { markdown: string } }, PostedReply>("comments.postReply");
export const listInChangeRequest = action<ChangeRequestThread & CommentListParams, Listed<PostedComment>>("comments.listInChangeRequest");
export const postInChangeRequest = action<ChangeRequestThread & PostComment, PostedComment>("comments.postInChangeRequest");
export const postReplyInChangeRequest = action<ChangeRequestThread & { commentId: string; body: { markdown: string } }, PostedReply>("comments.postReplyInChangeRequest");
