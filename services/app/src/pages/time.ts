// Times as people read them across the app: "just now", "3 minutes ago", "yesterday", then a date; the exact
// UTC time in the element's title and its datetime (the history, change requests, comments, account pages).
import { html, type Html } from "../html";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}

/**
 * "just now" (under a minute, or a time after `now`: a clock's skew), "5 minutes ago", "3 hours ago",
 * "yesterday" (24 to 48 hours ago), "4 days ago" (under a week), then the UTC date ("10 Mar 2026").
 * Not a time: the text as given.
 */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < MINUTE) return "just now";
  if (seconds < HOUR) return plural(Math.floor(seconds / MINUTE), "minute");
  if (seconds < DAY) return plural(Math.floor(seconds / HOUR), "hour");
  if (seconds < 2 * DAY) return "yesterday";
  if (seconds < 7 * DAY) return plural(Math.floor(seconds / DAY), "day");
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The exact UTC time, "2026-03-10 08:59:59 UTC" (not a time: the text as given). */
export function exactTime(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : new Date(iso).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** A time as people read it in a `<time>`, the exact UTC time in its title (and datetime). */
export function timeOf(iso: unknown, now: number): Html {
  if (typeof iso !== "string" || !iso) return html`<span class="meta">unknown time</span>`;
  return html`<time datetime="${iso}" title="${exactTime(iso)}">${relativeTime(iso, now)}</time>`;
}
