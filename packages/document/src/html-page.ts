// What every server-rendered HTML page (a published site's, the app's) answers with beside its body:
// the strict CSP the rendered Markdown is made for (no script at all, images from https), the other
// security headers, and reading the request's cookies.

/** No script at all; styles only from the page's own origin; images from it or https; forms only to it. */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' https:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The security headers of an HTML page; `referrerPolicy` is the one thing the two kinds of page choose differently. */
export function pageSecurityHeaders(referrerPolicy: "same-origin" | "strict-origin-when-cross-origin"): Record<string, string> {
  return {
    "Content-Security-Policy": PAGE_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": referrerPolicy,
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

/** A Cookie header's name=value pairs, values percent-decoded and unquoted; the first of a repeated name wins. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (!name || name in cookies) continue;
    const raw = part.slice(at + 1).trim().replace(/^"(.*)"$/, "$1");
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}
