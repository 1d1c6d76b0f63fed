// The website import's settings (packages/config's CONTENT_IMPORT_*) and the address policy of its fetches;
// the import action itself is in import.actions.ts.
import type { ContentImportConfig } from "@docshelf/config";
import { addressPolicyFor, isPublicAddress, safeFetch } from "@docshelf/safe-fetch";
import type { ImportFetch } from "./website-import";

/** GitBook's ImportContentSource values; only `website` is implemented. */
export const IMPORT_SOURCES = ["website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"] as const;

/** The import's limits: packages/config's CONTENT_IMPORT_* variables. */
export type ImportSettings = ContentImportConfig;

/**
 * safe-fetch with the address policy of each hop. The website import asks for `redirect: "manual"`
 * and follows redirects itself, so every hop passes through here and is checked with its own port.
 */
export function importFetch(allowedPrivateTargets: string[]): ImportFetch {
  return (url, options) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined; // safe-fetch refuses it as bad-url
    }
    return safeFetch(url, { ...options, isAllowedAddress: parsed ? addressPolicyFor(parsed, allowedPrivateTargets) : isPublicAddress });
  };
}
