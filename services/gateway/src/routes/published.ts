// Published sites: every GET under `/sites/…`, and every GET whose Host is a site's own hostname (not
// this instance's), goes to `sites.serve`, which answers {status, headers, body}. No bearer token, no
// /v1 rate-limit headers: these are the public pages. They are taken before moleculer-web routes the
// request, since a site's hostname owns every path but the instance's own (INSTANCE_PATH).
import * as sites from "@docshelf/contracts/sites";
import type { ServeAnswer, ServeHead, ServeParams } from "@docshelf/contracts/sites";
import type { AnswerOf } from "@docshelf/contracts/action";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import { acceptsMarkdown, isSiteMcpPost, mcpRefusal, readSiteMcp } from "../mcp/site";
import { chooseEncoding, EDGE_CACHE_DEFAULTS, EdgeCache, edgeKey } from "../edge-cache";
import { isImmutable, StaticCompressor } from "../static-compress";

/** Published-site answers by where they came from: the edge cache (`hit`), or `sites.serve` (`miss` when kept after, `pass` when not). */
export const EDGE_ANSWERS = "docshelf.site.edge.answers.total";

/**
 * Paths that are the instance's own whatever the Host: the API, probes and metrics. A site's hostname
 * owns every other path, but never these (a probe or client using a pod IP or a site's name must still
 * reach them).
 */
const INSTANCE_PATH = /^\/(v1|health|ready|metrics)(\/|$)/;

/**
 * The pages people sign in on and use (the app, SSO): only on the instance's own host (PUBLIC_URL's),
 * never on a hostname a tenant controls, where a genuine sign-in form would serve phishing. On another
 * host they are the site's paths (its page or its 404), or 404 when the host is no site's.
 */
export const OWN_HOST_PATH = /^\/(app|o|s|sso)(\/|$)/;

/** The interface's hostname rule: only such a Host can be a site's own hostname. */
const SITE_HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

export type { ServeAnswer };

export interface PublishedSites {
  /** The call to make for this request, or null when it is an API request. */
  target(req: IncomingMessage): ServeParams | null;
  /** Whether the request's Host is a name that is not the instance's own (one a site may hold; IP literals are not). */
  foreignHost(req: IncomingMessage): boolean;
  /** The 404 page of a path that is not served on this host. */
  notHere(req: IncomingMessage, res: ServerResponse): void;
  /** Answers the 429 page of a reader over the rate limit. */
  refuse(req: IncomingMessage, res: ServerResponse, retryAfter: number): void;
  /** The edge cache of public answers (edge-cache.ts). */
  edge: EdgeCache;
  /** Writes a site's answer; false when `sites.serve` said the request is not a site's (serve the API). */
  serve(broker: ServiceBroker, req: IncomingMessage, res: ServerResponse, params: ServeParams, requestID: string): Promise<boolean>;
}

function query(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of search) {
    // The pages read a handful of parameters; a flood of them is not worth carrying.
    if (++count > 20) break;
    if (!(name in out) && name.length <= 64 && value.length <= 4096) out[name] = value;
  }
  return out;
}

function errorPage(status: number): string {
  const title =
    status === 400 ? "This address is not one a site has" : status === 404 ? "There is no page at this address" : status === 429 ? "Too many requests" : status === 504 ? "The site took too long to answer" : "The site cannot be shown right now";
  const hint = status === 400 || status === 404 ? "Check the link you followed." : "Try again in a moment.";
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head><body><h1>${title}</h1><p>${hint}</p></body></html>\n`;
}

function notModifiedBy(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === etag;
  });
}

export function isStream(value: object): value is NodeJS.ReadableStream {
  return typeof (value as NodeJS.ReadableStream).pipe === "function";
}

/**
 * A streamed answer (a site's llms-full.txt, a long app page): its head, then its chunks as they come, with back-pressure from
 * the client. A stream that fails half way ends the response abruptly, so the client sees it incomplete.
 */
export function writeStream(req: IncomingMessage, res: ServerResponse, stream: NodeJS.ReadableStream, head: ServeHead | undefined): void {
  const readable = stream as NodeJS.ReadableStream & { destroy?: (err?: Error) => void };
  res.statusCode = head?.status ?? 200;
  const headers: ServeHead["headers"] = head?.headers ?? { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (req.method === "HEAD") {
    readable.destroy?.();
    res.end();
    return;
  }
  readable.on("error", () => res.destroy());
  res.on("close", () => readable.destroy?.());
  const path = (req.url ?? "/").split("?")[0];
  const built = res.statusCode === 200 && BUILT_FILE.test(path) && isImmutable(200, headers) && compressible(headers);
  // A built file's answer depends on the client's Accept-Encoding, the plain one too (a cache in front keeps both).
  if (built) res.setHeader("Vary", "Accept-Encoding");
  if (!built || chooseEncoding(req.headers["accept-encoding"], () => true) === "identity") {
    readable.pipe(res);
    return;
  }
  // A built file too large for one message (the API console's script, the block editor's): read whole (it is at most
  // a few MB), then sent as the variant the client takes, compressed once per name and kept (static-compress.ts). It
  // holds no secret, so compressing it leaks nothing. Only built files (BUILT_FILE: a hashed name), never a user's
  // file, so what is kept stays a few files.
  const chunks: Buffer[] = [];
  let size = 0;
  readable.on("data", (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size <= MAX_BUFFERED) chunks.push(bytes);
  });
  readable.on("end", () => {
    if (size > MAX_BUFFERED) {
      res.destroy(); // already partly read: cannot be sent whole any more (a built file never gets this large)
      return;
    }
    void builtFiles.answer(path, Buffer.concat(chunks), req.headers["accept-encoding"]).then((sent) => {
      res.setHeader("Vary", "Accept-Encoding");
      if (sent.encoding) res.setHeader("Content-Encoding", sent.encoding);
      res.setHeader("Content-Length", sent.body.length);
      res.end(sent.body);
    });
  });
}

/** The streamed built files' compressed variants, shared by every published route of this gateway. */
const builtFiles = new StaticCompressor();
/** A built file's path, its name carrying its content's hash: a site's (`…/~console-7ULCHYSV.js`) or the app's (`/app/assets/editor-7ULCHYSV.js`). */
const BUILT_FILE = /(\/~|^\/app\/assets\/)[a-z]+-[A-Z0-9]{8,}\.(js|css)$/;
/** A streamed built file larger than this is not read whole. */
const MAX_BUFFERED = 16 * 1024 * 1024;

/** Text worth compressing: scripts, stylesheets, JSON, HTML, SVG. */
function compressible(headers: ServeHead["headers"]): boolean {
  const type = String(Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "");
  return /^(text\/|application\/(javascript|json)|image\/svg\+xml)/i.test(type);
}

export function publishedSites(publicUrl: string, timeoutMs: number, edge = new EdgeCache(EDGE_CACHE_DEFAULTS)): PublishedSites {
  let counted: ServiceBroker | undefined;
  const count = (broker: ServiceBroker, outcome: "hit" | "miss" | "pass") => {
    if (!broker.isMetricsEnabled()) return;
    if (counted !== broker) {
      counted = broker;
      if (!broker.metrics.getMetric(EDGE_ANSWERS)) broker.metrics.register({ type: "counter", name: EDGE_ANSWERS, labelNames: ["outcome"], description: "Published-site answers from the gateway's edge cache (hit) or sites.serve (miss: kept, pass: not cacheable)" });
    }
    broker.metrics.increment(EDGE_ANSWERS, { outcome });
  };
  const ownHost = new URL(publicUrl).hostname.toLowerCase();
  /** The last Host header seen and what it said: clients send the same one request after request. */
  let last = { header: "", host: "", foreign: false };
  const hostOf = (header: string) => {
    if (header !== last.header) {
      const host = header.toLowerCase().replace(/:\d+$/, "");
      // An IP literal (a last label of digits) is never a site's: sites cannot claim one (sites' site-names.ts).
      last = { header, host, foreign: host !== ownHost && SITE_HOSTNAME.test(host) && !/[.][0-9]+$/.test(host) };
    }
    return last;
  };
  return {
    edge,

    target(req) {
      // The path as sent: a URL parser would resolve "..", and sites.serve refuses such paths instead.
      const raw = req.url ?? "/";
      const at = raw.indexOf("?");
      const path = at < 0 ? raw : raw.slice(0, at);
      if (req.method !== "GET" && req.method !== "HEAD" && !isSiteMcpPost(req, path)) return null;
      const { host, foreign: foreignHost } = hostOf(req.headers.host ?? "");
      const underSites = path === "/sites" || path.startsWith("/sites/");
      if (!underSites && (!foreignHost || INSTANCE_PATH.test(path))) return null;
      const params: ServeParams = { path, query: query(new URLSearchParams(at < 0 ? "" : raw.slice(at + 1))) };
      if (foreignHost) params.host = host;
      if (typeof req.headers.cookie === "string") params.cookie = req.headers.cookie.slice(0, 16384);
      const inm = req.headers["if-none-match"];
      if (typeof inm === "string") params.ifNoneMatch = inm.slice(0, 1024);
      if (acceptsMarkdown(req.headers.accept)) params.markdown = true;
      return params;
    },

    foreignHost(req) {
      return hostOf(req.headers.host ?? "").foreign;
    },

    notHere(req, res) {
      res.statusCode = 404;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Content-Security-Policy", "default-src 'none'");
      res.end(req.method === "HEAD" ? undefined : errorPage(404));
    },

    refuse(req, res, retryAfter) {
      res.statusCode = 429;
      const id = req.headers["x-request-id"];
      if (typeof id === "string" && !res.hasHeader("X-Request-ID")) res.setHeader("X-Request-ID", id);
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Content-Security-Policy", "default-src 'none'");
      res.setHeader("Retry-After", String(retryAfter));
      res.end(req.method === "HEAD" ? undefined : errorPage(429));
    },

    async serve(broker, req, res, params, requestID) {
      const key = edgeKey(req, params);
      if (key !== null && edge.serve(key, req, res, requestID)) {
        count(broker, "hit");
        return true;
      }
      if (!res.hasHeader("X-Request-ID")) res.setHeader("X-Request-ID", requestID);
      // Asked whole (no If-None-Match) when it may be kept: the cache answers the 304 itself.
      const generation = edge.generation();
      const ifNoneMatch = params.ifNoneMatch;
      if (key !== null) delete params.ifNoneMatch;
      let answer: ServeAnswer | NodeJS.ReadableStream | null = null;
      let head: ServeHead | undefined;
      try {
        if (req.method === "POST") {
          const mcp = await readSiteMcp(req);
          if ("refuse" in mcp) answer = mcpRefusal(mcp.refuse, mcp.refuse === 413 ? "The request body is too large." : "An MCP request is JSON (Content-Type: application/json).");
          else params.mcp = mcp;
        }
        if (!answer) {
          // Moleculer's call promise carries its context, whose meta holds what the action answered in it.
          const pending = broker.call(sites.serve.name, params, { timeout: timeoutMs, requestID, meta: {} }) as Promise<AnswerOf<typeof sites.serve>> & { ctx?: { meta?: Record<string, unknown> } };
          answer = await pending;
          head = pending.ctx?.meta?.[sites.SERVE_HEAD_META] as ServeHead | undefined;
        }
        // A POST to a path that is no site's is the API's (404 there).
        if (!answer && req.method === "POST") answer = mcpRefusal(404, "There is no site here.");
      } catch (err) {
        const code = (err as { code?: number }).code;
        // A request whose path, host or query the action refuses (too long, malformed) is the client's mistake.
        const status = code === 400 || code === 422 ? 400 : code === 504 || (err as { name?: string }).name === "RequestTimeoutError" ? 504 : 503;
        if (status === 503) broker.logger.error({ err, path: params.path.slice(0, 200) }, "serving a published site failed");
        res.statusCode = status;
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Content-Security-Policy", "default-src 'none'");
        res.end(req.method === "HEAD" ? undefined : errorPage(status));
        return true;
      }
      if (!answer) return false;
      if (isStream(answer)) {
        count(broker, "pass");
        writeStream(req, res, answer, head);
        return true;
      }
      if (key !== null && edge.store(key, answer, generation)) {
        count(broker, "miss");
        // Answered from the entry just made: compressed, 304 for a known ETag.
        if (edge.serve(key, req, res, requestID)) return true;
      }
      count(broker, "pass");
      if (key !== null && ifNoneMatch !== undefined && answer.status === 200 && typeof answer.headers.ETag === "string" && notModifiedBy(ifNoneMatch, answer.headers.ETag)) {
        // Asked without If-None-Match but not kept: the client's copy is still answered with a 304.
        answer = { status: 304, headers: answer.headers, body: "" };
      }
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      const body = Buffer.from(answer.body, "utf8");
      if (answer.status !== 304) res.setHeader("Content-Length", body.length);
      res.end(req.method === "HEAD" || answer.status === 304 ? undefined : body);
      return true;
    },
  };
}
