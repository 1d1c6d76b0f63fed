// The gateway's edge cache of published pages: what a CDN in front would do, in the gateway's memory. Only
// answers that `sites.serve` marked for any reader are kept (`Cache-Control: public`, a 200, no Set-Cookie,
// no Vary but Accept, not noindex: see `cacheable`), keyed by what `sites.serve` was asked (host, path,
// query, markdown variant), each with its gzip and brotli bodies made once. A reader's request that carries
// a share key or visitor token (query or cookie) is never answered from here. Entries live at most their
// answer's max-age (capped), and every write that can change a site's pages (site events, content revisions,
// merges, Git sync imports, a space's title or Git sync state) empties the cache on every gateway: the services'
// own events, listed in `EDGE_INVALIDATING_EVENTS`, whichever node made the write.
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { ServeAnswer, ServeParams } from "@docshelf/contracts/sites";

/** The events after which the cache is emptied (each gateway receives them all, they are broadcast). */
export const EDGE_INVALIDATING_EVENTS = [
  "sites.site.changed",
  "sites.site.published",
  "sites.site.unpublished",
  "sites.site.deleted",
  "sites.urls.changed",
  "content.revision.changed",
  "change-requests.merged",
  "content.space.deleted",
  "content.space.restored",
  "content.space.purged",
  "content.space.transferred",
  "content.space.access.changed",
  // A space's title or emoji, or its Git sync state (the pages' "edit on Git" link): content announces it.
  "content.space.updated",
] as const;

export interface EdgeCacheOptions {
  /** Bytes of bodies (all variants) and keys kept at most. */
  maxBytes: number;
  /** The longest an entry is kept, whatever its max-age says. */
  maxTtlMs: number;
  now?: () => number;
}

export const EDGE_CACHE_DEFAULTS: EdgeCacheOptions = { maxBytes: 64 * 1024 * 1024, maxTtlMs: 60_000 };

type Encoding = "identity" | "gzip" | "br";

interface Variant {
  body: Buffer;
  etag: string;
  headers: OutgoingHttpHeaders;
}

interface Entry {
  key: string;
  storedAt: number;
  expiresAt: number;
  bytes: number;
  /** Every variant's ETag: a client holding any of them holds this content. */
  etags: string[];
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant };
}

/** Query parameters that carry a key or token of the reader (sites' access.ts): such requests are never cached. */
const PERSONAL_PARAMS = new Set(["share", "jwt_token"]);
/** The sites' access cookies (docshelf_share, docshelf_visitor) all start so. */
const PERSONAL_COOKIE = /(?:^|;\s*)docshelf_/;
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/;
/** Smaller bodies are not worth compressing. */
const MIN_COMPRESS = 512;

function header(headers: ServeAnswer["headers"], name: string): string | string[] | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * Whether an answer may be kept and given to any reader: a 200 marked `public` with a max-age (what sites'
 * `answer()` gives non-personal answers), without Set-Cookie, without Vary on anything but Accept (personal
 * answers vary on Cookie), and not noindex (unlisted sites and noindex pages are left to `sites.serve`).
 * Answers the max-age in seconds, or 0 when the answer is not to be kept.
 */
export function cacheableFor(answer: ServeAnswer): number {
  if (answer.status !== 200 || typeof answer.body !== "string") return 0;
  const cc = header(answer.headers, "cache-control");
  if (typeof cc !== "string") return 0;
  const directives = cc.toLowerCase().split(",").map((d) => d.trim());
  if (directives[0] !== "public" || directives.some((d) => d === "private" || d === "no-store" || d === "no-cache")) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find(Boolean);
  const seconds = maxAge ? Number(maxAge[1]) : 0;
  if (!(seconds > 0)) return 0;
  if (header(answer.headers, "set-cookie") !== undefined) return 0;
  const vary = header(answer.headers, "vary");
  if (vary !== undefined && (typeof vary !== "string" || vary.split(",").some((v) => v.trim().toLowerCase() !== "accept"))) return 0;
  const robots = header(answer.headers, "x-robots-tag");
  if (robots !== undefined && String(robots).toLowerCase().includes("noindex")) return 0;
  if (header(answer.headers, "etag") === undefined) return 0;
  return seconds;
}

/** The cache key of a request `sites.serve` would answer, or null when the request must not use the cache. */
export function edgeKey(req: IncomingMessage, params: ServeParams): string | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || params.mcp) return null;
  const cookie = req.headers.cookie;
  if (typeof cookie === "string" && PERSONAL_COOKIE.test(cookie)) return null;
  if (req.headers.authorization !== undefined) return null;
  const names = Object.keys(params.query ?? {});
  if (names.some((name) => PERSONAL_PARAMS.has(name))) return null;
  // Query parameters in a canonical order: `?a=1&b=2` and `?b=2&a=1` are one page.
  const query = names.length ? new URLSearchParams(names.sort().map((n): [string, string] => [n, String((params.query as Record<string, unknown>)[n])])).toString() : "";
  return `${params.host ?? ""}\n${params.path}\n${query}\n${params.markdown ? "md" : "html"}`;
}

/** The encoding to send for an Accept-Encoding header among those an entry has (brotli first, then gzip). */
export function chooseEncoding(acceptEncoding: string | string[] | undefined, has: (e: Encoding) => boolean): Encoding {
  if (typeof acceptEncoding !== "string" || !acceptEncoding) return "identity";
  let br = false;
  let gzip = false;
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    if (q && !(Number(q[1]) > 0)) continue;
    if (coding === "br") br = true;
    else if (coding === "gzip" || coding === "x-gzip") gzip = true;
    else if (coding === "*") br = gzip = true;
  }
  if (br && has("br")) return "br";
  if (gzip && has("gzip")) return "gzip";
  return "identity";
}

function namesETag(ifNoneMatch: string | string[] | undefined, etags: string[]): boolean {
  if (typeof ifNoneMatch !== "string" || !ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || etags.includes(t);
  });
}

/** The ETag of an encoded variant: strong validators differ between codings of the same content. */
function variantETag(etag: string, encoding: Encoding): string {
  return encoding === "identity" ? etag : `${etag.replace(/"$/, "")}-${encoding}"`;
}

export interface EdgeStats {
  entries: number;
  bytes: number;
}

export class EdgeCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private gen = 0;
  private readonly now: () => number;

  constructor(private readonly options: EdgeCacheOptions = EDGE_CACHE_DEFAULTS) {
    this.now = options.now ?? Date.now;
  }

  /** Read before asking `sites.serve`: an answer asked before a change (a new generation) is not kept. */
  generation(): number {
    return this.gen;
  }

  stats(): EdgeStats {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Drops every entry (a site changed; the events do not all say which entries are the site's). */
  clear(): void {
    this.gen++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** Keeps a cacheable answer under `key`, if it still belongs to `generation`; answers whether it was kept. */
  store(key: string, answer: ServeAnswer, generation: number): boolean {
    if (generation !== this.gen) return false;
    const maxAge = cacheableFor(answer);
    if (!maxAge) return false;
    const body = Buffer.from(answer.body, "utf8");
    // No single entry may take more than an eighth of the cache.
    if (body.length * 2 > this.options.maxBytes / 8) return false;
    const etag = String(header(answer.headers, "etag"));
    const base: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      const lower = name.toLowerCase();
      if (lower !== "etag" && lower !== "content-length" && lower !== "vary") base[name] = value;
    }
    const vary = header(answer.headers, "vary");
    base.Vary = vary ? `${String(vary)}, Accept-Encoding` : "Accept-Encoding";
    const make = (encoding: Encoding, bytes: Buffer): Variant => {
      const tag = variantETag(etag, encoding);
      const headers: OutgoingHttpHeaders = { ...base, ETag: tag, "Content-Length": bytes.length };
      if (encoding !== "identity") headers["Content-Encoding"] = encoding;
      return { body: bytes, etag: tag, headers };
    };
    const variants: Entry["variants"] = { identity: make("identity", body) };
    const type = String(header(answer.headers, "content-type") ?? "");
    if (body.length >= MIN_COMPRESS && COMPRESSIBLE.test(type)) {
      const gz = gzipSync(body, { level: 6 });
      if (gz.length < body.length) variants.gzip = make("gzip", gz);
      const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
      if (br.length < body.length) variants.br = make("br", br);
    }
    const bytes = key.length + 512 + Object.values(variants).reduce((sum, v) => sum + (v?.body.length ?? 0), 0);
    this.delete(key);
    const now = this.now();
    const entry: Entry = {
      key,
      storedAt: now,
      expiresAt: now + Math.min(maxAge * 1000, this.options.maxTtlMs),
      bytes,
      etags: Object.values(variants).map((v) => (v as Variant).etag),
      variants,
    };
    this.entries.set(key, entry);
    this.bytes += bytes;
    // Least recently used first: the Map keeps insertion order, and a hit moves its entry to the end.
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.delete(oldest);
    }
    return true;
  }

  /**
   * Answers `req` from the cache when `key` has a fresh entry; false when it has none (ask `sites.serve`).
   * `requestId` becomes the answer's X-Request-ID. Every header is written by one writeHead (node:http's fast
   * path when none was set before).
   */
  serve(key: string, req: IncomingMessage, res: ServerResponse, requestId?: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    const now = this.now();
    if (now >= entry.expiresAt) {
      this.delete(key);
      return false;
    }
    // Most recently used: to the end of the Map's order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const encoding = chooseEncoding(req.headers["accept-encoding"], (e) => entry.variants[e] !== undefined);
    const variant = entry.variants[encoding] as Variant;
    // Age: what a cache in front should count its max-age from.
    const headers: OutgoingHttpHeaders = { ...variant.headers, Age: String(Math.floor((now - entry.storedAt) / 1000)) };
    if (requestId !== undefined) headers["X-Request-ID"] = requestId;
    if (namesETag(req.headers["if-none-match"], entry.etags)) {
      delete headers["Content-Length"];
      delete headers["Content-Encoding"];
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : variant.body);
    return true;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
