// Fetches a user-supplied URL without letting it reach private networks: every hop is resolved,
// checked and pinned; bodies, redirects and time are bounded.
import { isPublicAddress, type AddressPolicy } from "./address-policy";
import { SafeFetchError, describeHost } from "./errors";
import { requestOnce, type HopResponse } from "./request-once";
import { resolveChecked, systemResolver, type Resolver } from "./resolve";

export interface SafeFetchOptions {
  /** Total time for the whole fetch, redirects included. Default 10 s. */
  timeoutMs?: number;
  /** Largest body accepted; a larger one is cut off and refused. Default 5 MB. */
  maxBytes?: number;
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
  /**
   * "follow" (default) follows up to maxRedirects, re-checking every hop; "manual" returns a
   * redirect as it is (status 3xx, its `location` header, an empty body) for the caller to decide.
   */
  redirect?: "follow" | "manual";
  /** The Accept header. Default `*\/*`. */
  accept?: string;
  /** The User-Agent header. */
  userAgent?: string;
  /** Resolves host names; defaults to the system resolver. Tests inject answers here. */
  resolver?: Resolver;
  /**
   * Which addresses may be connected to. Defaults to public unicast only; production code never
   * sets it. Tests pass e.g. `(a) => a === "127.0.0.1"` to reach a listener they started.
   */
  isAllowedAddress?: AddressPolicy;
  /** Aborts the fetch early (reported as a timeout). */
  signal?: AbortSignal;
  /** POST sends `body` (an OpenID Connect token request) and never follows a redirect. Default GET. */
  method?: "GET" | "POST";
  body?: Buffer | string;
  /** More request headers (content-type, authorization); accept, user-agent and accept-encoding stay ours. */
  headers?: Record<string, string>;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects, without credentials. */
  finalUrl: string;
  /** Media type of the body, lower-cased, without parameters ("text/html"); "" when absent. */
  contentType: string;
}

export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  accept: "*/*",
  userAgent: "docshelf-fetch/1.0",
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function parseUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError("bad-url", "The URL is not a valid absolute URL.");
  }
  return checkScheme(url);
}

function checkScheme(url: URL): URL {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SafeFetchError("scheme", `Only http and https URLs may be fetched, not ${url.protocol.replace(/:$/, "")}.`);
  }
  if (!url.hostname) throw new SafeFetchError("bad-url", "The URL has no host.");
  return url;
}

function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

function flattenHeaders(headers: HopResponse["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** The next hop of a redirect; credentials carry over only while the origin stays the same. */
function redirectTarget(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new SafeFetchError("bad-url", `${describeHost(from)} redirected to an invalid URL.`);
  }
  checkScheme(next);
  if (next.origin === from.origin && !next.username && !next.password) {
    next.username = from.username;
    next.password = from.password;
  }
  return next;
}

function asFetchError(err: unknown, url: URL, signal: AbortSignal, timeoutMs: number): SafeFetchError {
  if (err instanceof SafeFetchError) return err;
  if (signal.aborted) return new SafeFetchError("timeout", `Fetching from ${describeHost(url)} took longer than ${timeoutMs} ms.`);
  const code = (err as { code?: unknown } | null)?.code;
  const detail = typeof code === "string" ? ` (${code})` : "";
  return new SafeFetchError("fetch-failed", `The server at ${describeHost(url)} could not be fetched${detail}.`);
}

/** Rejects as soon as the signal aborts, so a hanging DNS lookup can't outlive the deadline. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const resolver = options.resolver ?? systemResolver;
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const method = options.method ?? "GET";
  const headers = {
    ...options.headers,
    accept: options.accept ?? SAFE_FETCH_DEFAULTS.accept,
    "user-agent": options.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent,
    // Compressed bodies would need inflating, and the size cap must apply to what is kept.
    "accept-encoding": "identity",
  };

  let url = parseUrl(input);
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;

  for (let redirects = 0; ; redirects++) {
    let hop: HopResponse;
    try {
      const target = await untilAborted(resolveChecked(url, resolver, isAllowed), signal);
      hop = await requestOnce(url, target, { method, ...(method === "POST" && body ? { body } : {}), headers, maxBytes, signal, skipBodyFor: (s) => REDIRECT_STATUSES.has(s) });
    } catch (err) {
      throw asFetchError(err, url, signal, timeoutMs);
    }
    const location = hop.headers.location;
    if (REDIRECT_STATUSES.has(hop.status) && location && options.redirect !== "manual" && method === "GET") {
      if (redirects >= maxRedirects) {
        throw new SafeFetchError("too-many-redirects", `${describeHost(url)} redirected more than ${maxRedirects} times.`);
      }
      url = redirectTarget(url, location);
      continue;
    }
    const flat = flattenHeaders(hop.headers);
    return {
      status: hop.status,
      headers: flat,
      body: hop.body,
      finalUrl: withoutCredentials(url),
      contentType: (flat["content-type"] ?? "").split(";")[0].trim().toLowerCase(),
    };
  }
}
