// The app's notifications page and bell as the notification suites read them (notifications, app-watch).

export interface Shown {
  id: string;
  kind: string;
  unread: boolean;
  html: string;
}

/** The notifications the page lists, in order. */
export function listed(html: string): Shown[] {
  const items: Shown[] = [];
  for (const m of html.matchAll(/<li class="notification( unread)?" id="notification-([A-Za-z0-9_-]+)" data-kind="([a-z-]+)">([\s\S]*?)<\/li>/g)) {
    items.push({ unread: Boolean(m[1]), id: m[2], kind: m[3], html: m[4] });
  }
  return items;
}

/** The bell's unread count in a page's header (0 when it shows none). */
export function bellCount(html: string): number {
  const bell = /<a href="\/app\/notifications" class="bell"[^>]*>[\s\S]*?<\/a>/.exec(html);
  if (!bell) throw new Error("no bell in the page");
  const count = /id="unread">(\d+)</.exec(bell[0]);
  return count ? Number(count[1]) : 0;
}
