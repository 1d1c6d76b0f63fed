// openid-client, with every request to an OpenID Provider through safe-fetch (the issuer is a URL an
// organization's admin gave: never a private address, never a slow or huge answer).
import { addressPolicyFor, safeFetch } from "@docshelf/safe-fetch";
import type { OidcProviderDoc } from "./models";

// openid-client ships ES modules only; Node 22 loads them with require(), which this CommonJS package uses.
type OpenIdClient = typeof import("openid-client", { with: { "resolution-mode": "import" } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const oidc: OpenIdClient = require("openid-client");
export type OidcConfiguration = InstanceType<OpenIdClient["Configuration"]>;

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 512 * 1024;

/** openid-client's customFetch over safe-fetch: GET (discovery, keys) and POST (token) only. */
function safeCustomFetch(allowPrivate: readonly string[]) {
  return async (url: string, options: { body?: unknown; headers: Record<string, string>; method: string; signal?: AbortSignal }): Promise<Response> => {
    const target = new URL(url);
    const method = options.method === "POST" ? "POST" : "GET";
    const body = typeof options.body === "string" ? options.body : options.body instanceof URLSearchParams ? options.body.toString() : undefined;
    const { accept, ...headers } = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v]));
    delete headers["user-agent"];
    const res = await safeFetch(target, {
      method,
      ...(body !== undefined ? { body } : {}),
      headers,
      ...(accept ? { accept } : {}),
      redirect: "manual",
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      isAllowedAddress: addressPolicyFor(target, allowPrivate),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return new Response(res.status === 204 || res.status === 304 ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  };
}

/**
 * The provider's configuration (discovery answers, cached a few minutes per provider and settings). Over
 * http only for the private test addresses OIDC_FETCH_ALLOW_PRIVATE allows; production issuers are https.
 */
const cache = new Map<string, { at: number; config: Promise<OidcConfiguration> }>();
const CACHE_MS = 5 * 60_000;

export function configurationOf(provider: OidcProviderDoc, allowPrivate: readonly string[]): Promise<OidcConfiguration> {
  const key = JSON.stringify([provider.id, provider.issuer, provider.clientId, provider.clientSecret, provider.updatedAt]);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.config;
  const fetcher = safeCustomFetch(allowPrivate);
  const insecure = new URL(provider.issuer).protocol === "http:" && allowPrivate.length > 0;
  const config = oidc
    .discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, oidc.ClientSecretBasic(provider.clientSecret), {
      [oidc.customFetch]: fetcher,
      timeout: TIMEOUT_MS / 1000,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    })
    .then((c) => {
      c[oidc.customFetch] = fetcher;
      return c;
    });
  cache.set(key, { at: Date.now(), config });
  config.catch(() => cache.delete(key));
  if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
  return config;
}
