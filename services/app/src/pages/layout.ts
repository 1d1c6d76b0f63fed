// The frame of every page: header with who is signed in and the sign-out form, and the stylesheet.
import { html, trusted, type Html, type Interpolated } from "../html";
import type { Theme } from "../theme";

export { STYLESHEET } from "./style";

export interface Viewer {
  /** The signed-in user's id, or undefined on the sign-in page. */
  userId?: string;
  /** The session's CSRF token, for every form of the page. */
  csrf: string;
  /** The signed-in user's unread notifications (the header's bell); undefined when not known. */
  unread?: number;
  /** The colour scheme this browser chose (the theme cookie); undefined: the system's. */
  theme?: Theme;
  /** The app's small script (Ctrl/Cmd-K, @ suggestions), on signed-in pages; pages work without it. */
  script?: string;
}

/** The header's bell: a link to the notifications page with the unread count. */
function bell(viewer: Viewer): Html | string {
  if (!viewer.userId) return "";
  const unread = viewer.unread ?? 0;
  const label = unread ? `Notifications, ${unread} unread` : "Notifications";
  return html`<a href="/app/notifications" class="bell" id="bell" aria-label="${label}" title="${label}"><span aria-hidden="true">🔔</span>${unread ? html` <span class="count" id="unread">${unread > 99 ? "99+" : String(unread)}</span>` : ""}</a>`;
}

export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrf}">`;
}

/** A page; `head` adds to its head (the editor's stylesheet and script, on the editor's page only). */
export function layout(title: string, viewer: Viewer, main: Interpolated, aside?: Interpolated, head?: Interpolated): string {
  const signOut = viewer.userId
    ? html`<span class="account">${bell(viewer)}<a href="/app/jump" id="jump-link" aria-keyshortcuts="Control+K Meta+K">Jump to…</a><a href="/app/account">Account</a> <form method="post" action="/app/sign-out" class="sign-out">${csrfField(viewer)}<button type="submit">Sign out</button></form></span>`
    : "";
  const theme = viewer.theme ? trusted(` data-theme="${viewer.theme}"`) : "";
  return `<!doctype html>\n${html`<html lang="en"${theme}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${viewer.theme ?? "light dark"}">
<meta name="robots" content="noindex">
<title>${title} · docshelf</title>
<link rel="stylesheet" href="/app/style.css">${viewer.userId && viewer.script ? html`
<script src="${viewer.script}" defer></script>` : ""}${head}
</head>
<body>
<header class="top"><a href="/app" class="brand">docshelf</a>${signOut}</header>
<div class="frame">${aside ? html`<nav class="sidebar" aria-label="Pages">${aside}</nav>` : ""}
<main>
${main}
</main>
</div>
</body>
</html>
`}`;
}

export function messagePage(title: string, message: string, viewer: Viewer): string {
  return layout(title, viewer, html`<h1>${title}</h1><p>${message}</p><p><a href="/app">Back to your organizations</a></p>`);
}

