// Reviews of a change request and the reviewers asked for one (GitBook's review operations).
import { call } from "@docshelf/contracts/action";
import * as comments from "@docshelf/contracts/comments";
import type { PostedComment } from "@docshelf/contracts/comments";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import type { User } from "@docshelf/contracts/identity";
import { atLeast } from "@docshelf/access";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listParams, type ListEnvelope } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { ChangeRequestDoc } from "./models";
import { notifyOfChangeRequest } from "./notify";
import { isReviewOutdated, REVIEW_STATUSES, type ReviewDoc, type ReviewRequestDoc, type ReviewStatus } from "./reviews";
import type { ChangeRequestsActions, ChangeRequestsService, Ctx } from "./service-types";
import { autoWatch } from "./watch.actions";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;
/** Reviewers asked at once; a change request keeps at most this many reviews listed. */
const MAX_REVIEWERS = 50;
const MAX_REVIEWS = 1000;

interface At {
  spaceId: string;
  changeRequestId: string;
}

export interface ReviewResource {
  object: "change-request-review";
  id: string;
  revision: string;
  reviewer: User;
  requestedBy?: User;
  status: ReviewStatus;
  outdated: boolean;
  comment?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  urls: { location: string };
}

export interface RequestedReviewerResource {
  object: "change-request-requested-reviewer";
  kind: "user";
  user: User;
  revision: string;
  requestedBy: User;
  createdAt: string;
}

function deletedUser(publicUrl: string, id: string): User {
  return { object: "user", id, displayName: "Deleted user", urls: { location: `${publicUrl}/v1/users/${id}` } };
}

async function usersOf(ctx: Ctx<unknown>, ids: Array<string | undefined>): Promise<Record<string, User>> {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  return unique.length ? identity.usersById(ctx, unique) : {};
}

/** One page of an in-memory list (a change request has few reviews): `page` is the offset as a string. */
function pageOf<T>(items: T[], page: string | undefined, limit = 50): ListEnvelope<T> {
  const offset = page === undefined ? 0 : Number(page);
  if (!/^\d{1,9}$/.test(page ?? "0") || !Number.isSafeInteger(offset)) throw new BadRequestError("The 'page' parameter is not a page token of this list.");
  const out: ListEnvelope<T> = { items: items.slice(offset, offset + limit), count: items.length };
  if (offset + limit < items.length) out.next = { page: String(offset + limit) };
  return out;
}

async function reviewsOf(service: ChangeRequestsService, cr: ChangeRequestDoc) {
  const [reviews, requests] = await Promise.all([
    service.reviews.find({ changeRequestId: cr.id }, { sort: [["createdAt", 1]], limit: MAX_REVIEWS }),
    service.reviewRequests.find({ changeRequestId: cr.id }, { sort: [["createdAt", 1]], limit: MAX_REVIEWS }),
  ]);
  return { reviews, requests };
}

async function presentReviews(service: ChangeRequestsService, ctx: Ctx<unknown>, cr: ChangeRequestDoc, docs: ReviewDoc[], all: { reviews: ReviewDoc[]; requests: ReviewRequestDoc[] }) {
  const publicUrl = service.publicUrl();
  const users = await usersOf(ctx, docs.flatMap((d) => [d.reviewer, d.requestedBy]));
  return Promise.all(
    docs.map(async (doc): Promise<ReviewResource> => {
      const out: ReviewResource = {
        object: "change-request-review",
        id: doc.id,
        revision: doc.revision,
        reviewer: users[doc.reviewer] ?? deletedUser(publicUrl, doc.reviewer),
        status: doc.status,
        outdated: isReviewOutdated(doc, all.reviews, all.requests),
        createdAt: doc.createdAt,
        updatedAt: doc.updatedAt,
        urls: { location: `${publicUrl}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/reviews/${doc.id}` },
      };
      if (doc.requestedBy) out.requestedBy = users[doc.requestedBy] ?? deletedUser(publicUrl, doc.requestedBy);
      if (doc.commentId) {
        // The comment lives in the comments service; one deleted since is left out.
        const comment = await call(ctx, comments.getInChangeRequest, { spaceId: cr.spaceId, changeRequestId: cr.id, commentId: doc.commentId })
          .catch((err: unknown) => {
            if ((err as { code?: number })?.code === 404) return undefined;
            throw err;
          });
        if (comment) out.comment = { ...comment, repliers: await repliersOf(ctx, cr, comment) };
      }
      return out;
    }),
  );
}

/** GitBook's `repliers` of a comment (the comments service leaves them out): who replied, how often, when last. */
async function repliersOf(ctx: Ctx<unknown>, cr: ChangeRequestDoc, comment: PostedComment) {
  if (!comment.replies) return [];
  const replies = await call(ctx, comments.listRepliesInChangeRequest, { spaceId: cr.spaceId, changeRequestId: cr.id, commentId: comment.id, limit: 1000 });
  const byUser = new Map<string, { user: User; count: number; updatedAt: string }>();
  for (const reply of replies.items) {
    const seen = byUser.get(reply.postedBy.id) ?? { user: reply.postedBy, count: 0, updatedAt: reply.postedAt };
    seen.count++;
    if (reply.postedAt > seen.updatedAt) seen.updatedAt = reply.postedAt;
    byUser.set(reply.postedBy.id, seen);
  }
  return [...byUser.values()];
}

async function presentRequests(service: ChangeRequestsService, ctx: Ctx<unknown>, docs: ReviewRequestDoc[]): Promise<RequestedReviewerResource[]> {
  const publicUrl = service.publicUrl();
  const users = await usersOf(ctx, docs.flatMap((d) => [d.userId, d.requestedBy]));
  return docs.map((doc) => ({
    object: "change-request-requested-reviewer",
    kind: "user",
    user: users[doc.userId] ?? deletedUser(publicUrl, doc.userId),
    revision: doc.revision,
    requestedBy: users[doc.requestedBy] ?? deletedUser(publicUrl, doc.requestedBy),
    createdAt: doc.createdAt,
  }));
}

export const reviewActions: ChangeRequestsActions = {
  /**
   * POST …/reviews `{status, comment?: {markdown}}` → 201 — review role or better, not the change
   * request's author, while it is draft or open. The reviewer's request (if any) is fulfilled.
   */
  submitReview: {
    params: {
      ...at,
      status: { type: "enum", values: [...REVIEW_STATUSES] },
      comment: { type: "object", optional: true, strict: "remove", props: { markdown: { type: "string", min: 1, max: 65_536 } } },
    },
    async handler(ctx: Ctx<At & { status: ReviewStatus; comment?: { markdown: string } }>) {
      const { space, cr, caller } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "review", "Reviewing a change request");
      if (cr.createdBy === caller.id) throw new ForbiddenError("The author of a change request cannot review it.");
      if (cr.status !== "open" && cr.status !== "draft") throw new BadRequestError(`A ${cr.status} change request cannot be reviewed.`);
      const request = await this.reviewRequests.findOne({ id: `${cr.id}:${caller.id}` });
      let commentId: string | undefined;
      if (ctx.params.comment) {
        const comment = await call(ctx, comments.postInChangeRequest, { spaceId: cr.spaceId, changeRequestId: cr.id, body: ctx.params.comment });
        commentId = comment.id;
      }
      const now = new Date(this.now()).toISOString();
      const review: ReviewDoc = { id: newId(), spaceId: cr.spaceId, changeRequestId: cr.id, revision: cr.revision, reviewer: caller.id, status: ctx.params.status, createdAt: now, updatedAt: now };
      if (request) review.requestedBy = request.requestedBy;
      if (commentId) review.commentId = commentId;
      await this.reviews.insert(review);
      if (request) await this.reviewRequests.deleteOne({ id: request.id });
      // A reviewer watches the change request from then on, unless they chose not to.
      await autoWatch(this, cr, [caller.id]);
      const all = await reviewsOf(this, cr);
      const [out] = await presentReviews(this, ctx, cr, [review], all);
      ctx.meta.$statusCode = 201;
      ctx.meta.$responseHeaders = { Location: out.urls.location };
      return out;
    },
  },

  /** GET …/reviews `?outdated&page&limit` — read role; oldest first. */
  listReviews: {
    params: { ...at, ...listParams, outdated: { type: "boolean", optional: true, convert: true }, format: { type: "enum", values: ["markdown", "document"], optional: true } },
    async handler(ctx: Ctx<At & { outdated?: boolean; page?: string; limit?: number }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const all = await reviewsOf(this, cr);
      const matching = ctx.params.outdated === undefined ? all.reviews : all.reviews.filter((r) => isReviewOutdated(r, all.reviews, all.requests) === ctx.params.outdated);
      const page = pageOf(matching, ctx.params.page, ctx.params.limit);
      return { ...page, items: await presentReviews(this, ctx, cr, page.items, all) };
    },
  },

  /** GET …/reviews/:reviewId — read role. */
  getReview: {
    params: { ...at, reviewId: idRule, format: { type: "enum", values: ["markdown", "document"], optional: true } },
    async handler(ctx: Ctx<At & { reviewId: string }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const review = await this.reviews.findOne({ id: ctx.params.reviewId, changeRequestId: cr.id });
      if (!review) throw new NotFoundError(`Review ${ctx.params.reviewId} was not found on the change request.`);
      const [out] = await presentReviews(this, ctx, cr, [review], await reviewsOf(this, cr));
      return out;
    },
  },

  /**
   * POST …/requested-reviewers `{users, subject?}` → 200 `{users}` — edit role. Each user must have the
   * review role on the space (else 400 naming `users`); asking again renews the request (and makes
   * that reviewer's earlier reviews outdated).
   */
  requestReviewers: {
    params: { ...at, users: { type: "array", min: 1, max: MAX_REVIEWERS, items: idRule }, subject: { type: "string", optional: true, trim: true, max: 100 } },
    async handler(ctx: Ctx<At & { users: string[]; subject?: string }>) {
      const { space, cr, caller } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "edit", "Requesting reviewers");
      if (cr.status !== "open" && cr.status !== "draft") throw new BadRequestError(`Reviewers cannot be requested on a ${cr.status} change request.`);
      const users = [...new Set(ctx.params.users)];
      // Checked before any write: a refused request changes nothing.
      for (const userId of users) {
        if (userId === cr.createdBy) throw new BadRequestError(`The 'users' field names the change request's author (${userId}), who cannot review it.`);
        const access = await call(ctx, content.spaceAccess, { spaceId: cr.spaceId, userId });
        if (!atLeast(access.role, "review")) throw new BadRequestError(`The 'users' field names ${userId}, who has no review role on the space.`);
      }
      if (ctx.params.subject) await this.changeRequests.updateOne({ id: cr.id }, { $set: { subject: ctx.params.subject, updatedAt: new Date().toISOString() } });
      const now = new Date(this.now()).toISOString();
      const docs: ReviewRequestDoc[] = [];
      for (const userId of users) {
        const doc: ReviewRequestDoc = { id: `${cr.id}:${userId}`, spaceId: cr.spaceId, changeRequestId: cr.id, userId, requestedBy: caller.id, revision: cr.revision, createdAt: now };
        await this.reviewRequests.deleteOne({ id: doc.id });
        await this.reviewRequests.insert(doc);
        docs.push(doc);
      }
      // Requested reviewers watch the change request from then on, unless they chose not to.
      await autoWatch(this, cr, users);
      await notifyOfChangeRequest(this, ctx, ctx.params.subject ? { ...cr, subject: ctx.params.subject } : cr, "review-request", caller.id, users);
      return { users: await presentRequests(this, ctx, docs) };
    },
  },

  /** GET …/requested-reviewers `?page&limit` — read role; the requests not yet answered by a review. */
  listRequestedReviewers: {
    params: { ...at, ...listParams },
    async handler(ctx: Ctx<At & { page?: string; limit?: number }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const { requests } = await reviewsOf(this, cr);
      const page = pageOf(requests, ctx.params.page, ctx.params.limit);
      return { ...page, items: await presentRequests(this, ctx, page.items) };
    },
  },

  /** DELETE …/requested-reviewers/:userId — edit role; 205 when removed, 204 when there was no such request (GitBook's codes). */
  removeRequestedReviewer: {
    params: { ...at, userId: idRule },
    async handler(ctx: Ctx<At & { userId: string }>) {
      const { space, cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "edit", "Removing a requested reviewer");
      const removed = await this.reviewRequests.deleteOne({ id: `${cr.id}:${ctx.params.userId}` });
      ctx.meta.$statusCode = removed ? 205 : 204;
      return null;
    },
  },
};
