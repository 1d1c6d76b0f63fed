// The HTTP client every Git request goes through (fetch-pack.ts's and isomorphic-git's): every request's host is
// resolved and EVERY address checked with safe-fetch's policy (addressPolicyFor: public only, plus test-only IP:port allowances), the socket
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

async function collectRequest(body: GitHttpRequest["body"]): Promise<Buffer | undefined> {
  if (!body) return undefined;
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** A response body as it arrives, ended with a SafeFetchError past `maxBytes`; a body left unread is let go. */
async function* streamBody(res: http.IncomingMessage, maxBytes: number, host: string): AsyncGenerator<Uint8Array> {
  let received = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxBytes) throw new SafeFetchError("too-large", `The Git server at ${host} sent more than ${maxBytes} bytes.`);
      yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    }
  } catch (err) {
    if (err instanceof SafeFetchError) throw err;
    throw new SafeFetchError("fetch-failed", `The answer of the Git server at ${host} was cut short.`);
  } finally {
    res.destroy();
  }
}

export function safeGitHttp(limits: GitHttpLimits): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const url = new URL(req.url);
      // Credentials travel only as the Authorization header isomorphic-git adds from onAuth.
      url.username = "";
      url.password = "";
      const target = await checkedAddress(url, limits);
      const payload = await collectRequest(req.body);
      const client = url.protocol === "https:" ? https : http;
      const lookup: LookupFunction = (_host, options, callback) => {
        if (options.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      return new Promise<GitHttpResponse>((resolve, reject) => {
        let response: http.IncomingMessage | undefined;
        let settled = false;
        const fail = (err: Error) => {
          // Once the answer is handed over, a failure ends its body: isomorphic-git's read of it throws.
          if (response) return void response.destroy(err);
          if (settled) return;
          settled = true;
          request.destroy();
          reject(err);
        };
        const timer = setTimeout(() => fail(new SafeFetchError("timeout", `The Git server at ${url.host} took longer than ${limits.requestTimeoutMs} ms.`)), limits.requestTimeoutMs);
        timer.unref();
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
              res.destroy();
              fail(new SafeFetchError("private-address", `The connection to ${url.host} went to an unexpected address.`));
              return;
            }
            if (settled) return void res.destroy();
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
            const answer = { url: url.href, method: req.method ?? "GET", statusCode: res.statusCode ?? 0, statusMessage: res.statusMessage ?? "", headers };
            if (res.statusCode === 200 && /^application\/x-git-upload-pack-result\b/.test(headers["content-type"] ?? "")) {
              // A packfile is handed over as it arrives, not copied into one buffer first (isomorphic-git reads it
              // to its end); the size limit and the timeout still hold while it is read.
              settled = true;
              response = res;
              res.on("close", () => clearTimeout(timer));
              resolve({ ...answer, body: streamBody(res, limits.maxResponseBytes, url.host) });
              return;
            }
            // Anything else (ref lists, refusals isomorphic-git may leave unread) is read whole first.
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
              resolve({
                ...answer,
                body: (async function* () {
                  yield new Uint8Array(body.buffer, body.byteOffset, body.length);
                })(),
              });
            });
          },
        );
        request.on("error", (err) => {
          clearTimeout(timer);
          if (response) return;
          const code = (err as { code?: unknown }).code;
          fail(new SafeFetchError("fetch-failed", `The Git server at ${url.host} could not be reached${typeof code === "string" ? ` (${code})` : ""}.`));
        });
        request.end(payload);
      });
    },
  };
}
