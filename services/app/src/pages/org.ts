// Organization pages: the home (spaces, collections, sites, members for admins), a site, a collection,
// an OpenAPI spec, and the list of the viewer's organizations.
import { html, trusted } from "../html";
import { csrfField, layout, type Viewer } from "./layout";

export interface Named {
  id: string;
  title?: string;
  emoji?: string;
}
export interface MemberView {
  user: { id: string; displayName?: string; email?: string };
  role: string | null;
}
export interface SiteView extends Named {
  visibility?: string;
  basename?: string;
  published?: boolean;
  urls?: { published?: string };
}

export interface InviteView {
  id: string;
  organization: { id: string; title: string };
  role: string | null;
}

/** The viewer's organizations, and the invitations waiting for them, each with accept and decline buttons. */
export function orgsPage(viewer: Viewer, orgs: Named[], invites: InviteView[] = []): string {
  return layout(
    "Your organizations",
    viewer,
    html`<h1>Your organizations</h1>
${
  invites.length
    ? html`<section id="invitations"><h2>Invitations</h2><ul>${invites.map(
        (i) => html`<li>${i.organization.title} invites you as ${i.role ?? "guest"}. <form method="post" action="/app" class="inline">${csrfField(viewer)}<input type="hidden" name="organization" value="${i.organization.id}"><input type="hidden" name="invite" value="${i.id}"><button type="submit" name="intent" value="accept-invite">Accept<span class="visually-hidden"> the invitation of ${i.organization.title}</span></button> <button type="submit" name="intent" value="decline-invite" class="small">Decline<span class="visually-hidden"> the invitation of ${i.organization.title}</span></button></form></li>`,
      )}</ul></section>`
    : ""
}
${orgs.length ? html`<ul>${orgs.map((o) => html`<li><a href="/o/${encodeURIComponent(o.id)}">${o.title ?? o.id}</a></li>`)}</ul>` : html`<p>You are not a member of any organization yet.</p>`}
<section><h2>Create an organization</h2><form method="post" action="/app">${csrfField(viewer)}<input type="hidden" name="intent" value="create-org">
<label for="org-title">Name</label><input type="text" id="org-title" name="title" required minlength="2" maxlength="255">
<p><button type="submit">Create the organization</button></p></form><p class="meta">You become its administrator.</p></section>
<p><a href="/app/account">Your account</a>: password, API tokens and sessions.</p>`,
  );
}

export function orgPage(
  viewer: Viewer,
  org: Named,
  lists: {
    spaces: Named[];
    collections: Named[];
    sites: SiteView[];
    members?: MemberView[];
    teams?: Named[];
    /** What the viewer may create: spaces (the create role) and sites and collections (admins). */
    can?: { createSpace: boolean; admin: boolean };
    /** Administrators: the invite links (each with its address) and the pending email invitations. */
    linkInvites?: Array<{ id: string; role: string | null; url: string }>;
    pendingInvites?: Array<{ id: string; email?: string; role: string | null }>;
  },
): string {
  const o = encodeURIComponent(org.id);
  const list = (items: Named[], href: (item: Named) => string, empty: string) =>
    items.length ? html`<ul>${items.map((i) => html`<li><a href="${href(i)}">${i.emoji ? `${i.emoji} ` : ""}${i.title ?? i.id}</a></li>`)}</ul>` : html`<p class="meta">${empty}</p>`;
  return layout(
    org.title ?? "Organization",
    viewer,
    html`<h1>${org.title ?? org.id}</h1>
<p class="meta"><a href="/o/${o}/settings">Settings</a> (name, merge rules, sign-in)</p>
<section><h2>Spaces</h2>${list(lists.spaces, (s) => `/s/${encodeURIComponent(s.id)}`, "No space yet.")}
${
  lists.can?.createSpace
    ? html`<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="create-space">
<label for="space-title">New space</label><input type="text" id="space-title" name="title" required maxlength="50">
${
  lists.collections.length
    ? html`<label for="space-collection">In the collection</label><select id="space-collection" name="collection"><option value="">(none)</option>${lists.collections.map((c) => html`<option value="${c.id}">${c.title ?? c.id}</option>`)}</select>`
    : ""
}
<p><button type="submit">Create the space</button></p></form>`
    : ""
}</section>
<section><h2>Collections</h2>${list(lists.collections, (c) => `/o/${o}/c/${encodeURIComponent(c.id)}`, "No collection yet.")}
${
  lists.can?.admin
    ? html`<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="create-collection">
<label for="collection-title">New collection</label><input type="text" id="collection-title" name="title" required maxlength="50">
<p><button type="submit">Create the collection</button></p></form>`
    : ""
}</section>
<section><h2>Sites</h2>${list(lists.sites, (s) => `/o/${o}/sites/${encodeURIComponent(s.id)}`, "No site yet.")}
${
  lists.can?.admin
    ? html`<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="create-site">
<label for="site-title">New site</label><input type="text" id="site-title" name="title" required minlength="2" maxlength="128">
${
  lists.spaces.length
    ? html`<label for="site-space">Publishing the space</label><select id="site-space" name="space"><option value="">(none yet)</option>${lists.spaces.map((s) => html`<option value="${s.id}">${s.title ?? s.id}</option>`)}</select>`
    : ""
}
<p><button type="submit">Create the site</button></p></form>`
    : ""
}</section>
${
  lists.members
    ? html`<section><h2>Members</h2><table><thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Membership</th></tr></thead><tbody>${lists.members.map(
        (m) => html`<tr><td>${m.user.displayName ?? m.user.id}</td><td>${m.user.email ?? ""}</td><td><form method="post" action="/o/${o}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="role"><input type="hidden" name="user" value="${m.user.id}">
<label for="role-${m.user.id}" class="visually-hidden">Role of ${m.user.displayName ?? m.user.id}</label><select id="role-${m.user.id}" name="role">${ROLE_CHOICES.map((r) => html`<option value="${r}"${(m.role ?? "guest") === r ? trusted(" selected") : ""}>${r}</option>`)}</select> <button type="submit">Change</button></form></td>
<td><form method="post" action="/o/${o}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="remove-member"><input type="hidden" name="user" value="${m.user.id}"><button type="submit" class="small">Remove<span class="visually-hidden"> ${m.user.displayName ?? m.user.id} from the organization</span></button></form></td></tr>`,
      )}</tbody></table>
<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="invite">
<label for="invite-email">Invite by email</label><input type="text" id="invite-email" name="email" required maxlength="254" autocomplete="off">
<label for="invite-role">Role</label><select id="invite-role" name="role">${ROLE_CHOICES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<p><button type="submit">Invite</button></p></form>
<p class="meta">Each address gets an email with a link to join.</p>
${
  lists.pendingInvites?.length
    ? html`<h3>Waiting for an answer</h3><ul id="pending-invites">${lists.pendingInvites.map(
        (i) => html`<li>${i.email ?? i.id} as ${i.role ?? "guest"} <form method="post" action="/o/${o}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="revoke-invite"><input type="hidden" name="invite" value="${i.id}"><button type="submit" class="small">Revoke<span class="visually-hidden"> the invitation of ${i.email ?? i.id}</span></button></form></li>`,
      )}</ul>`
    : ""
}
<h3>Invite links</h3><p class="meta">Anyone with the address joins with the link's role while the link exists.</p>
${
  lists.linkInvites?.length
    ? html`<ul id="invite-links">${lists.linkInvites.map(
        (l) => html`<li><input type="text" readonly aria-label="Invite link for the role ${l.role ?? "guest"}" value="${l.url}"> ${l.role ?? "guest"} <form method="post" action="/o/${o}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="delete-link-invite"><input type="hidden" name="invite" value="${l.id}"><button type="submit" class="small">Delete<span class="visually-hidden"> the invite link for ${l.role ?? "guest"}</span></button></form></li>`,
      )}</ul>`
    : ""
}
<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="create-link-invite">
<label for="link-role">New invite link's role</label><select id="link-role" name="role">${ROLE_CHOICES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<p><button type="submit">Create an invite link</button></p></form></section>`
    : ""
}
${
  lists.teams
    ? html`<section><h2>Teams</h2>${lists.teams.length ? html`<ul>${lists.teams.map((t) => html`<li><a href="/o/${o}/teams/${encodeURIComponent(t.id)}">${t.title ?? t.id}</a></li>`)}</ul>` : html`<p class="meta">No team yet.</p>`}
<form method="post" action="/o/${o}">${csrfField(viewer)}<input type="hidden" name="intent" value="team">
<label for="team-title">New team</label><input type="text" id="team-title" name="title" required maxlength="64">
<p><button type="submit">Create team</button></p></form></section>`
    : ""
}`,
  );
}

/** The roles an administrator can give, weakest first; guest is a member without a role of their own. */
const ROLE_CHOICES = ["read", "comment", "edit", "review", "create", "admin", "guest"];

export function collectionPage(viewer: Viewer, orgId: string, collection: Named & { description?: string }, spaces: Named[], admin = false): string {
  const action = `/o/${encodeURIComponent(orgId)}/c/${encodeURIComponent(collection.id)}`;
  return layout(
    collection.title ?? "Collection",
    viewer,
    html`<p class="meta"><a href="/o/${encodeURIComponent(orgId)}">Organization</a></p>
<h1>${collection.title ?? collection.id}</h1>
${collection.description ? html`<p>${collection.description}</p>` : ""}
<h2>Spaces</h2>
${spaces.length ? html`<ul>${spaces.map((s) => html`<li><a href="/s/${encodeURIComponent(s.id)}">${s.title ?? s.id}</a></li>`)}</ul>` : html`<p class="meta">No space in this collection.</p>`}
${
  admin
    ? html`<p class="meta">Move a space here from its settings page.</p>
<section><h2>Rename the collection</h2><form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="rename">
<label for="collection-name">Title</label><input type="text" id="collection-name" name="title" required maxlength="50" value="${collection.title ?? ""}">
<label for="collection-description">Description</label><input type="text" id="collection-description" name="description" maxlength="100" value="${collection.description ?? ""}">
<p><button type="submit">Save</button></p></form></section>
<section><h2>Delete the collection</h2><p>Its spaces are deleted with it.</p><form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="delete">
<p><input type="checkbox" id="collection-delete-confirm" name="confirm" value="yes" required> <label for="collection-delete-confirm" class="inline">Yes, delete ${collection.title ?? collection.id}</label></p>
<p><button type="submit" class="danger">Delete the collection</button></p></form></section>`
    : ""
}`,
  );
}

export function openapiPage(viewer: Viewer, orgId: string, spec: { slug: string; processingState?: string; urls?: { location?: string } }): string {
  return layout(
    spec.slug,
    viewer,
    html`<p class="meta"><a href="/o/${encodeURIComponent(orgId)}">Organization</a></p>
<h1>OpenAPI spec ${spec.slug}</h1>
<p>Processing: ${spec.processingState ?? "unknown"}</p>`,
  );
}

export interface TeamMemberView {
  user: { id: string; displayName?: string; email?: string };
  role: "owner" | "member";
}

/** A team: its members with their role in it; for administrators, forms to add, change and remove them. */
export function teamPage(
  viewer: Viewer,
  orgId: string,
  team: Named,
  members: TeamMemberView[],
  /** The organization's members who can be added (administrators only; undefined: no forms). */
  candidates: MemberView[] | undefined,
): string {
  const o = encodeURIComponent(orgId);
  const action = `/o/${o}/teams/${encodeURIComponent(team.id)}`;
  const admin = candidates !== undefined;
  const name = (u: { id: string; displayName?: string }) => u.displayName ?? u.id;
  return layout(
    `${team.title ?? "Team"} · team`,
    viewer,
    html`<p class="meta"><a href="/o/${o}">Organization</a> › team</p>
<h1>${team.title ?? team.id}</h1>
<section><h2>Members</h2>
${
  members.length
    ? html`<table><thead><tr><th>Name</th><th>Email</th><th>Role in the team</th>${admin ? html`<th>Membership</th>` : ""}</tr></thead><tbody>${members.map(
        (m) => html`<tr><td>${name(m.user)}</td><td>${m.user.email ?? ""}</td><td>${
          admin
            ? html`<form method="post" action="${action}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="team-role"><input type="hidden" name="user" value="${m.user.id}">
<label for="team-role-${m.user.id}" class="visually-hidden">Role of ${name(m.user)} in the team</label><select id="team-role-${m.user.id}" name="role">${TEAM_ROLES.map((r) => html`<option value="${r}"${m.role === r ? trusted(" selected") : ""}>${r}</option>`)}</select> <button type="submit">Change</button></form>`
            : m.role
        }</td>${
          admin
            ? html`<td><form method="post" action="${action}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="remove-member"><input type="hidden" name="user" value="${m.user.id}"><button type="submit" class="small">Remove<span class="visually-hidden"> ${name(m.user)} from the team</span></button></form></td>`
            : ""
        }</tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No member yet.</p>`
}
${
  admin
    ? (() => {
        const inTeam = new Set(members.map((m) => m.user.id));
        const addable = (candidates ?? []).filter((c) => !inTeam.has(c.user.id));
        return addable.length
          ? html`<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="add-member">
<label for="add-user">Add a member of the organization</label><select id="add-user" name="user">${addable.map((c) => html`<option value="${c.user.id}">${name(c.user)}${c.user.email ? ` (${c.user.email})` : ""}</option>`)}</select>
<label for="add-role">Role in the team</label><select id="add-role" name="role">${TEAM_ROLES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<p><button type="submit">Add to the team</button></p></form>`
          : html`<p class="meta">Every member of the organization is in this team.</p>`;
      })()
    : ""
}
</section>
${
  admin
    ? html`<section><h2>Rename the team</h2><form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="rename">
<label for="team-name">Name</label><input type="text" id="team-name" name="title" required maxlength="64" value="${team.title ?? ""}">
<p><button type="submit">Rename</button></p></form></section>
<section><h2>Delete the team</h2><p>Its members stay in the organization; the team's access to spaces and collections goes with it.</p>
<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="delete">
<p><input type="checkbox" id="team-delete-confirm" name="confirm" value="yes" required> <label for="team-delete-confirm" class="inline">Yes, delete ${team.title ?? team.id}</label></p>
<p><button type="submit" class="danger">Delete the team</button></p></form></section>`
    : ""
}`,
  );
}

const TEAM_ROLES = ["member", "owner"] as const;
