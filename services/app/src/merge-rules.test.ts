import { hasRule, mergeRulesOfForm, usersOf } from "./merge-rules";

describe("the merge rules form", () => {
  test("nothing ticked and no users is no rule", () => {
    expect(mergeRulesOfForm({ intent: "merge-rules" })).toEqual({ rules: { type: "none" } });
    expect(mergeRulesOfForm({ "users-allow_bypass": " , " })).toEqual({ rules: { type: "none" } });
  });

  test("ticked rules and user ids become GitBook's MergeRules, users deduplicated", () => {
    const read = mergeRulesOfForm({
      "rule-require_at_least_one_approved_review": "on",
      "rule-require_author_to_merge": "on",
      "rule-unknown": "on",
      "users-require_specific_reviewers": "u1, u2 u1",
    });
    expect(read).toEqual({
      rules: {
        type: "rules",
        rules: [{ rule: "require_at_least_one_approved_review" }, { rule: "require_author_to_merge" }, { rule: "require_specific_reviewers", users: ["u1", "u2"] }],
      },
    });
    if (!("rules" in read)) throw new Error("unreachable");
    expect(hasRule(read.rules, "require_author_to_merge")).toBe(true);
    expect(hasRule(read.rules, "require_all_reviews_approved")).toBe(false);
    expect(usersOf(read.rules, "require_specific_reviewers")).toEqual(["u1", "u2"]);
    expect(usersOf(read.rules, "allow_bypass")).toBeUndefined();
  });

  test("a user id that is not one is refused, naming the rule", () => {
    const read = mergeRulesOfForm({ "users-allow_bypass": "ok, $where" });
    expect(read).toEqual({ error: expect.stringContaining("These users may merge") });
    expect(mergeRulesOfForm({ "users-allow_bypass": Array.from({ length: 101 }, (_, i) => `u${i}`).join(",") })).toEqual({ error: expect.stringContaining("at most 100") });
  });
});
