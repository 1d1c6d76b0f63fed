// One HTTP(S) request (a GET, or a POST with a small body) to an already checked address, with the body capped at maxBytes.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { normalizeAddress } from "./address-policy";
import { SafeFetchError, describeHost } from "./errors";
import { bareHostname, type ResolvedAddress } from "./resolve";

export interface HopResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Empty for redirects: their bodies are never read. */
  body: Buffer;
}

export interface HopOptions {
  /** GET unless given; a POST sends `body`. */
  method?: "GET" | "POST";
  body?: Buffer;
  headers: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
  /** Statuses whose body is not read (redirects). */
  skipBodyFor: (status: number) => boolean;
}

/**
 * A lookup that ignores DNS and answers with the pinned address, so the socket connects to exactly
 * the address that was checked (a second DNS answer, as in DNS rebinding, is never asked for).
 */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function decodeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function tooLarge(url: URL, maxBytes: number): SafeFetchError {
  return new SafeFetchError("too-large", `The response from ${describeHost(url)} is larger than the limit of ${maxBytes} bytes.`);
}

export function requestOnce(url: URL, target: ResolvedAddress, options: HopOptions): Promise<HopResponse> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(err);
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: bareHostname(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? "GET",
        headers: options.body ? { ...options.headers, "content-length": String(options.body.length) } : options.headers,
        auth: url.username || url.password ? `${decodeUserinfo(url.username)}:${decodeUserinfo(url.password)}` : undefined,
        agent: false,
        lookup: pinnedLookup(target),
        signal: options.signal,
      },
      (res) => {
        // Belt and braces: the socket must really be connected to the checked address.
        const remote = res.socket.remoteAddress;
        if (remote && normalizeAddress(remote) !== normalizeAddress(target.address)) {
          fail(new SafeFetchError("private-address", `The connection to ${describeHost(url)} went to an unexpected address.`));
          return;
        }
        const status = res.statusCode ?? 0;
        if (options.skipBodyFor(status)) {
          settled = true;
          res.destroy();
          resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          fail(tooLarge(url, options.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) fail(tooLarge(url, options.maxBytes));
          else chunks.push(chunk);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks, received) });
        });
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(new SafeFetchError("fetch-failed", `The response from ${describeHost(url)} was cut off.`));
        });
      },
    );
    req.on("error", fail);
    req.end(options.body);
  });
}
