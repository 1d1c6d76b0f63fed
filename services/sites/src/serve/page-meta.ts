// What a page shows around its content from the customization and the revision: image URLs the
// site may load (logo, favicon), the emoji favicon, "last updated", and "Edit on GitHub/GitLab".

/**
 * An image URL from the customization as the pages may load it: an https URL, or a file of this instance
 * (`PUBLIC_URL/v1/files/…`, its signed download URLs); anything else (http elsewhere, data:, javascript:,
 * relative paths) is left out. Returned as normalised by the URL parser.
 */
export function safeImageUrl(value: unknown, publicUrl: string): string | undefined {
  if (typeof value !== "string" || value.length > 2048 || /[\s"'<>\\]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === "https:") return url.href;
  const own = new URL(publicUrl);
  const filesPath = `${own.pathname.replace(/\/+$/, "")}/v1/files/`;
  if (url.origin === own.origin && url.pathname.startsWith(filesPath)) return url.href;
  return undefined;
}

/** A light/dark pair from `{light, dark}`: a missing or refused side takes the other's. */
export function themedImage(value: unknown, publicUrl: string): { light: string; dark: string } | undefined {
  const pair = value as { light?: unknown; dark?: unknown } | undefined;
  const light = safeImageUrl(pair?.light, publicUrl);
  const dark = safeImageUrl(pair?.dark, publicUrl);
  if (!light && !dark) return undefined;
  return { light: (light ?? dark)!, dark: (dark ?? light)! };
}

/**
 * GitBook's favicon emoji (a code point in hex, `1f680`, or joined ones `1f468-200d-1f4bb`, or the
 * character itself) as the character; null when it is neither (at most 8 code points, no ASCII).
 */
export function faviconEmoji(value: unknown): string | null {
  if (typeof value !== "string" || !value || value.length > 64) return null;
  if (/^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6}){0,7}$/i.test(value)) {
    const points = value.split("-").map((hex) => parseInt(hex, 16));
    if (points.some((p) => p > 0x10ffff || p < 0x80 || (p >= 0xd800 && p <= 0xdfff))) return null;
    return String.fromCodePoint(...points);
  }
  const chars = [...value];
  if (chars.length > 8 || chars.some((c) => (c.codePointAt(0) ?? 0) < 0x80)) return null;
  return value;
}

/** The favicon as an SVG drawing the emoji (served as `~favicon.svg`). */
export function emojiFaviconSvg(emoji: string): string {
  const text = emoji.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text x="50" y="50" dy=".35em" text-anchor="middle" font-size="85">${text}</text></svg>\n`;
}

/** "Last updated" of a page: its ISO date and the date in the site's locale (UTC, medium style). */
export function lastUpdated(updatedAt: string | undefined, locale: string): { iso: string; text: string } | undefined {
  const time = updatedAt ? Date.parse(updatedAt) : NaN;
  if (!Number.isFinite(time)) return undefined;
  const date = new Date(time);
  let text: string;
  try {
    text = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
  } catch {
    text = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(date);
  }
  return { iso: date.toISOString(), text };
}

/**
 * "Edit on GitHub/GitLab": the page's file in the repository its space is Git-synced with, on the
 * branch of the ref the revision was imported from (`HEAD` when unknown). Only for https repository
 * URLs of GitHub or GitLab (the provider Git sync recorded, else the host), and a page that came from
 * a file; the URL's own `/tree/…` (`/-/tree/…`) part is dropped.
 */
export function editOnGitLink(git: { url: string; provider?: string } | undefined, ref: string | undefined, path: string | undefined): { label: string; href: string } | undefined {
  if (!git || !path) return undefined;
  let url: URL;
  try {
    url = new URL(git.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" || url.username || url.password) return undefined;
  const provider = git.provider?.startsWith("github") || url.hostname === "github.com" ? "github" : git.provider === "gitlab" || /(^|\.)gitlab\./.test(url.hostname) ? "gitlab" : null;
  if (!provider) return undefined;
  let repoPath = url.pathname.replace(/\/+$/, "").replace(/\.git$/, "");
  repoPath = provider === "github" ? repoPath.replace(/\/(tree|blob)\/.*$/, "") : repoPath.replace(/\/-\/(tree|blob)\/.*$/, "");
  if (repoPath.split("/").filter(Boolean).length < 2) return undefined;
  const branch = ref?.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref && !ref.startsWith("refs/") ? ref : "HEAD";
  const segments = (s: string) => s.split("/").filter(Boolean).map(encodeURIComponent).join("/");
  const file = segments(path);
  if (!file || path.split("/").some((s) => s === ".." || s === ".")) return undefined;
  const edit = provider === "github" ? "edit" : "-/edit";
  return { label: provider === "github" ? "Edit on GitHub" : "Edit on GitLab", href: `${url.origin}${repoPath}/${edit}/${segments(branch)}/${file}` };
}
