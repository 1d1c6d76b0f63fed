// The page at `/`: what this server is, where its API is, and the published public sites (no script, no data behind a token).

import type { PublicSiteLink } from "@docshelf/contracts/sites";

/** A published site the home page links to (`sites.publicSites`). */
export type { PublicSiteLink };

/** No script, style, image or form: the page is text and links only. */
export const HOME_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const HOME_HEADERS: Record<string, string> = {
  "Content-Security-Policy": HOME_CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The README section a new user starts with (the heading "Walk-through with curl"). */
export const WALK_THROUGH = "README.md, section “Walk-through with curl”";

/**
 * `sites` is undefined when the sites service did not answer: the page says so instead of claiming
 * there are none.
 */
export function homePage(publicUrl: string, sites: PublicSiteLink[] | undefined): string {
  const api = `${publicUrl}/v1`;
  const list =
    sites === undefined
      ? "<p>The list of published sites is not available right now.</p>"
      : sites.length === 0
        ? "<p>No public site is published yet.</p>"
        : `<ul>\n${sites.map((s) => `<li><a href="${escape(s.url)}">${escape(s.title)}</a></li>`).join("\n")}\n</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>docshelf</title>
</head>
<body>
<main>
<h1>docshelf</h1>
<p>This is a docshelf server: documentation hosting whose HTTP API follows GitBook's public API, and the
published documentation sites it serves as web pages.</p>
<p><a href="${escape(publicUrl)}/app/sign-in">Sign in to the app</a> with an API token to read and edit your organizations' spaces.</p>
<h2>API</h2>
<p>The API is at <code>${escape(api)}</code>. Every call needs an API token:
<code>Authorization: Bearer &lt;token&gt;</code>. GitBook API clients work against it unchanged. Its
description, as OpenAPI: <a href="${escape(api)}/openapi.json">${escape(api)}/openapi.json</a>.</p>
<p>New here? Follow the walk-through in the ${escape(WALK_THROUGH)} of docshelf's source: an
administrator token, a user, an organization, a space and a published site, with curl. It starts with
the token the server was started with:</p>
<pre><code>export API=${escape(publicUrl)} ADMIN="Authorization: Bearer $ADMIN_TOKEN"
curl -s $API/v1/user -H "$ADMIN"</code></pre>
<p>Probes: <a href="${escape(publicUrl)}/health">/health</a>, <a href="${escape(publicUrl)}/ready">/ready</a>.</p>
<h2>Published sites</h2>
${list}
<p>Sites that are unlisted, behind a share link or signed-in visitors only are not listed here.</p>
</main>
</body>
</html>
`;
}
