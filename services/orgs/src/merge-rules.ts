// GitBook's organization merge rules (MergeRulesStandaloneConfiguration): the shapes this instance evaluates.
import { BadRequestError } from "@docshelf/errors";
import type { MergeRules, PlainMergeRuleName, UserMergeRuleName } from "@docshelf/contracts/orgs";

export type { MergeRules };
/** A rule as the API takes it, before `checkMergeRules`. */
export type MergeRule = { rule: string; users?: string[] };

/** Rules that name users, and rules that stand alone; the change-requests service evaluates them at merge. */
const USER_RULES = new Set<string>(["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"] satisfies UserMergeRuleName[]);
const PLAIN_RULES = new Set<string>([
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_author_to_merge",
] satisfies PlainMergeRuleName[]);

const isUserRule = (rule: string): rule is UserMergeRuleName => USER_RULES.has(rule);
const isPlainRule = (rule: string): rule is PlainMergeRuleName => PLAIN_RULES.has(rule);

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
      if (isUserRule(rule.rule)) {
        if (!rule.users) throw new BadRequestError(`The 'mergeRules.rules[${i}].users' field is required for the rule ${rule.rule}.`);
        return { rule: rule.rule, users: [...new Set(rule.users)] };
      }
      if (isPlainRule(rule.rule)) return { rule: rule.rule };
      throw new BadRequestError(`The 'mergeRules.rules[${i}].rule' field names ${JSON.stringify(rule.rule)}, a rule this instance does not evaluate (agent reviews, descriptions and custom expressions are not supported).`);
    }),
  };
}
