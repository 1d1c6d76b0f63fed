// URL rules of the crawl: which links are pages of the site, and when two URLs are the same page.

/** File types that are never pages, so links to them are not even fetched. */
const ASSET_EXTENSION = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|dmg|exe|msi|deb|rpm|apk|mp3|mp4|m4a|wav|ogg|webm|mov|avi|woff2?|ttf|otf|eot|css|js|mjs|map|wasm)$/i;

/** The same page whatever its fragment, query, credentials or trailing "index.html". */
export function pageKey(url: URL): string {
  const path = url.pathname.replace(/\/index\.html?$/i, "/");
  return `${url.origin}${path}`;
}

/** Resolves an href against a base; only http(s) targets, never javascript:, mailto: and the like. */
export function resolveHref(href: string, base: URL): URL | undefined {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

export function isCandidatePage(url: URL, origin: string): boolean {
  return url.origin === origin && !ASSET_EXTENSION.test(url.pathname);
}

/** The URL as a fetch target: no fragment, and the start URL's credentials while on its origin. */
export function fetchTarget(url: URL, start: URL): string {
  const target = new URL(url.href);
  target.hash = "";
  if (target.origin === start.origin && !target.username && !target.password) {
    target.username = start.username;
    target.password = start.password;
  }
  return target.href;
}

/** The URL to show or store: no credentials, no fragment. */
export function publicUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  copy.hash = "";
  return copy.href;
}
