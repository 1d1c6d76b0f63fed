import type { ChangeRequestDoc } from "./models";
import { failingRule, isReviewOutdated, type ReviewDoc, type ReviewRequestDoc } from "./reviews";

const cr = { id: "cr", createdBy: "author", subject: "Subject" } as ChangeRequestDoc;
const review = (id: string, reviewer: string, status: ReviewDoc["status"], at: string): ReviewDoc => ({
  id,
  spaceId: "s",
  changeRequestId: "cr",
  revision: "r1",
  reviewer,
  status,
  createdAt: at,
  updatedAt: at,
});
const request = (userId: string, at: string): ReviewRequestDoc => ({ id: `cr:${userId}`, spaceId: "s", changeRequestId: "cr", userId, requestedBy: "author", revision: "r1", createdAt: at });

describe("outdated reviews", () => {
  test("a newer review or a newer request to the same reviewer supersedes a review; others do not", () => {
    const first = review("a", "bob", "approved", "2026-01-01");
    const second = review("b", "bob", "changes-requested", "2026-01-02");
    const other = review("c", "eve", "approved", "2026-01-03");
    expect(isReviewOutdated(first, [first, second, other], [])).toBe(true);
    expect(isReviewOutdated(second, [first, second, other], [])).toBe(false);
    expect(isReviewOutdated(other, [other], [request("eve", "2026-01-04")])).toBe(true);
    expect(isReviewOutdated(other, [other], [request("eve", "2026-01-02"), request("bob", "2026-01-05")])).toBe(false);
  });
});

describe("merge rules", () => {
  const ctx = (reviews: ReviewDoc[], actor = "author", requests: ReviewRequestDoc[] = [], outdated = false) => ({ cr, reviews, requests, actor, outdated });
  test("none always passes", () => {
    expect(failingRule({ type: "none" }, ctx([]))).toBeNull();
  });
  test("an approval needs a current approving review", () => {
    const rules = { type: "rules" as const, rules: [{ rule: "require_at_least_one_approved_review" as const }] };
    expect(failingRule(rules, ctx([]))?.rule).toBe("require_at_least_one_approved_review");
    expect(failingRule(rules, ctx([review("a", "bob", "changes-requested", "1")]))).not.toBeNull();
    expect(failingRule(rules, ctx([review("a", "bob", "approved", "1")]))).toBeNull();
    // Superseded by a request made after it.
    expect(failingRule(rules, ctx([review("a", "bob", "approved", "1")], "author", [request("bob", "2")]))).not.toBeNull();
  });
  test("all approved, specific reviewers, bypass, up to date, author", () => {
    const approved = review("a", "bob", "approved", "1");
    const against = review("b", "eve", "changes-requested", "1");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_all_reviews_approved" }] }, ctx([approved, against]))?.rule).toBe("require_all_reviews_approved");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_specific_reviewers", users: ["bob", "author"] }] }, ctx([approved]))).toBeNull();
    expect(failingRule({ type: "rules", rules: [{ rule: "require_specific_reviewers", users: ["eve"] }] }, ctx([approved]))?.reason).toContain("eve");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_one_of_specific_reviewers", users: ["eve", "bob"] }] }, ctx([approved]))).toBeNull();
    const bypass = { type: "rules" as const, rules: [{ rule: "require_at_least_one_review" as const }, { rule: "allow_bypass" as const, users: ["boss"] }] };
    expect(failingRule(bypass, ctx([], "boss"))).toBeNull();
    expect(failingRule(bypass, ctx([], "author"))?.rule).toBe("require_at_least_one_review");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_up_to_date_change_request" }] }, ctx([], "author", [], true))?.rule).toBe("require_up_to_date_change_request");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_author_to_merge" }] }, ctx([], "bob"))?.rule).toBe("require_author_to_merge");
    expect(failingRule({ type: "rules", rules: [{ rule: "require_change_request_subject" }] }, { ...ctx([]), cr: { ...cr, subject: " " } })?.rule).toBe("require_change_request_subject");
  });
});
