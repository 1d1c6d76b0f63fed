// The HTTP client isomorphic-git talks through: every request's host is resolved and EVERY address
// checked with safe-fetch's policy (addressPolicyFor: public only, plus test-only IP:port allowances), the socket
// is pinned to the checked address, redirects are not followed, and time and bytes are bounded.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { addressPolicyFor, canonicalAddress, resolveChecked, SafeFetchError, systemResolver, type ResolvedAddress, type Resolver } from "@docshelf/safe-fetch";
import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";

export interface GitHttpLimits {
  /** Longest a single request may take, body included. */
  requestTimeoutMs: number;
  /** Largest response body (a packfile) accepted. */
  maxResponseBytes: number;
  /** `address:port` pairs allowed although private (test servers only). */
  allowedPrivateTargets: string[];
  resolver?: Resolver;
  /** Aborts every request (the worker is stopping). */
  signal?: AbortSignal;
}

/** Resolves the host and checks every address of the answer (safe-fetch's policy and allowance); the first is the one connected to. */
export async function checkedAddress(url: URL, limits: GitHttpLimits): Promise<ResolvedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SafeFetchError("scheme", "Only http and https Git URLs may be used.");
  return resolveChecked(url, limits.resolver ?? systemResolver, addressPolicyFor(url, limits.allowedPrivateTargets));
}

async function collect(body: GitHttpRequest["body"]): Promise<Buffer | undefined> {
  if (!body) return undefined;
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

export function safeGitHttp(limits: GitHttpLimits): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const url = new URL(req.url);
      // Credentials travel only as the Authorization header isomorphic-git adds from onAuth.
      url.username = "";
      url.password = "";
      const target = await checkedAddress(url, limits);
      const payload = await collect(req.body);
      const client = url.protocol === "https:" ? https : http;
      const lookup: LookupFunction = (_host, options, callback) => {
        if (options.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      return new Promise<GitHttpResponse>((resolve, reject) => {
        let settled = false;
        const fail = (err: unknown) => {
          if (settled) return;
          settled = true;
          request.destroy();
          reject(err);
        };
        const timer = setTimeout(() => fail(new SafeFetchError("timeout", `The Git server at ${url.host} took longer than ${limits.requestTimeoutMs} ms.`)), limits.requestTimeoutMs);
        const request = client.request(
          {
            protocol: url.protocol,
            hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
            port: url.port || undefined,
            path: `${url.pathname}${url.search}`,
            method: req.method ?? "GET",
            headers: { ...req.headers, ...(payload ? { "content-length": String(payload.length) } : {}), "accept-encoding": "identity" },
            agent: false,
            lookup,
            signal: req.signal && limits.signal ? AbortSignal.any([req.signal, limits.signal]) : (req.signal ?? limits.signal),
          },
          (res) => {
            const remote = res.socket.remoteAddress;
            if (remote && canonicalAddress(remote) !== canonicalAddress(target.address)) {
              fail(new SafeFetchError("private-address", `The connection to ${url.host} went to an unexpected address.`));
              return;
            }
            const chunks: Buffer[] = [];
            let received = 0;
            res.on("data", (chunk: Buffer) => {
              received += chunk.length;
              if (received > limits.maxResponseBytes) fail(new SafeFetchError("too-large", `The Git server at ${url.host} sent more than ${limits.maxResponseBytes} bytes.`));
              else chunks.push(chunk);
            });
            res.on("error", fail);
            res.on("end", () => {
              clearTimeout(timer);
              if (settled) return;
              settled = true;
              const body = Buffer.concat(chunks, received);
              const headers: Record<string, string> = {};
              for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
              resolve({
                url: url.href,
                method: req.method ?? "GET",
                statusCode: res.statusCode ?? 0,
                statusMessage: res.statusMessage ?? "",
                headers,
                body: (async function* () {
                  yield new Uint8Array(body.buffer, body.byteOffset, body.length);
                })(),
              });
            });
          },
        );
        request.on("error", (err) => {
          clearTimeout(timer);
          const code = (err as { code?: unknown }).code;
          fail(new SafeFetchError("fetch-failed", `The Git server at ${url.host} could not be reached${typeof code === "string" ? ` (${code})` : ""}.`));
        });
        request.end(payload);
      });
    },
  };
}
