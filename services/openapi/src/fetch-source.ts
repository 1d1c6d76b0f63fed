// Fetches a spec's source URL through safe-fetch, following redirects hop by hop so that every hop
// is checked against safe-fetch's address policy together with its port (addressPolicyFor).
import { addressPolicyFor, safeFetch, type SafeFetchOptions, type SafeFetchResponse } from "@docshelf/safe-fetch";
import { failureFromFetch, ProcessingFailure } from "./processing-failure";

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** `address:port` pairs allowed although private (test servers); see settings.ts. */
  allowedPrivateTargets: string[];
}

export interface FetchedSource {
  text: string;
  /** The URL that answered, after redirects, without credentials. */
  finalUrl: string;
}

export type Fetcher = (url: URL, options: SafeFetchOptions) => Promise<SafeFetchResponse>;

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.5";

export async function fetchSource(sourceUrl: string, limits: FetchLimits, fetcher: Fetcher = safeFetch): Promise<FetchedSource> {
  const deadline = Date.now() + limits.timeoutMs;
  let url: URL;
  try {
    url = new URL(sourceUrl);
  } catch {
    throw new ProcessingFailure("FETCH_ERROR", "The source URL is not a valid absolute URL.");
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ProcessingFailure("FETCH_TIMEOUT", `Fetching the specification took longer than ${limits.timeoutMs} ms.`);
    let res: SafeFetchResponse;
    try {
      res = await fetcher(url, {
        timeoutMs: remaining,
        maxBytes: limits.maxBytes,
        redirect: "manual",
        accept: ACCEPT,
        isAllowedAddress: addressPolicyFor(url, limits.allowedPrivateTargets),
      });
    } catch (err) {
      throw failureFromFetch(err);
    }
    const location = res.headers.location;
    if (REDIRECTS.has(res.status) && location) {
      try {
        url = new URL(location, url);
      } catch {
        throw new ProcessingFailure("FETCH_ERROR", `${url.host} redirected to an invalid URL.`);
      }
      continue;
    }
    if (res.status < 200 || res.status > 299) throw new ProcessingFailure("FETCH_ERROR", `${url.host} answered HTTP ${res.status}.`);
    return { text: res.body.toString("utf8").replace(/^\uFEFF/, ""), finalUrl: res.finalUrl };
  }
  throw new ProcessingFailure("FETCH_ERROR", `The source URL redirected more than ${MAX_REDIRECTS} times.`);
}
