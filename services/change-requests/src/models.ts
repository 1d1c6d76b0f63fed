// Change requests, the per-space number counters of earlier versions and the counts still to be sent, as stored.
import type { CollectionSpec } from "@docshelf/store";

export const STATUSES = ["draft", "open", "archived", "merged"] as const;
export type Status = (typeof STATUSES)[number];

export interface ChangeRequestDoc {
  id: string;
  spaceId: string;
  /** 1, 2, 3… per space: one above the highest given (unique per space; change requests are deleted only with their space, so never reused). */
  number: number;
  status: Status;
  subject: string;
  createdBy: string;
  /** Users who created the change request or edited its content (the `contributor` filter). */
  contributors: string[];
  /** The change request's own content; moves by compare-and-swap on each edit. */
  revision: string;
  /** Main's revision when the change request was made. */
  revisionInitial: string;
  /** Main's revision at the last update from main. */
  revisionMergedAncestor?: string;
  /** The revision main moved to when the change request was merged. */
  revisionMerged?: string;
  /** Open comments, as the comments service reports them. */
  comments: number;
  agentTaskId?: string;
  createdAt: string;
  updatedAt: string;
  mergedAt?: string;
  mergedBy?: string;
  /** Set with `revisionMerged` until the merge has been announced (counts, broadcast, channel); the sweep retries. */
  announcePending?: boolean;
}

/** The store filter for `changeRequestId` as paths give it: the number in the space (digits) or the id. */
export function refFilter(spaceId: string, ref: string): { spaceId: string; number: number } | { spaceId: string; id: string } {
  return /^[1-9]\d{0,14}$/.test(ref) ? { spaceId, number: Number(ref) } : { spaceId, id: ref };
}

/** The last number given out in a space. */
export interface CounterDoc {
  id: string;
  last: number;
}

/** Small service-wide values kept across restarts (the PDF link signing key). */
export interface SettingDoc {
  id: string;
  value: string;
}

/**
 * A user's choice to watch a change request or not (issue 39), one per user and change request (`id` is
 * `changeRequestId:userId`). Without one, the author watches; requested reviewers and reviewers get one
 * (watching) when asked or when they review, unless they already chose.
 */
export interface WatchDoc {
  id: string;
  spaceId: string;
  changeRequestId: string;
  userId: string;
  watching: boolean;
  updatedAt: string;
}

export const collections: Record<"changeRequests" | "counters" | "settings" | "reviews" | "reviewRequests" | "watches" | "countMarks", CollectionSpec> = {
  changeRequests: {
    name: "change_requests",
    // [spaceId, status, number]: a space's list by status, newest first.
    indexes: [{ fields: ["spaceId", "number"], unique: true }, { fields: ["spaceId", "status"] }, { fields: ["spaceId", "status", "number"] }, { fields: ["status", "updatedAt"] }, { fields: ["contributors"] }, { fields: ["announcePending"] }],
  },
  /** Per space, the last number given by earlier versions (read, no longer written: numbers come from the unique index). */
  counters: { name: "counters" },
  settings: { name: "settings" },
  /** Reviews (reviews.ts), and the reviewers asked for one until they answer. */
  reviews: { name: "reviews", indexes: [{ fields: ["changeRequestId", "createdAt"] }] },
  /** A space whose change request counts are still to be sent, written with the change (packages/count-sync); deleted once sent. */
  countMarks: { name: "count_marks" },
  reviewRequests: { name: "review_requests", indexes: [{ fields: ["changeRequestId", "createdAt"] }, { fields: ["userId"] }] },
  /** Who watches a change request (watch.actions.ts). */
  watches: { name: "watches", indexes: [{ fields: ["changeRequestId", "watching"] }, { fields: ["spaceId"] }] },
};
