// The organization's settings page: its merge rules (GitBook's MergeRules), the current ones for every
// member, and for administrators a form setting them (updateOrganization's `mergeRules`).
import type { MergeRules } from "@docshelf/contracts/orgs";
import { html, trusted } from "../html";
import { PLAIN_RULES, USER_RULES, hasRule, usersOf } from "../merge-rules";
import { csrfField, layout, type Viewer } from "./layout";
import type { MemberView, Named } from "./org";

/** The current rules in words, one item a rule. */
function currentRules(rules: MergeRules, names: Map<string, string>) {
  if (rules.type !== "rules" || !rules.rules.length) return html`<p id="current-rules">No merge rule: anyone who may merge a change request merges it.</p>`;
  const labels = new Map<string, string>([...PLAIN_RULES, ...USER_RULES].map((r) => [r.rule, r.label]));
  return html`<ul id="current-rules">${rules.rules.map(
    (r) => html`<li>${labels.get(r.rule) ?? r.rule}${"users" in r ? html`: ${r.users.map((u) => names.get(u) ?? u).join(", ")}` : ""}</li>`,
  )}</ul>`;
}

export function settingsPage(
  viewer: Viewer,
  org: Named,
  rules: MergeRules,
  /** The organization's members (administrators only; undefined: no form). */
  members: MemberView[] | undefined,
): string {
  const o = encodeURIComponent(org.id);
  const names = new Map((members ?? []).map((m) => [m.user.id, m.user.displayName ?? m.user.email ?? m.user.id]));
  return layout(
    `${org.title ?? "Organization"} · settings`,
    viewer,
    html`<p class="meta"><a href="/o/${o}">Organization</a> › settings</p>
<h1>Settings of ${org.title ?? org.id}</h1>
${
  members
    ? html`<section><h2>Name</h2><form method="post" action="/o/${o}/settings">${csrfField(viewer)}<input type="hidden" name="intent" value="rename">
<label for="org-title">The organization's name</label><input type="text" id="org-title" name="title" required minlength="2" maxlength="255" value="${org.title ?? ""}">
<p><button type="submit">Rename</button></p></form>
<p class="meta"><a href="/o/${o}/sso">Sign-in and domains</a> (verified domains, OpenID Connect, SAML)</p></section>`
    : ""
}
<section><h2>Merge rules</h2>
<p>What a change request needs before it is merged, in every space of the organization.</p>
${currentRules(rules, names)}
${
  members
    ? html`<form method="post" action="/o/${o}/settings">${csrfField(viewer)}<input type="hidden" name="intent" value="merge-rules">
<fieldset><legend>Rules</legend>
${PLAIN_RULES.map(({ rule, label }) => html`<p><input type="checkbox" id="rule-${rule}" name="rule-${rule}" value="on"${hasRule(rules, rule) ? trusted(" checked") : ""}> <label for="rule-${rule}" class="inline">${label}</label></p>`)}
</fieldset>
<fieldset><legend>Rules naming users (their user ids, separated by commas; empty: the rule is off)</legend>
${USER_RULES.map(({ rule, label }) => html`<label for="users-${rule}">${label}</label><input type="text" id="users-${rule}" name="users-${rule}" maxlength="7000" autocomplete="off" value="${(usersOf(rules, rule) ?? []).join(", ")}">`)}
</fieldset>
<p><button type="submit">Save the merge rules</button></p></form>
<h3>Members and their user ids</h3>
<table><thead><tr><th>Name</th><th>Email</th><th>User id</th></tr></thead><tbody>${members.map((m) => html`<tr><td>${m.user.displayName ?? m.user.id}</td><td>${m.user.email ?? ""}</td><td><code>${m.user.id}</code></td></tr>`)}</tbody></table>`
    : html`<p class="meta">Only the organization's administrators change them.</p>`
}
</section>`,
  );
}
