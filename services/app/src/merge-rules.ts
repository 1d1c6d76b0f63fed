// The merge rules form of the organization's settings page: GitBook's MergeRules, one field a rule.
import type { MergeRule, MergeRules, PlainMergeRuleName, UserMergeRuleName } from "@docshelf/contracts/orgs";

/** The rules that stand alone (a checkbox each), in the order the page lists them, with their labels. */
export const PLAIN_RULES: ReadonlyArray<{ rule: PlainMergeRuleName; label: string }> = [
  { rule: "require_at_least_one_review", label: "Require at least one review" },
  { rule: "require_at_least_one_approved_review", label: "Require at least one approving review" },
  { rule: "require_all_reviews_approved", label: "Require every review to approve" },
  { rule: "require_up_to_date_change_request", label: "Require the change request to be up to date with main" },
  { rule: "require_change_request_subject", label: "Require a subject" },
  { rule: "require_author_to_merge", label: "Only the author merges" },
];

/** The rules that name users (a field of user ids each). */
export const USER_RULES: ReadonlyArray<{ rule: UserMergeRuleName; label: string }> = [
  { rule: "require_specific_reviewers", label: "Require a review from each of these users" },
  { rule: "require_one_of_specific_reviewers", label: "Require a review from one of these users" },
  { rule: "allow_bypass", label: "These users may merge without meeting the rules" },
];

/** A user id as the API's ids are (letters, digits, `-` and `_`, 1 to 64). */
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The configuration a posted form asks for: `rule-<name>` ticked, `users-<name>` user ids (comma or space separated). */
export function mergeRulesOfForm(form: Record<string, string>): { rules: MergeRules } | { error: string } {
  const rules: MergeRule[] = [];
  for (const { rule } of PLAIN_RULES) if (form[`rule-${rule}`]) rules.push({ rule });
  for (const { rule, label } of USER_RULES) {
    const users = [...new Set((form[`users-${rule}`] ?? "").split(/[\s,]+/).filter(Boolean))];
    if (!users.length) continue;
    const bad = users.find((u) => !USER_ID.test(u));
    if (bad !== undefined) return { error: `“${label}” takes user ids; ${JSON.stringify(bad.slice(0, 80))} is not one.` };
    if (users.length > 100) return { error: `“${label}” takes at most 100 users.` };
    rules.push({ rule, users });
  }
  return { rules: rules.length ? { type: "rules", rules } : { type: "none" } };
}

/** The users a configuration names for a rule (the field's value), or undefined when it is not set. */
export function usersOf(rules: MergeRules, name: UserMergeRuleName): string[] | undefined {
  if (rules.type !== "rules") return undefined;
  const found = rules.rules.find((r) => r.rule === name);
  return found && "users" in found ? found.users : undefined;
}

export function hasRule(rules: MergeRules, name: PlainMergeRuleName): boolean {
  return rules.type === "rules" && rules.rules.some((r) => r.rule === name);
}
