// The website import's settings (CONTENT_IMPORT_*) and the address policy of its fetches;
// the import action itself is in ../import.actions.ts.
import { isPublicAddress, safeFetch, type AddressPolicy } from "@docshelf/safe-fetch";
import { IMPORT_DEFAULTS, type ImportFetch } from "../website-import";

/** GitBook's ImportContentSource values; only `website` is implemented. */
export const IMPORT_SOURCES = ["website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"] as const;

export interface ImportSettings {
  /** Pages imported at most per import. */
  maxPages: number;
  /** Bytes downloaded at most per import, all responses together. */
  maxBytesTotal: number;
  /** Time for the whole crawl. */
  timeoutMs: number;
  /**
   * `address:port` pairs the fetch may reach although they are private (loopback test servers).
   * Empty in production: only public addresses are ever fetched.
   */
  allowedPrivateTargets: string[];
}

/** Largest `CONTENT_IMPORT_MAX_PAGES`: one import is one revision, and a batch holds at most 10,000 changes. */
export const MAX_IMPORT_PAGES = 2000;

const TARGET = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i;

export class ImportSettingsError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > max) throw new ImportSettingsError(`${name} must be a positive integer up to ${max}, not "${raw}".`);
  return value;
}

/**
 * Reads and validates the import variables; a bad value throws, naming the variable. The crawl's time
 * is capped at 80 % of the request timeout, so the answer (and the commit) come before the caller gives up.
 */
export function readImportSettings(env: NodeJS.ProcessEnv, requestTimeoutMs: number): ImportSettings {
  const allowed = (env.CONTENT_IMPORT_ALLOW_PRIVATE ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  for (const target of allowed) {
    if (!TARGET.test(target)) throw new ImportSettingsError(`CONTENT_IMPORT_ALLOW_PRIVATE holds "${target}"; give IP:port pairs such as 127.0.0.1:8081.`);
  }
  const cap = Math.max(1000, Math.floor(requestTimeoutMs * 0.8));
  return {
    maxPages: positiveInt(env, "CONTENT_IMPORT_MAX_PAGES", IMPORT_DEFAULTS.maxPages, MAX_IMPORT_PAGES),
    maxBytesTotal: positiveInt(env, "CONTENT_IMPORT_MAX_BYTES", IMPORT_DEFAULTS.maxBytesTotal),
    timeoutMs: Math.min(positiveInt(env, "CONTENT_IMPORT_TIMEOUT_MS", IMPORT_DEFAULTS.timeoutMs), cap),
    allowedPrivateTargets: allowed.map((t) => t.toLowerCase()),
  };
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** Public addresses, plus exactly the allowed private `address:port` pairs for this hop's port. */
export function addressPolicyFor(url: URL, allowedPrivateTargets: string[]): AddressPolicy {
  if (allowedPrivateTargets.length === 0) return isPublicAddress;
  const port = portOf(url);
  return (address) => {
    const target = (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`).toLowerCase();
    return isPublicAddress(address) || allowedPrivateTargets.includes(target);
  };
}

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
