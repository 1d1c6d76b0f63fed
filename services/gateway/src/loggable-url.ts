// A request URL as the logs may carry it: capability tokens in paths and secret query parameters replaced.

const REDACTED = "[redacted]";

/**
 * Query parameters that carry secrets: share keys (`share`, `shareKey`), the visitor token of
 * authenticated sites (`jwt_token`), SSO link tickets (`link`), tokens and tickets of any name, and
 * anything that looks like a credential. Matched case-insensitively, on the whole name or a part.
 */
const SECRET_PARAM = /share|jwt|token|ticket|^link$|key|secret|pass|auth|sig|code|saml|relay|cred|session/i;

/** Paths whose last segment is a capability (the signed token is the permission). */
const CAPABILITY_PATHS: RegExp[] = [
  // File downloads: /v1/files/{token}
  /^(\/v1\/files\/)[^/?#]+/,
  // Change-request PDFs: /v1/spaces/{id}/change-requests/{id}/pdf/{token}
  /^(\/v1\/spaces\/[^/]+\/change-requests\/[^/]+\/pdf\/)[^/?#]+/,
];

/** `url` (path and query, as received) with capability segments and secret query values redacted. */
export function loggableUrl(url: string | undefined): string {
  if (!url) return "";
  const at = url.indexOf("?");
  let path = at < 0 ? url : url.slice(0, at);
  for (const pattern of CAPABILITY_PATHS) path = path.replace(pattern, `$1${REDACTED}`);
  if (at < 0) return path;
  const parts = url
    .slice(at + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      let name = eq < 0 ? part : part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed escape: the name as sent, still matched below.
      }
      return eq >= 0 && SECRET_PARAM.test(name) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    });
  return `${path}?${parts.join("&")}`;
}
