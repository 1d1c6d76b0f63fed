// The signed-in user's notifications (issue 39): newest first, each with who did what where, a link to it and
// when; unread ones marked; "mark read" for one and "mark all read" (forms with the CSRF token, no script).
import type { NotificationKind, NotificationResource, WatchActivity } from "@docshelf/contracts/identity";
import { html, type Html } from "../html";
import { csrfField, layout, type Viewer } from "./layout";
import { timeOf } from "./time";

const VERBS: Record<Exclude<NotificationKind, "watch">, string> = {
  mention: "mentioned you in",
  reply: "replied in",
  "review-request": "asked you to review",
  merge: "merged",
};
/** What happened on a change request the user watches. */
const WATCH_VERBS: Record<WatchActivity, string> = {
  comment: "commented on",
  reply: "replied in",
  "review-request": "asked for a review of",
  merge: "merged",
};

function verbOf(n: NotificationResource): string {
  return n.kind === "watch" ? WATCH_VERBS[n.activity ?? "comment"] ?? "updated" : VERBS[n.kind] ?? "notified you about";
}

/** A local path of the app, or the notifications page itself (a stored link is never followed elsewhere). */
function safeLink(link: string): string {
  return /^\/(s|o|app)\//.test(link) ? link : "/app/notifications";
}

function item(viewer: Viewer, n: NotificationResource, now: number): Html {
  const who = n.actor?.displayName ?? "Someone";
  return html`<li class="notification${n.read ? "" : " unread"}" id="notification-${n.id}" data-kind="${n.kind}">
<p>${n.read ? "" : html`<strong class="status status-open">new</strong> `}${who} ${verbOf(n)} <a href="${safeLink(n.link)}">${n.where}</a> · <span class="meta">${timeOf(n.createdAt, now)}</span></p>
<blockquote class="excerpt">${n.excerpt}</blockquote>
${n.read ? "" : html`<form method="post" action="/app/notifications" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="read"><input type="hidden" name="notification" value="${n.id}"><button type="submit" class="small">Mark read</button></form>`}
</li>`;
}

export function notificationsPage(viewer: Viewer, items: NotificationResource[], unread: number, now = Date.now()): string {
  return layout(
    "Notifications",
    viewer,
    html`<h1>Notifications</h1>
<p class="meta" id="unread-count">${unread === 0 ? "No unread notification." : `${unread} unread.`}</p>
${unread ? html`<form method="post" action="/app/notifications">${csrfField(viewer)}<input type="hidden" name="intent" value="read-all"><button type="submit">Mark all read</button></form>` : ""}
${items.length ? html`<ol class="notifications" reversed>${items.map((n) => item(viewer, n, now))}</ol>` : html`<p>Nothing yet: you are notified when someone mentions you (<code>@[Name](user:id)</code>), replies in your threads, asks you to review or merges your change request, and of what happens on the change requests you watch.</p>`}
<p class="meta">Emails of notifications are turned on or off on <a href="/app/account#notifications">your account</a>.</p>`,
  );
}
