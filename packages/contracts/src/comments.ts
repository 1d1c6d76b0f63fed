// The comments service's actions change requests call on a change request's thread (reviews with a comment).
import { action } from "./action";
import type { User } from "./identity";

/** A comment as the API presents it; only the fields callers read are typed. */
export interface PostedComment {
  object: "comment";
  id: string;
  /** How many replies it has. */
  replies: number;
  [field: string]: unknown;
}

/** A reply as the API presents it; only the fields callers read are typed. */
export interface PostedReply {
  object: "comment-reply";
  id: string;
  postedBy: User;
  postedAt: string;
  [field: string]: unknown;
}

export interface ChangeRequestThread {
  spaceId: string;
  changeRequestId: string;
}

export const postInChangeRequest = action<ChangeRequestThread & { body: { markdown: string } }, PostedComment>("comments.postInChangeRequest");
export const getInChangeRequest = action<ChangeRequestThread & { commentId: string }, PostedComment>("comments.getInChangeRequest");
export const listRepliesInChangeRequest = action<ChangeRequestThread & { commentId: string; limit?: number }, { items: PostedReply[] }>("comments.listRepliesInChangeRequest");
