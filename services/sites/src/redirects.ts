// Site redirects as plain rules: GitBook's source path shape, which redirect a path matches, and its status.
import type { RedirectDoc } from "./models";

/** GitBook's SiteRedirectSourcePath: `/a/b`, optionally ending in `/*` or `*` (a prefix). */
export const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const MAX_SOURCE = 512;

/** The source as a visitor's decoded path compares with it: percent escapes decoded, no trailing `*`. */
function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * The live redirect for a site path (`/a/b`, decoded): an exact source wins, else the longest wildcard
 * prefix; with the part the wildcard matched.
 */
export function matchRedirect(redirects: RedirectDoc[], path: string): { redirect: RedirectDoc; suffix: string } | null {
  let best: { redirect: RedirectDoc; suffix: string; length: number } | null = null;
  for (const redirect of redirects) {
    if (redirect.draft) continue;
    const wildcard = redirect.source.endsWith("*");
    const source = decoded(wildcard ? redirect.source.slice(0, -1) : redirect.source);
    if (source === null) continue;
    if (!wildcard) {
      if (source === path || `${source}/` === path) return { redirect, suffix: "" };
      continue;
    }
    // `/docs/*` matches `/docs` itself and everything under it; `/docs*` everything starting so.
    const prefix = source.endsWith("/") ? source.slice(0, -1) : source;
    const matches = source.endsWith("/") ? path === prefix || path.startsWith(source) : path.startsWith(source);
    if (matches && (!best || source.length > best.length)) best = { redirect, suffix: path.slice(source.length), length: source.length };
  }
  return best && { redirect: best.redirect, suffix: best.suffix };
}

/**
 * GitBook: permanent redirects are 308 for public live traffic and 307 elsewhere; others 307. A
 * `.gitbook.yaml` redirect (Git sync) is a 301, as GitBook serves those.
 */
export function redirectStatus(redirect: RedirectDoc, publicSite: boolean): 301 | 307 | 308 {
  if (redirect.origin?.kind === "git-sync") return 301;
  return redirect.permanent && publicSite ? 308 : 307;
}

/** The destination URL with the wildcard-matched suffix appended when the redirect captures it. */
export function withSuffix(target: string, redirect: RedirectDoc, suffix: string): string {
  if (!redirect.captureWildcard || !suffix) return target;
  const [path, query] = target.split("?", 2);
  const joined = `${path.replace(/\/+$/, "")}/${suffix.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/")}`;
  return query === undefined ? joined : `${joined}?${query}`;
}
