// The frame of every page: header with who is signed in and the sign-out form, and the stylesheet.
import { html, type Html, type Interpolated } from "../html";

export interface Viewer {
  /** The signed-in user's id, or undefined on the sign-in page. */
  userId?: string;
  /** The session's CSRF token, for every form of the page. */
  csrf: string;
  /** The signed-in user's unread notifications (the header's bell); undefined when not known. */
  unread?: number;
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
    ? html`<span class="account">${bell(viewer)}<a href="/app/account">Account</a> <form method="post" action="/app/sign-out" class="sign-out">${csrfField(viewer)}<button type="submit">Sign out</button></form></span>`
    : "";
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · docshelf</title>
<link rel="stylesheet" href="/app/style.css">${head}
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

export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#fff}
a{color:#1f5fbf}
.top{display:flex;justify-content:space-between;align-items:center;padding:.5rem 1rem;border-bottom:1px solid #dde1e8;background:#f7f8fa}
.brand{font-weight:700;text-decoration:none;color:#1d2330}
.frame{display:flex;max-width:1200px;margin:0 auto}
.sidebar{width:260px;flex:none;padding:1rem;border-right:1px solid #eef0f3}
.sidebar ul{list-style:none;padding-left:.9rem;margin:0}
.sidebar>ul{padding-left:0}
.sidebar a[aria-current]{font-weight:700}
main{flex:1;min-width:0;padding:1rem 2rem}
form.inline,form.sign-out{display:inline}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
label.inline{display:inline;font-weight:400}
fieldset{border:1px solid #dde1e8;margin:1rem 0;max-width:50rem}
button.danger{background:#a3161a;border-color:#a3161a}
input[type=text],input[type=password],textarea{width:100%;max-width:48rem;padding:.4rem;font:inherit;border:1px solid #b8bfcc;border-radius:4px}
textarea{min-height:20rem;font-family:ui-monospace,monospace}
textarea.short{min-height:6rem}
input[type=text][readonly]{background:#f4f5f7}
.txt{word-break:break-all}
td,th{overflow-wrap:anywhere}
button{font:inherit;padding:.35rem .9rem;border:1px solid #1f5fbf;border-radius:4px;background:#1f5fbf;color:#fff;cursor:pointer}
.sign-out button,button.small{background:none;color:#1f5fbf}
button.secondary{background:#fff;color:#1f5fbf}
button.merge{background:#1a7f37;border-color:#1a7f37;font-weight:600;padding:.5rem 1.2rem}
section.merge{border:1px solid #1a7f37;border-radius:6px;padding:0 1rem;margin:1.5rem 0}
.status{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid #5b6475;color:#3c4454}
.status-draft{border-color:#5b6475;background:#f4f5f7}.status-open{border-color:#1a7f37;color:#135c28;background:#e6f4ea}
.status-merged{border-color:#6639ba;color:#4c2889;background:#f3effa}.status-archived{border-color:#8a6d00;color:#6b5500;background:#fff7e6}
button.small{padding:.1rem .5rem;font-size:.85rem}
select{font:inherit;padding:.3rem;max-width:100%}
.arrange li{margin:.3rem 0}
.page-change{border-top:1px solid #dde1e8;margin-top:1rem}
.refused{border:1px solid #a3161a;padding:0 1rem;margin:1rem 0}
.notice{border-left:4px solid #b26a00;padding:.3rem .8rem;background:#fff7e6}
.error{color:#a3161a}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.meta{color:#5b6475;font-size:.9rem}
.preview{border:1px dashed #b8bfcc;padding:0 1rem;margin:1rem 0}
pre{background:#f4f5f7;padding:.8rem;overflow:auto}
.diff ins{display:block;background:#e6f4ea;text-decoration:none}.diff del{display:block;background:#fbe9e9;text-decoration:none}
table{border-collapse:collapse}td,th{border:1px solid #dde1e8;padding:.3rem .6rem}
table{display:block;max-width:100%;overflow-x:auto}
.account a{margin-right:.5rem}
.bell{text-decoration:none}.bell .count{display:inline-block;min-width:1.3rem;padding:0 .35rem;border-radius:999px;background:#a3161a;color:#fff;font-size:.8rem;font-weight:700;text-align:center}
.notifications{list-style:none;padding:0}.notification{border-bottom:1px solid #eef0f3;padding:.3rem 0}.notification.unread{border-left:4px solid #1f5fbf;padding-left:.6rem}
.excerpt{margin:.2rem 0 .4rem;color:#3c4454;border-left:3px solid #dde1e8;padding-left:.6rem;overflow-wrap:anywhere}
@media (max-width:700px){.frame{flex-direction:column}.sidebar{width:auto;border-right:0;border-bottom:1px solid #eef0f3}main{padding:1rem}}
`;
