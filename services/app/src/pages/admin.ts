// Setup and administration pages: one's account (password, API tokens, sessions), a space's settings, a
// site's settings, an organization's sign-in settings (verified domains, OIDC, SAML), joining by an invite link.
import type * as identity from "@docshelf/contracts/identity";
import type * as sites from "@docshelf/contracts/sites";
import { html, trusted, type Html } from "../html";
import { csrfField, layout, type Viewer } from "./layout";
import type { Named } from "./org";
import { exactTime, timeOf } from "./time";
import { THEMES, type ThemeChoice } from "../theme";
import type { SiteSectionView } from "../site-sections";

const selected = (yes: boolean): Html => trusted(yes ? " selected" : "");
const checked = (yes: boolean): Html => trusted(yes ? " checked" : "");

/** A form posting `intent` to `action`, with the CSRF token. */
function form(viewer: Viewer, action: string, intent: string, body: Html, extra?: Html): Html {
  return html`<form method="post" action="${action}"${extra ?? ""}>${csrfField(viewer)}<input type="hidden" name="intent" value="${intent}">${body}</form>`;
}

/** A second step for a destructive form: a required box to tick (a post without `confirm=yes` is refused too). */
function confirmBox(id: string, label: string): Html {
  return html`<p><input type="checkbox" id="${id}" name="confirm" value="yes" required> <label for="${id}" class="inline">${label}</label></p>`;
}

export interface AccountView {
  /** The account's email (the password form's username, for password managers). */
  email: string;
  tokens: identity.TokenListing[];
  sessions: identity.SessionListing[];
  /** A token just created: shown on this answer only. */
  created?: { id: string; token: string; label?: string };
  /** Whether notifications are also emailed (the account's setting; undefined: not shown). */
  notifyByEmail?: boolean;
  /** Which kinds are emailed while notifyByEmail is on. */
  emailKinds?: Record<identity.NotificationKind, boolean>;
  /** This browser's colours: the system's, light or dark (the theme cookie). */
  theme?: ThemeChoice;
  notice?: string;
  error?: string;
}

/** `/app/account`: the password, API tokens (created, shown once, revoked) and sign-in sessions (revoked). */
export function accountPage(viewer: Viewer, view: AccountView, now = Date.now()): string {
  const action = "/app/account";
  return layout(
    "Your account",
    viewer,
    html`<h1>Your account</h1>
${view.error ? html`<p class="error" role="alert" id="error">${view.error}</p>` : ""}
${view.notice ? html`<p class="notice" role="status" id="notice">${view.notice}</p>` : ""}
${
  view.created
    ? html`<section class="notice" id="new-token"><h2>Your new API token</h2><p>Copy it now: it is shown only once.</p>
<p><label for="token-value">Token${view.created.label ? ` ${view.created.label}` : ""}</label><input type="text" id="token-value" readonly value="${view.created.token}"></p></section>`
    : ""
}
<section><h2>Password</h2>
${form(
  viewer,
  action,
  "password",
  html`<input type="email" name="username" autocomplete="username" value="${view.email}" readonly hidden>
<label for="current-password">Current password (leave empty if you have none yet)</label><input type="password" id="current-password" name="currentPassword" autocomplete="current-password" maxlength="1024">
<label for="new-password">New password (at least 12 characters)</label><input type="password" id="new-password" name="password" autocomplete="new-password" required maxlength="1024">
<label for="confirm-password">New password again</label><input type="password" id="confirm-password" name="confirm" autocomplete="new-password" required maxlength="1024">
<p><button type="submit">Change the password</button></p>`,
)}</section>
<section><h2>API tokens</h2><p class="meta">A token acts as you through the API (<code>Authorization: Bearer …</code>).</p>
${
  view.tokens.length
    ? html`<table><thead><tr><th>Label</th><th>Created</th><th></th></tr></thead><tbody>${view.tokens.map(
        (t) => html`<tr><td>${t.label ?? "(no label)"}</td><td>${timeOf(t.createdAt, now)}</td><td>${form(
          viewer,
          action,
          "revoke-token",
          html`<input type="hidden" name="token" value="${t.id}"><button type="submit" class="small">Revoke<span class="visually-hidden"> the token ${t.label ?? t.id}</span></button>`,
          trusted(' class="inline"'),
        )}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No API token.</p>`
}
${form(viewer, action, "create-token", html`<label for="token-label">New token's label</label><input type="text" id="token-label" name="label" maxlength="100" placeholder="CI, my laptop…"><p><button type="submit">Create a token</button></p>`)}
</section>
${
  view.notifyByEmail === undefined
    ? ""
    : html`<section id="notifications"><h2>Notifications</h2><p class="meta">Mentions, replies in your threads, review requests and merges of your change requests show under the bell${view.notifyByEmail ? " and are emailed to you" : "; they are not emailed to you"}.</p>
${form(
  viewer,
  action,
  "notifications",
  html`<input type="hidden" name="email" value="${view.notifyByEmail ? "off" : "on"}"><p><button type="submit" id="notify-email">${view.notifyByEmail ? "Stop emailing me notifications" : "Email me notifications"}</button></p>`,
)}${view.notifyByEmail && view.emailKinds ? emailKindsForm(viewer, view.emailKinds) : ""}</section>`
}
${view.theme ? appearance(viewer, view.theme) : ""}
<section><h2>Sessions</h2><p class="meta">Where you signed in with your password, an emailed link or single sign-on. Revoking one signs that browser out.</p>
${
  view.sessions.length
    ? html`<table><thead><tr><th>How</th><th>Started</th><th>From</th><th></th></tr></thead><tbody>${view.sessions.map(
        (s) => html`<tr><td>${s.method}</td><td>${timeOf(s.createdAt, now)}</td><td>${s.address ?? ""}</td><td>${form(
          viewer,
          action,
          "revoke-session",
          html`<input type="hidden" name="session" value="${s.id}"><button type="submit" class="small">Revoke<span class="visually-hidden"> the session started ${exactTime(s.createdAt)}</span></button>`,
          trusted(' class="inline"'),
        )}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No session (you signed in with an API token).</p>`
}</section>`,
  );
}

const KIND_LABELS: Record<identity.NotificationKind, string> = {
  mention: "When someone mentions me",
  reply: "Replies in threads I am in",
  "review-request": "Review requests",
  merge: "Merges of my change requests",
  watch: "Change requests I watch (their comments, replies, review requests and merge)",
};

/** The kinds of notification emailed (the bell shows them all). */
function emailKindsForm(viewer: Viewer, kinds: Record<identity.NotificationKind, boolean>): Html {
  return form(
    viewer,
    "/app/account",
    "email-kinds",
    html`<fieldset id="email-kinds"><legend>Email me about</legend>${(Object.keys(KIND_LABELS) as identity.NotificationKind[]).map(
      (k) => html`<p><input type="checkbox" id="kind-${k}" name="kind-${k}" value="on"${checked(kinds[k] !== false)}> <label for="kind-${k}" class="inline">${KIND_LABELS[k]}</label></p>`,
    )}</fieldset><p><button type="submit" id="save-email-kinds">Save the email choices</button></p>`,
  );
}

const THEME_LABELS: Record<ThemeChoice, string> = { system: "Follow the system’s setting", light: "Light", dark: "Dark" };

/** The account page's colour choice: remembered in this browser (a cookie), applied by the server to every page. */
function appearance(viewer: Viewer, theme: ThemeChoice): Html {
  return html`<section id="appearance"><h2>Appearance</h2><p class="meta">The app’s colours in this browser (each browser remembers its own choice).</p>
${form(
  viewer,
  "/app/account",
  "theme",
  html`<fieldset class="theme-choice"><legend>Colours</legend>${THEMES.map(
    (t) => html`<input type="radio" id="theme-${t}" name="theme" value="${t}"${checked(t === theme)}> <label for="theme-${t}">${THEME_LABELS[t]}</label> `,
  )}</fieldset><p><button type="submit" id="save-theme">Save the colours</button></p>`,
)}</section>`;
}

export interface SpaceSettingsView {
  space: Named & { organization: string; parent?: string };
  collections: Named[];
  error?: string;
}

/** `/s/{space}/~/settings`: rename, move into a collection (or out of one), delete. */
export function spaceSettingsPage(viewer: Viewer, view: SpaceSettingsView): string {
  const { space } = view;
  const action = `/s/${encodeURIComponent(space.id)}/~/settings`;
  return layout(
    `${space.title ?? "Space"} · settings`,
    viewer,
    html`<p class="meta"><a href="/o/${encodeURIComponent(space.organization)}">Organization</a> › <a href="/s/${encodeURIComponent(space.id)}">${space.title ?? space.id}</a> › settings</p>
<h1>Space settings</h1>
${view.error ? html`<p class="error" role="alert" id="error">${view.error}</p>` : ""}
<section><h2>Name</h2>${form(
      viewer,
      action,
      "rename",
      html`<label for="space-title">Title</label><input type="text" id="space-title" name="title" required maxlength="50" value="${space.title ?? ""}">
<label for="space-emoji">Emoji (optional)</label><input type="text" id="space-emoji" name="emoji" maxlength="50" value="${space.emoji ?? ""}">
<p><button type="submit">Save</button></p>`,
    )}</section>
<section><h2>Collection</h2>${form(
      viewer,
      action,
      "move",
      html`<label for="space-parent">In the collection</label><select id="space-parent" name="parent"><option value=""${selected(!space.parent)}>(none: the organization's top level)</option>${view.collections.map(
        (c) => html`<option value="${c.id}"${selected(space.parent === c.id)}>${c.title ?? c.id}</option>`,
      )}</select>
<p><button type="submit">Move</button></p>`,
    )}</section>
<section><h2>Delete the space</h2><p>It can be restored through the API for 7 days.</p>${form(
      viewer,
      action,
      "delete",
      html`${confirmBox("space-delete-confirm", `Yes, delete ${space.title ?? space.id}`)}<p><button type="submit" class="danger">Delete the space</button></p>`,
    )}</section>`,
  );
}

export interface SiteSettingsView {
  orgId: string;
  site: sites.SiteResource & { hostname?: string };
  canAdmin: boolean;
  customization: { logo: string; favicon: string; primaryColor: string; theme: "light" | "dark"; toggle: boolean; social: string };
  siteSpaces: sites.SiteSpaceResource[];
  /** The organization's spaces not yet in the site (to add). */
  spaces: Named[];
  /** The organization's spaces (a new section's first space); empty for a reader. */
  allSpaces?: Named[];
  /** The site's sections (GitBook's site sections), each with its site spaces. */
  sections?: SiteSectionView[];
  shareLinks: sites.ShareLinkResource[];
  redirects: sites.RedirectResource[];
  /** A share link just created: its URL exists only in this answer. */
  createdShareLink?: { name?: string; url: string };
  error?: string;
}

const VISIBILITIES: Array<[sites.SiteVisibility, string]> = [
  ["public", "Public: anyone, listed on the home page"],
  ["unlisted", "Unlisted: anyone with the address"],
  ["share-link", "Share links only"],
  ["visitor-auth", "Visitors signed in by your own service (visitor tokens)"],
];

/**
 * The site's sections (GitBook's: each publishes its spaces under its own path, shown as the site's tabs):
 * listed in their order (the site's tabs) with their path and spaces; for the create role a form per section
 * (move up or down, title, path; delete with its confirm box) and one adding a section with a first space.
 */
function sectionsSection(viewer: Viewer, action: string, view: SiteSettingsView, sections: SiteSectionView[]): Html | string {
  const admin = view.canAdmin;
  if (!admin && !sections.length) return "";
  return html`<section id="sections"><h2>Sections</h2>
<p class="meta">Sections split a site into parts, each with its own path and spaces, shown as tabs. A site without sections publishes its spaces side by side.</p>
${
  sections.length
    ? html`<ol class="sections">${sections.map(
        (x, i) => html`<li id="section-${x.id}"><strong>${x.title}</strong> <span class="meta">/${x.path}${x.default ? " · the default" : ""} · ${x.siteSpaces.length} ${x.siteSpaces.length === 1 ? "space" : "spaces"}${x.siteSpaces.length ? html`: ${x.siteSpaces.map((s) => s.title ?? s.space.title ?? s.space.id).join(", ")}` : ""}</span>
${
  admin
    ? html`${
        sections.length > 1
          ? form(
              viewer,
              action,
              "move-section",
              html`<input type="hidden" name="section" value="${x.id}">${
                i > 0 ? html`<button type="submit" name="direction" value="up" class="small secondary">Move up<span class="visually-hidden"> the section ${x.title}</span></button> ` : ""
              }${i < sections.length - 1 ? html`<button type="submit" name="direction" value="down" class="small secondary">Move down<span class="visually-hidden"> the section ${x.title}</span></button>` : ""}`,
              trusted(' class="inline move-section"'),
            )
          : ""
      }${form(
        viewer,
        action,
        "update-section",
        html`<input type="hidden" name="section" value="${x.id}"><label for="section-title-${x.id}">Title</label><input type="text" id="section-title-${x.id}" name="title" required minlength="2" maxlength="128" value="${x.title}">
<label for="section-path-${x.id}">Path</label><input type="text" id="section-path-${x.id}" name="path" required maxlength="100" value="${x.path}">
<p><button type="submit" class="small">Save<span class="visually-hidden"> the section ${x.title}</span></button></p>`,
      )}${form(
        viewer,
        action,
        "remove-section",
        html`<input type="hidden" name="section" value="${x.id}">${confirmBox(`section-confirm-${x.id}`, `Yes, delete the section ${x.title} (its spaces leave the site)`)}<p><button type="submit" class="danger">Delete<span class="visually-hidden"> the section ${x.title}</span></button></p>`,
      )}`
    : ""
}</li>`,
      )}</ol>`
    : html`<p class="meta">No section.</p>`
}
${
  admin && (view.allSpaces ?? []).length
    ? form(
        viewer,
        action,
        "add-section",
        html`<label for="section-new-title">New section's title</label><input type="text" id="section-new-title" name="title" required minlength="2" maxlength="128">
<label for="section-new-space">Its first space</label><select id="section-new-space" name="space">${(view.allSpaces ?? []).map((s) => html`<option value="${s.id}">${s.title ?? s.id}</option>`)}</select>
<p><button type="submit">Add the section</button></p>`,
      )
    : ""
}</section>`;
}

/** Where a redirect goes, in words: its address, or the page or space of the site it names. */
function destinationText(d: sites.RedirectResource["destination"]): string {
  if (typeof d.url === "string") return d.url;
  if (typeof d.path === "string") return d.path;
  const id = (name: string) => (typeof d[name] === "string" ? ` ${d[name] as string}` : "");
  if (d.kind === "site-page") return `the page${id("pageId")}`;
  if (d.kind === "site-space") return `the space${id("siteSpaceId")}`;
  if (d.kind === "site-section") return `the section${id("siteSectionId")}`;
  return d.kind;
}

/** `/o/{org}/sites/{site}`: publishing, settings, look, spaces, share links, redirects, deletion. */
export function siteSettingsPage(viewer: Viewer, view: SiteSettingsView): string {
  const { site, customization: look } = view;
  const o = encodeURIComponent(view.orgId);
  const action = `/o/${o}/sites/${encodeURIComponent(site.id)}`;
  const published = site.published && site.urls.published;
  const admin = view.canAdmin;
  const sections = view.sections ?? [];
  return layout(
    `${site.title} · site`,
    viewer,
    html`<p class="meta"><a href="/o/${o}">Organization</a> › site</p>
<h1>${site.title}</h1>
${view.error ? html`<p class="error" role="alert" id="error">${view.error}</p>` : ""}
${
  view.createdShareLink
    ? html`<section class="notice" id="new-share-link"><h2>Share link created</h2><p>Copy it now: its address is shown only once.</p>
<p><label for="share-link-url">Address${view.createdShareLink.name ? ` of ${view.createdShareLink.name}` : ""}</label><input type="text" id="share-link-url" readonly value="${view.createdShareLink.url}"></p></section>`
    : ""
}
<dl>
<dt>Visibility</dt><dd>${site.visibility}</dd>
${site.basename ? html`<dt>Basename</dt><dd>${site.basename}</dd>` : ""}
<dt>Published</dt><dd id="published">${published ? html`<a href="${site.urls.published}">${site.urls.published}</a>` : "not published"}</dd>
</dl>
${
  admin
    ? html`<form method="post" action="${action}">${csrfField(viewer)}<button type="submit" name="intent" value="${site.published ? "unpublish" : "publish"}">${site.published ? "Unpublish" : "Publish"}</button></form>`
    : ""
}
<section id="site-spaces"><h2>Spaces</h2>
${
  view.siteSpaces.length
    ? html`<ul>${view.siteSpaces.map((s) => {
        const name = s.title ?? s.space.title ?? s.space.id;
        const section = sections.find((x) => x.id === s.section);
        return html`<li><a href="/s/${encodeURIComponent(s.space.id)}">${name}</a>${s.path ? html` <span class="meta">/${s.path}</span>` : ""}${section ? html` <span class="meta">in ${section.title}</span>` : ""} ${
          admin
            ? html`${form(
                viewer,
                action,
                "remove-space",
                html`<input type="hidden" name="siteSpace" value="${s.id}"><button type="submit" class="small">Remove<span class="visually-hidden"> ${name} from the site</span></button>`,
                trusted(' class="inline"'),
              )}${form(
                viewer,
                action,
                "site-space-path",
                html`<input type="hidden" name="siteSpace" value="${s.id}"><label for="site-space-path-${s.id}" class="inline">Path of ${name}</label> <input type="text" id="site-space-path-${s.id}" name="path" required maxlength="100" value="${s.path ?? ""}" class="path"> <button type="submit" class="small">Save<span class="visually-hidden"> the path of ${name}</span></button>`,
                trusted(' class="site-space-path"'),
              )}`
            : ""
        }</li>`;
      })}</ul>`
    : html`<p class="meta">No space in this site yet: add one to publish it.</p>`
}
${
  admin && view.spaces.length
    ? form(
        viewer,
        action,
        "add-space",
        html`<label for="site-add-space">Publish a space in this site</label><select id="site-add-space" name="space">${view.spaces.map((s) => html`<option value="${s.id}">${s.title ?? s.id}</option>`)}</select>
${sections.length ? html`<label for="site-add-space-section">In the section</label><select id="site-add-space-section" name="section">${sections.map((x) => html`<option value="${x.id}"${selected(x.default === true)}>${x.title}</option>`)}</select>` : ""}
<p><button type="submit">Add the space</button></p>`,
      )
    : ""
}</section>
${sectionsSection(viewer, action, view, sections)}
${
  admin
    ? html`<section><h2>Settings</h2>${form(
        viewer,
        action,
        "settings",
        html`<label for="site-title">Title</label><input type="text" id="site-title" name="title" required minlength="2" maxlength="128" value="${site.title}">
<label for="site-basename">Basename (the address <code>/sites/{basename}</code>: lower-case letters, digits and hyphens)</label><input type="text" id="site-basename" name="basename" maxlength="100" value="${site.basename ?? ""}">
<label for="site-visibility">Visibility</label><select id="site-visibility" name="visibility">${VISIBILITIES.map(([v, label]) => html`<option value="${v}"${selected(site.visibility === v)}>${label}</option>`)}</select>
<label for="site-hostname">Own hostname (optional, e.g. docs.example.com; point its DNS at this server)</label><input type="text" id="site-hostname" name="hostname" maxlength="253" value="${site.hostname ?? ""}">
<p><button type="submit">Save the settings</button></p>`,
      )}</section>
<section><h2>Look</h2>${form(
        viewer,
        action,
        "customization",
        html`<label for="site-logo">Logo (an https:// image address; empty for none)</label><input type="text" id="site-logo" name="logo" maxlength="2048" value="${look.logo}">
<label for="site-favicon">Favicon (an https:// image address; empty for none)</label><input type="text" id="site-favicon" name="favicon" maxlength="2048" value="${look.favicon}">
<label for="site-color">Primary colour (#rgb or #rrggbb)</label><input type="text" id="site-color" name="primaryColor" maxlength="7" value="${look.primaryColor}">
<label for="site-theme">Theme</label><select id="site-theme" name="theme"><option value="light"${selected(look.theme === "light")}>Light</option><option value="dark"${selected(look.theme === "dark")}>Dark</option></select>
<p><input type="checkbox" id="site-toggle" name="toggle" value="on"${checked(look.toggle)}> <label for="site-toggle" class="inline">Readers can switch between light and dark</label></p>
<label for="site-social">Social accounts (at most 10, one a line: platform, handle without @, then <code>header</code> and/or <code>footer</code>; e.g. <code>github acme header footer</code>, <code>mastodon acme@fosstodon.org</code>). Platforms: twitter, instagram, facebook, linkedin, github, discord, slack, youtube, tiktok, reddit, bluesky, mastodon, threads, medium.</label><textarea id="site-social" name="social" rows="4" maxlength="2000">${look.social}</textarea>
<p><button type="submit">Save the look</button></p>`,
      )}</section>
<section><h2>Share links</h2>
${
  view.shareLinks.length
    ? html`<ul>${view.shareLinks.map(
        (l) =>
          html`<li>${l.name || "(no name)"}${l.active ? "" : " (inactive)"} ${form(
            viewer,
            action,
            "remove-share-link",
            html`<input type="hidden" name="shareLink" value="${l.id}"><button type="submit" class="small">Delete<span class="visually-hidden"> the share link ${l.name ?? l.id}</span></button>`,
            trusted(' class="inline"'),
          )}</li>`,
      )}</ul>`
    : html`<p class="meta">No share link.</p>`
}
${form(viewer, action, "create-share-link", html`<label for="share-link-name">New share link's name</label><input type="text" id="share-link-name" name="name" maxlength="50"><p><button type="submit">Create a share link</button></p>`)}
<p class="meta">A share link opens the site when its visibility is "Share links only".</p></section>
<section><h2>Redirects</h2>
${
  view.redirects.length
    ? html`<table><thead><tr><th>From</th><th>To</th><th></th></tr></thead><tbody>${view.redirects.map(
        (r) =>
          html`<tr><td>${r.source}</td><td>${destinationText(r.destination)}</td><td>${form(
            viewer,
            action,
            "delete-redirect",
            html`<input type="hidden" name="redirect" value="${r.id}"><button type="submit" class="small">Delete<span class="visually-hidden"> the redirect from ${r.source}</span></button>`,
            trusted(' class="inline"'),
          )}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No redirect.</p>`
}
${form(
  viewer,
  action,
  "create-redirect",
  html`<label for="redirect-source">From (a path of the site, such as /old/page)</label><input type="text" id="redirect-source" name="source" required maxlength="512">
<label for="redirect-destination">To (the path of a page such as /new/page, or an https:// address)</label><input type="text" id="redirect-destination" name="destination" required maxlength="2048">
${
  view.siteSpaces.length > 1
    ? html`<label for="redirect-space">The page's space (for a path)</label><select id="redirect-space" name="space">${view.siteSpaces.map((s) => html`<option value="${s.space.id}">${s.title ?? s.space.title ?? s.space.id}</option>`)}</select>`
    : ""
}
<p><button type="submit">Add the redirect</button></p>`,
)}</section>
<section><h2>Delete the site</h2><p>Its spaces stay; readers lose the site's address.</p>${form(
        viewer,
        action,
        "delete",
        html`${confirmBox("site-delete-confirm", `Yes, delete ${site.title}`)}<p><button type="submit" class="danger">Delete the site</button></p>`,
      )}</section>`
    : ""
}`,
  );
}

export interface SsoSettingsView {
  org: Named;
  domains: identity.SsoDomainResource[];
  oidc: identity.SsoProviderResource[];
  saml: identity.SsoProviderResource[];
  /** The address identity's SAML and OIDC endpoints live under (this instance's public URL). */
  base: string;
  error?: string;
}

/** `/o/{org}/sso`: verified domains (with the TXT record to add), OpenID Connect and SAML providers. */
export function ssoSettingsPage(viewer: Viewer, view: SsoSettingsView): string {
  const o = encodeURIComponent(view.org.id);
  const action = `/o/${o}/sso`;
  const remove = (intent: string, name: string, value: string, what: string) =>
    form(viewer, action, intent, html`<input type="hidden" name="${name}" value="${value}"><button type="submit" class="small">Delete<span class="visually-hidden"> ${what}</span></button>`, trusted(' class="inline"'));
  return layout(
    `${view.org.title ?? "Organization"} · sign-in`,
    viewer,
    html`<p class="meta"><a href="/o/${o}">Organization</a> › sign-in</p>
<h1>Sign-in and domains</h1>
${view.error ? html`<p class="error" role="alert" id="error">${view.error}</p>` : ""}
<section><h2>Verified domains</h2><p class="meta">A verified domain lets single sign-on make members of people with an email at it. Add the TXT record shown to the domain's DNS, then Verify.</p>
${
  view.domains.length
    ? html`<table><thead><tr><th>Domain</th><th>Status</th><th>TXT record to add</th><th></th></tr></thead><tbody>${view.domains.map(
        (d) =>
          html`<tr><td>${d.domain}</td><td>${d.status ?? (d.verified ? "verified" : "pending")}</td><td><code>${d.verification.name}</code> TXT <code class="txt">${d.verification.value}</code></td><td>${
            d.status === "verified"
              ? ""
              : form(viewer, action, "verify-domain", html`<input type="hidden" name="domain" value="${d.domain}"><button type="submit" class="small">Verify<span class="visually-hidden"> ${d.domain}</span></button>`, trusted(' class="inline"'))
          } ${remove("delete-domain", "domain", d.domain, d.domain)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No domain.</p>`
}
${form(viewer, action, "add-domain", html`<label for="domain-name">Domain</label><input type="text" id="domain-name" name="domain" required maxlength="253" placeholder="example.com"><p><button type="submit">Add the domain</button></p>`)}
</section>
<section><h2>OpenID Connect</h2>
${
  view.oidc.length
    ? html`<ul>${view.oidc.map((p) => html`<li>${p.label ?? p.id} <span class="meta">redirect URI <code>${view.base}/sso/oidc/${p.id}/callback</code></span> ${remove("delete-oidc", "provider", p.id, `the provider ${p.label ?? p.id}`)}</li>`)}</ul>`
    : html`<p class="meta">No OpenID Connect provider.</p>`
}
${form(
  viewer,
  action,
  "add-oidc",
  html`<label for="oidc-label">Name</label><input type="text" id="oidc-label" name="label" required maxlength="30">
<label for="oidc-issuer">Issuer (https://…)</label><input type="text" id="oidc-issuer" name="issuer" required maxlength="2048">
<label for="oidc-client-id">Client id</label><input type="text" id="oidc-client-id" name="clientId" required maxlength="256">
<label for="oidc-client-secret">Client secret</label><input type="password" id="oidc-client-secret" name="clientSecret" required maxlength="512" autocomplete="off">
<p><button type="submit">Add the provider</button></p>`,
)}</section>
<section><h2>SAML</h2>
${
  view.saml.length
    ? html`<ul>${view.saml.map((p) => html`<li id="saml-${p.id}">${p.label ?? p.id} <span class="meta">metadata <a href="${view.base}/sso/saml/${p.id}/metadata">${view.base}/sso/saml/${p.id}/metadata</a></span> ${remove("delete-saml", "provider", p.id, `the provider ${p.label ?? p.id}`)}
${samlEditForm(viewer, action, p)}</li>`)}</ul>`
    : html`<p class="meta">No SAML provider.</p>`
}
${form(
  viewer,
  action,
  "add-saml",
  html`<label for="saml-label">Name</label><input type="text" id="saml-label" name="label" required maxlength="30">
<label for="saml-entity">Identity provider's entity ID</label><input type="text" id="saml-entity" name="entityID" required maxlength="1024">
<label for="saml-url">Sign-in URL (https://…)</label><input type="text" id="saml-url" name="ssoURL" required maxlength="2048">
<label for="saml-cert">Signing certificate (PEM)</label><textarea id="saml-cert" name="certificate" required maxlength="10000" class="short"></textarea>
<p><button type="submit">Add the provider</button></p>`,
)}</section>`,
  );
}

const SAML_ROLES = ["read", "comment", "edit", "review", "create", "admin"] as const;

/** A SAML provider's settings, changed in place (a details element: no script); a blank certificate keeps the current one. */
function samlEditForm(viewer: Viewer, action: string, p: identity.SsoProviderResource): Html {
  const id = p.id;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const role = str(p.defaultRole) || "read";
  return html`<details class="edit-saml"><summary>Edit<span class="visually-hidden"> the provider ${p.label ?? p.id}</span></summary>
${form(
  viewer,
  action,
  "edit-saml",
  html`<input type="hidden" name="provider" value="${id}">
<label for="saml-label-${id}">Name</label><input type="text" id="saml-label-${id}" name="label" required maxlength="30" value="${str(p.label)}">
<label for="saml-entity-${id}">Identity provider's entity ID</label><input type="text" id="saml-entity-${id}" name="entityID" required maxlength="1024" value="${str(p.entityID)}">
<label for="saml-url-${id}">Sign-in URL (https://…)</label><input type="text" id="saml-url-${id}" name="ssoURL" required maxlength="2048" value="${str(p.ssoURL)}">
<label for="saml-role-${id}">Role of new members</label><select id="saml-role-${id}" name="defaultRole">${SAML_ROLES.map((r) => html`<option value="${r}"${r === role ? trusted(" selected") : ""}>${r}</option>`)}</select>
<label for="saml-cert-${id}">New signing certificate (PEM; leave empty to keep the current one)</label><textarea id="saml-cert-${id}" name="certificate" maxlength="10000" class="short"></textarea>
<p><button type="submit">Save the provider</button></p>`,
)}</details>`;
}

/** `/app/join/{org}/{invite}`: joining an organization by an invite link, one button. */
export function joinPage(viewer: Viewer, orgId: string, inviteId: string): string {
  const action = `/app/join/${encodeURIComponent(orgId)}/${encodeURIComponent(inviteId)}`;
  return layout(
    "Join an organization",
    viewer,
    html`<h1>Join an organization</h1><p>This invite link makes you a member of an organization.</p>${form(viewer, action, "join", html`<p><button type="submit">Join</button></p>`)}`,
  );
}
