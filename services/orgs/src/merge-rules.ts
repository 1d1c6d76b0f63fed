// GitBook's organization merge rules (MergeRulesStandaloneConfiguration): the shapes this instance evaluates.
import { BadRequestError } from "@docshelf/errors";

export type MergeRule = { rule: string; users?: string[] };
export type MergeRules = { type: "none" } | { type: "rules"; rules: MergeRule[] };

/** Rules that name users, and rules that stand alone; the change-requests service evaluates them at merge. */
const USER_RULES = new Set(["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"]);
const PLAIN_RULES = new Set([
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_author_to_merge",
]);

/** fastest-validator rule for `mergeRules`; `checkMergeRules` then checks each rule's name and users. */
export const mergeRulesRule = {
  type: "object",
  optional: true,
  strict: "remove",
  props: {
    type: { type: "enum", values: ["none", "rules"] },
    rules: { type: "array", optional: true, max: 20, items: { type: "object", strict: "remove", props: { rule: { type: "string", min: 1, max: 64 }, users: { type: "array", optional: true, max: 100, items: { type: "string", min: 1, max: 64 } } } } },
  },
} as const;

/** The stored form of a valid configuration; 400 naming the field of the first rule it cannot take. */
export function checkMergeRules(input: { type: "none" | "rules"; rules?: MergeRule[] }): MergeRules {
  if (input.type === "none") return { type: "none" };
  if (!input.rules) throw new BadRequestError("The 'mergeRules.rules' field is required when 'mergeRules.type' is \"rules\".");
  return {
    type: "rules",
    rules: input.rules.map((rule, i) => {
      if (USER_RULES.has(rule.rule)) {
        if (!rule.users) throw new BadRequestError(`The 'mergeRules.rules[${i}].users' field is required for the rule ${rule.rule}.`);
        return { rule: rule.rule, users: [...new Set(rule.users)] };
      }
      if (PLAIN_RULES.has(rule.rule)) return { rule: rule.rule };
      throw new BadRequestError(`The 'mergeRules.rules[${i}].rule' field names ${JSON.stringify(rule.rule)}, a rule this instance does not evaluate (agent reviews, descriptions and custom expressions are not supported).`);
    }),
  };
}
