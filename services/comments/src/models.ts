// Comments and replies as stored. Space comments have `changeRequestId: null`; change request comments name theirs.
import type { CollectionSpec } from "@docshelf/store";
import type { PageSnapshot } from "./pages";

export const STATUSES = ["open", "resolved"] as const;
export type CommentStatus = (typeof STATUSES)[number];

/** One user's reaction with one emoji. */
export interface ReactionDoc {
  emoji: string;
  userId: string;
  reactedAt: string;
}

/** Where a thread lives: a space's own comments, or a change request's. */
export interface Thread {
  spaceId: string;
  changeRequestId: string | null;
}

export interface CommentTargetDoc {
  /** The space's (or change request's) revision when the comment was posted. */
  revision: string;
  node?: { id: string };
  /** The page as it was when the comment was posted: `outdated` compares its `updatedAt` with the page's current one. */
  page?: PageSnapshot;
}

export interface CommentDoc extends Thread {
  id: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  target: CommentTargetDoc;
  status: CommentStatus;
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionDoc[];
  replies: number;
  /** Bumped by every reaction change: reactions are written by compare-and-set on it. */
  version: number;
}

export interface ReplyDoc extends Thread {
  id: string;
  commentId: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionDoc[];
  version: number;
}

/** Someone who has a comment or reply in a thread; removed when their last one is deleted. */
export interface CommenterDoc extends Thread {
  id: string;
  userId: string;
  /** When they first commented or replied in the thread: the list's order. */
  firstAt: string;
}

export const collections: Record<"comments" | "replies" | "commenters" | "countMarks", CollectionSpec> = {
  comments: {
    name: "comments",
    indexes: [{ fields: ["spaceId", "changeRequestId", "status"] }, { fields: ["spaceId", "changeRequestId", "postedAt"] }, { fields: ["target.page.id"] }],
  },
  replies: { name: "replies", indexes: [{ fields: ["commentId", "postedAt"] }, { fields: ["spaceId", "changeRequestId", "postedBy"] }] },
  commenters: { name: "commenters", indexes: [{ fields: ["spaceId", "changeRequestId", "userId"], unique: true }, { fields: ["spaceId", "changeRequestId", "firstAt"] }] },
  /** A thread whose open-comment count is still to be sent, written with the comment (packages/count-sync); deleted once sent. */
  countMarks: { name: "count_marks" },
};
