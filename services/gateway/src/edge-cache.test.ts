// The gateway's edge cache of published pages: what it keeps, how it answers, how it forgets.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import type { ServeAnswer } from "@docshelf/contracts/sites";
import { cacheableFor, chooseEncoding, EDGE_INVALIDATING_EVENTS, EdgeCache, edgeKey } from "./edge-cache";

const page = (over: Partial<ServeAnswer> = {}, headers: Record<string, string | string[]> = {}): ServeAnswer => ({
  status: 200,
  headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=60", ETag: '"abc"', Vary: "Accept", ...headers },
  body: `<p>${"hello ".repeat(200)}</p>`,
  ...over,
});

function req(headers: Record<string, string> = {}, method = "GET"): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

interface Written {
  status: number;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
}

function res(): ServerResponse & { written: Written } {
  const extra: OutgoingHttpHeaders = {};
  const written: Written = { status: 0, headers: {} };
  const mock = {
    written,
    setHeader(name: string, value: string) {
      extra[name] = value;
      return mock;
    },
    writeHead(status: number, headers: OutgoingHttpHeaders) {
      written.status = status;
      written.headers = { ...extra, ...headers };
      return mock;
    },
    end(body?: Buffer) {
      written.body = body;
      return mock;
    },
  };
  return mock as unknown as ServerResponse & { written: Written };
}

describe("cacheableFor", () => {
  test("a public 200 with a max-age and an ETag is kept for its max-age", () => {
    expect(cacheableFor(page())).toBe(60);
  });

  test.each([
    ["a personal answer (private, no-store)", page({}, { "Cache-Control": "private, no-store" })],
    ["no-store", page({}, { "Cache-Control": "no-store" })],
    ["public without max-age", page({}, { "Cache-Control": "public" })],
    ["max-age=0", page({}, { "Cache-Control": "public, max-age=0" })],
    ["public, no-cache", page({}, { "Cache-Control": "public, max-age=60, no-cache" })],
    ["a Set-Cookie", page({}, { "Set-Cookie": ["docshelf_share=k; Path=/"] })],
    ["a lower-case set-cookie", page({}, { "set-cookie": "a=b" })],
    ["Vary: Cookie", page({}, { Vary: "Cookie" })],
    ["Vary: Accept, Cookie", page({}, { Vary: "Accept, Cookie" })],
    ["noindex (unlisted sites, noindex pages)", page({}, { "X-Robots-Tag": "noindex" })],
    ["a 404", page({ status: 404 })],
    ["a 304", page({ status: 304, body: "" })],
    ["a 301", page({ status: 301 })],
  ])("%s is never kept", (_name, answer) => {
    expect(cacheableFor(answer)).toBe(0);
  });

  test("no ETag, not kept", () => {
    const answer = page();
    delete answer.headers.ETag;
    expect(cacheableFor(answer)).toBe(0);
  });
});

describe("edgeKey", () => {
  const params = { path: "/sites/docs/guide", query: { b: "2", a: "1" } };

  test("host, path, the query in canonical order and the Markdown variant make the key", () => {
    const key = edgeKey(req(), params);
    expect(key).toBe(edgeKey(req(), { path: "/sites/docs/guide", query: { a: "1", b: "2" } }));
    expect(key).not.toBe(edgeKey(req(), { ...params, markdown: true }));
    expect(key).not.toBe(edgeKey(req(), { ...params, host: "docs.example.com" }));
    expect(key).not.toBe(edgeKey(req(), { ...params, path: "/sites/docs/other" }));
    expect(key).not.toBe(edgeKey(req(), { ...params, query: { a: "1" } }));
  });

  test.each([
    ["a share key in the query", req(), { path: "/p", query: { share: "k" } }],
    ["a visitor token in the query", req(), { path: "/p", query: { jwt_token: "t" } }],
    ["a share cookie", req({ cookie: "x=1; docshelf_share=k" }), { path: "/p" }],
    ["a visitor cookie", req({ cookie: "docshelf_visitor=t" }), { path: "/p" }],
    ["an Authorization header", req({ authorization: "Bearer x" }), { path: "/p" }],
    ["a POST", req({}, "POST"), { path: "/p" }],
    ["an MCP request", req(), { path: "/p", mcp: { body: "{}" } }],
  ])("%s never uses the cache", (_name, request, p) => {
    expect(edgeKey(request, p)).toBeNull();
  });

  test("other cookies do not keep a reader from the cache", () => {
    expect(edgeKey(req({ cookie: "theme=dark" }), { path: "/p" })).not.toBeNull();
  });
});

describe("chooseEncoding", () => {
  const all = () => true;
  test.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0", "identity"],
    ["*", "br"],
    ["identity", "identity"],
  ])("Accept-Encoding %p → %s", (header, expected) => {
    expect(chooseEncoding(header, all)).toBe(expected);
  });

  test("a coding the entry lacks is not chosen", () => {
    expect(chooseEncoding("br, gzip", (e) => e === "gzip")).toBe("gzip");
    expect(chooseEncoding("br", (e) => e === "identity")).toBe("identity");
  });
});

describe("EdgeCache", () => {
  test("answers a kept page, its gzip variant, and a 304 for any variant's ETag", () => {
    const cache = new EdgeCache({ maxBytes: 1 << 20, maxTtlMs: 60_000 });
    const answer = page();
    expect(cache.store("k", answer, cache.generation())).toBe(true);
    const plain = res();
    expect(cache.serve("k", req(), plain)).toBe(true);
    expect(plain.written.status).toBe(200);
    expect(plain.written.body?.toString()).toBe(answer.body);
    expect(plain.written.headers.Vary).toBe("Accept, Accept-Encoding");
    expect(plain.written.headers["Content-Length"]).toBe(Buffer.byteLength(answer.body));
    const gz = res();
    cache.serve("k", req({ "accept-encoding": "gzip" }), gz);
    expect(gz.written.headers["Content-Encoding"]).toBe("gzip");
    expect(gunzipSync(gz.written.body as Buffer).toString()).toBe(answer.body);
    expect(gz.written.headers.ETag).not.toBe(plain.written.headers.ETag);
    for (const etag of [plain.written.headers.ETag, gz.written.headers.ETag, `W/${String(gz.written.headers.ETag)}`]) {
      const again = res();
      cache.serve("k", req({ "if-none-match": String(etag) }), again);
      expect(again.written.status).toBe(304);
      expect(again.written.body).toBeUndefined();
    }
    const head = res();
    cache.serve("k", req({}, "HEAD"), head);
    expect(head.written.status).toBe(200);
    expect(head.written.body).toBeUndefined();
  });

  test("refuses what is not cacheable and keeps nothing", () => {
    const cache = new EdgeCache({ maxBytes: 1 << 20, maxTtlMs: 60_000 });
    expect(cache.store("k", page({}, { "Set-Cookie": "a=b" }), cache.generation())).toBe(false);
    expect(cache.serve("k", req(), res())).toBe(false);
    expect(cache.stats().entries).toBe(0);
  });

  test("an answer asked before a clear is not kept after it", () => {
    const cache = new EdgeCache({ maxBytes: 1 << 20, maxTtlMs: 60_000 });
    const before = cache.generation();
    cache.clear();
    expect(cache.store("k", page(), before)).toBe(false);
    expect(cache.store("k", page(), cache.generation())).toBe(true);
    cache.clear();
    expect(cache.serve("k", req(), res())).toBe(false);
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  test("entries expire at their max-age, capped by maxTtlMs", () => {
    let now = 1_000;
    const cache = new EdgeCache({ maxBytes: 1 << 20, maxTtlMs: 30_000, now: () => now });
    cache.store("k", page(), cache.generation());
    cache.store("short", page({}, { "Cache-Control": "public, max-age=5" }), cache.generation());
    now += 4_999;
    expect(cache.serve("short", req(), res())).toBe(true);
    now += 1;
    expect(cache.serve("short", req(), res())).toBe(false);
    now = 1_000 + 29_999;
    const aged = res();
    expect(cache.serve("k", req(), aged)).toBe(true);
    expect(aged.written.headers.Age).toBe("29");
    now += 1;
    expect(cache.serve("k", req(), res())).toBe(false);
  });

  test("stays within its bytes, dropping the least recently used", () => {
    const cache = new EdgeCache({ maxBytes: 80_000, maxTtlMs: 60_000 });
    const body = (i: number) => page({ body: `${i}`.padEnd(3_000, "x") });
    for (let i = 0; i < 5; i++) cache.store(`k${i}`, body(i), cache.generation());
    // k0 is read, so k1 is the least recently used when more come.
    expect(cache.serve("k0", req(), res())).toBe(true);
    // More until the first eviction: the least recently used, k1, goes; k0, read since, stays.
    let i = 5;
    while (cache.stats().entries === i && i < 100) cache.store(`k${i}`, body(i++), cache.generation());
    expect(i).toBeLessThan(100);
    expect(cache.stats().bytes).toBeLessThanOrEqual(80_000);
    expect(cache.serve(`k${i - 1}`, req(), res())).toBe(true);
    expect(cache.serve("k0", req(), res())).toBe(true);
    expect(cache.serve("k1", req(), res())).toBe(false);
    for (; i < 100; i++) cache.store(`k${i}`, body(i), cache.generation());
    expect(cache.stats().bytes).toBeLessThanOrEqual(80_000);
    expect(cache.stats().entries).toBeGreaterThan(10);
  });

  test("an answer larger than an eighth of the cache is not kept", () => {
    const cache = new EdgeCache({ maxBytes: 16_000, maxTtlMs: 60_000 });
    expect(cache.store("big", page({ body: "y".repeat(1_500) }), cache.generation())).toBe(false);
  });
});

describe("EDGE_INVALIDATING_EVENTS", () => {
  test("are the services' own events, each a broadcast one of contracts: no gateway-made event stands in for one", async () => {
    const events = await import("@docshelf/contracts/events");
    const named = new Set(Object.values(events).map((e) => (e as { name?: string }).name));
    for (const name of EDGE_INVALIDATING_EVENTS) expect({ name, declared: named.has(name) }).toEqual({ name, declared: true });
    expect(EDGE_INVALIDATING_EVENTS).toContain("content.space.updated");
    expect(EDGE_INVALIDATING_EVENTS).toContain("content.revision.changed");
  });
});
