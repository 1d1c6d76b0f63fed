// Reviews and merge rules as plain rules: which reviews are outdated, and whether a merge may go ahead.
import type { ChangeRequestDoc } from "./models";

export const REVIEW_STATUSES = ["approved", "changes-requested"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export interface ReviewDoc {
  id: string;
  spaceId: string;
  changeRequestId: string;
  /** The change request's revision the review was made against. */
  revision: string;
  reviewer: string;
  /** Who had asked the reviewer for it, when they had been asked. */
  requestedBy?: string;
  status: ReviewStatus;
  /** The change request comment posted with the review, if any. */
  commentId?: string;
  createdAt: string;
  updatedAt: string;
}

/** A reviewer asked for a review: `<changeRequestId>:<userId>`, one per change request and user. */
export interface ReviewRequestDoc {
  id: string;
  spaceId: string;
  changeRequestId: string;
  userId: string;
  requestedBy: string;
  revision: string;
  createdAt: string;
}

/**
 * GitBook's `outdated`: superseded by a newer review of the same reviewer, or by a newer review request
 * to them. An edit alone does not make an approval outdated; asking the reviewer again does.
 */
export function isReviewOutdated(review: ReviewDoc, reviews: ReviewDoc[], requests: ReviewRequestDoc[]): boolean {
  const later = (at: string) => at > review.createdAt;
  return (
    reviews.some((r) => r.id !== review.id && r.reviewer === review.reviewer && (later(r.createdAt) || (r.createdAt === review.createdAt && r.id > review.id))) ||
    requests.some((q) => q.userId === review.reviewer && later(q.createdAt))
  );
}

/** GitBook's merge rules, as orgs stores them (`orgs.mergeRulesOf`). */
import type { MergeRule, MergeRules } from "@docshelf/contracts/orgs";
export type { MergeRule, MergeRules };

export interface MergeContext {
  cr: ChangeRequestDoc;
  /** Every review of the change request. */
  reviews: ReviewDoc[];
  requests: ReviewRequestDoc[];
  /** The user merging. */
  actor: string;
  /** True when main moved since the change request last took it in. */
  outdated: boolean;
}

/** The first rule that does not hold, with why; null when the merge may go ahead. `allow_bypass` for the actor overrides every failure. */
export function failingRule(rules: MergeRules, ctx: MergeContext): { rule: string; reason: string } | null {
  if (rules.type === "none") return null;
  const current = ctx.reviews.filter((r) => !isReviewOutdated(r, ctx.reviews, ctx.requests));
  const approvedBy = new Set(current.filter((r) => r.status === "approved").map((r) => r.reviewer));
  for (const rule of rules.rules) {
    if (rule.rule === "allow_bypass" && rule.users.includes(ctx.actor)) return null;
  }
  for (const rule of rules.rules) {
    const reason = check(rule, ctx, current, approvedBy);
    if (reason) return { rule: rule.rule, reason };
  }
  return null;
}

function check(rule: MergeRule, ctx: MergeContext, current: ReviewDoc[], approvedBy: Set<string>): string | null {
  switch (rule.rule) {
    case "require_at_least_one_review":
      return current.length ? null : "the change request needs at least one review";
    case "require_at_least_one_approved_review":
      return approvedBy.size ? null : "the change request needs at least one approving review";
    case "require_all_reviews_approved":
      if (!current.length) return "the change request needs at least one review";
      return current.every((r) => r.status === "approved") ? null : "every current review must approve the change request";
    case "require_specific_reviewers": {
      const missing = rule.users.filter((u) => u !== ctx.cr.createdBy && !approvedBy.has(u));
      return missing.length ? `approvals are missing from user(s) ${missing.join(", ")}` : null;
    }
    case "require_one_of_specific_reviewers":
      return rule.users.some((u) => approvedBy.has(u)) ? null : `one of user(s) ${rule.users.join(", ")} must approve`;
    case "require_up_to_date_change_request":
      return ctx.outdated ? "the change request must be updated from main first" : null;
    case "require_change_request_subject":
      return ctx.cr.subject.trim() ? null : "the change request needs a subject";
    case "require_author_to_merge":
      return ctx.actor === ctx.cr.createdBy ? null : "only the change request's author may merge it";
    case "allow_bypass":
      return null;
  }
}
