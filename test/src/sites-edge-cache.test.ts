// The gateway's edge cache of published pages (services/gateway/src/edge-cache.ts), through HTTP, in both
// process modes: a public page is answered from memory (counted by the gateway's docshelf_site_edge_answers_total
// metric, so no sites.serve call), with ETag/304 and gzip/brotli variants; personal answers (share link,
// visitor token, adaptive sections), unlisted sites and noindex answers never are; and a merge, a customization
// or an unpublish shows at once, through the gateway that took it and (over NATS) through another one; so does a
// Git sync import, which no gateway sees happen (git-sync and content announce it themselves).
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { freePort, startEmbedded, startNats, type RunningSystem } from "@docshelf/testkit";
import { parse } from "node-html-parser";
import { MODES, type Mode } from "./modes";
import { createRepo, commitFiles, gitJobs, startGitServer, type GitServer } from "./git-sync-server";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, GUIDE_PAGES, publishedSite, signToken, unique, type PublishedSite } from "./sites-serve-fixtures";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request through node:http, the body as the bytes sent (compressed or not). */
function raw(baseUrl: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const h = (res: Raw, name: string): string => {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};
const title = (res: Raw): string | undefined => parse(res.body.toString("utf8")).querySelector("article h1")?.text;

/** Two gateways, then every other service in a process of its own (as fault.test.ts). */
const GROUPS: ServiceName[][] = [["gateway"], ["gateway"], ...ALL_SERVICES.filter((s) => s !== "gateway").map((s): ServiceName[] => [s])];

interface Gateway {
  url: string;
  metrics: string;
}

async function startSystem(mode: Mode, git: GitServer): Promise<{ sys: RunningSystem; gateways: Gateway[] }> {
  // No reader rate limit: the suite reads the same pages many times. Git sync may read the test's Git server.
  const env = { SITE_RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_PER_MINUTE: "0", GIT_SYNC_ALLOW_PRIVATE: `127.0.0.1:${git.port}` };
  if (mode === "embedded") {
    const port = await freePort();
    const sys = await startEmbedded({ ...env, METRICS_PORT: String(port) });
    return { sys, gateways: [{ url: sys.url, metrics: `http://127.0.0.1:${port}/metrics` }] };
  }
  const ports = [await freePort(), await freePort()];
  const sys = await startNats({ processes: GROUPS, gatewayPerPort: true, env, envFor: (_group, i): Record<string, string> => (i < 2 ? { METRICS_PORT: String(ports[i]) } : {}) });
  return { sys, gateways: sys.urls.map((url, i) => ({ url, metrics: `http://127.0.0.1:${ports[i]}/metrics` })) };
}

/** The gateway's count of published-site answers by outcome: hit (from the cache), miss (sites.serve, then kept), pass (sites.serve, not kept). */
async function counts(gateway: Gateway): Promise<Record<"hit" | "miss" | "pass", number>> {
  const text = await (await fetch(gateway.metrics)).text();
  const out = { hit: 0, miss: 0, pass: 0 };
  for (const line of text.split("\n")) {
    const m = /^docshelf_site_edge_answers_total\{[^}]*outcome="(hit|miss|pass)"[^}]*\}\s+(\d+)/.exec(line);
    if (m) out[m[1] as keyof typeof out] += Number(m[2]);
  }
  return out;
}

/** What `read` did to the gateway's counts. */
async function counted<T>(gateway: Gateway, read: () => Promise<T>): Promise<{ value: T; hit: number; miss: number; pass: number }> {
  const before = await counts(gateway);
  const value = await read();
  const after = await counts(gateway);
  return { value, hit: after.hit - before.hit, miss: after.miss - before.miss, pass: after.pass - before.pass };
}

describe.each(MODES)("the gateway's edge cache of published pages over %s", (mode) => {
  let sys: RunningSystem;
  let gateways: Gateway[];
  let w: SitesWorld;
  let docs: PublishedSite;
  let git: GitServer;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    git = await startGitServer();
    ({ sys, gateways } = await startSystem(mode, git));
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w, { pages: [...GUIDE_PAGES, { id: "long", title: "Long page", markdown: `${"A paragraph of the long page, long enough to compress. ".repeat(60)}\n` }] });
  }, 180_000);

  afterAll(async () => {
    await sys?.stop();
    await git?.close();
  });

  test("a public page is answered from memory after its first read: same bytes, no sites.serve call, Cache-Control a CDN can honour", async () => {
    const [gw] = gateways;
    const first = await raw(gw.url, `${docs.base}/long-page`);
    expect(first.status).toBe(200);
    expect(title(first)).toBe("Long page");
    const again = await counted(gw, () => raw(gw.url, `${docs.base}/long-page`));
    expect(again).toMatchObject({ hit: 1, miss: 0, pass: 0 });
    expect(again.value.status).toBe(200);
    expect(again.value.body.equals(first.body)).toBe(true);
    expect(h(again.value, "cache-control")).toBe("public, max-age=60");
    expect(h(again.value, "vary")).toContain("Accept-Encoding");
    expect(h(again.value, "etag")).toBe(h(first, "etag"));
    expect(Number(h(again.value, "age"))).toBeGreaterThanOrEqual(0);
    expect(h(again.value, "content-security-policy")).toBe(h(first, "content-security-policy"));
    // The request's id is the answer's, from memory too.
    const traced = await counted(gw, () => raw(gw.url, `${docs.base}/long-page`, { "X-Request-ID": "edge-cache-trace-1" }));
    expect(traced).toMatchObject({ hit: 1, miss: 0, pass: 0 });
    expect(h(traced.value, "x-request-id")).toBe("edge-cache-trace-1");
    expect(h(again.value, "x-request-id")).not.toBe(h(first, "x-request-id"));
    // The query's parameters in another order are the same page.
    const a = await raw(gw.url, `${docs.base}/guide?a=1&b=2`);
    const b = await counted(gw, () => raw(gw.url, `${docs.base}/guide?b=2&a=1`));
    expect(b).toMatchObject({ hit: 1, pass: 0, miss: 0 });
    expect(b.value.body.equals(a.body)).toBe(true);
  });

  test("If-None-Match with the page's ETag is a bodiless 304 from the cache", async () => {
    const [gw] = gateways;
    const page = await raw(gw.url, `${docs.base}/guide`);
    const etag = h(page, "etag");
    expect(etag).toMatch(/^"/);
    const revalidated = await counted(gw, () => raw(gw.url, `${docs.base}/guide`, { "If-None-Match": etag }));
    expect(revalidated).toMatchObject({ hit: 1, miss: 0, pass: 0 });
    expect(revalidated.value.status).toBe(304);
    expect(revalidated.value.body.length).toBe(0);
    expect(h(revalidated.value, "etag")).toBe(etag);
    const other = await raw(gw.url, `${docs.base}/guide`, { "If-None-Match": '"not-this-one"' });
    expect(other.status).toBe(200);
    expect(other.body.equals(page.body)).toBe(true);
  });

  test("gzip and brotli variants decode to the very same bytes, with their own ETags, and 304 on either", async () => {
    const [gw] = gateways;
    const plain = await raw(gw.url, `${docs.base}/long-page`);
    const gz = await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "gzip, deflate" });
    expect(h(gz, "content-encoding")).toBe("gzip");
    expect(gz.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(h(gz, "content-length"))).toBe(gz.body.length);
    expect(h(gz, "etag")).not.toBe(h(plain, "etag"));
    const br = await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "gzip, br" });
    expect(h(br, "content-encoding")).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // A coding refused with q=0 is not sent.
    const noBr = await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "br;q=0, gzip" });
    expect(h(noBr, "content-encoding")).toBe("gzip");
    expect(h(await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "identity" }), "content-encoding")).toBe("");
    expect((await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "gzip", "If-None-Match": h(gz, "etag") })).status).toBe(304);
    // HEAD: the headers, no body.
    const head = await raw(gw.url, `${docs.base}/long-page`, { "Accept-Encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(h(head, "content-length"))).toBe(gz.body.length);
  });

  test("the Markdown variant (Accept: text/markdown) is kept apart from the HTML page", async () => {
    const [gw] = gateways;
    const htmlPage = await raw(gw.url, `${docs.base}/guide`);
    const md = await raw(gw.url, `${docs.base}/guide`, { Accept: "text/markdown" });
    expect(h(md, "content-type")).toContain("text/markdown");
    const again = await raw(gw.url, `${docs.base}/guide`, { Accept: "text/markdown" });
    expect(again.body.equals(md.body)).toBe(true);
    expect(h(await raw(gw.url, `${docs.base}/guide`), "content-type")).toBe(h(htmlPage, "content-type"));
  });

  test("an unlisted site's pages are never kept", async () => {
    const [gw] = gateways;
    const unlisted = await publishedSite(sys, w, { visibility: "unlisted" });
    await raw(gw.url, `${unlisted.base}/guide`);
    const second = await counted(gw, () => raw(gw.url, `${unlisted.base}/guide`));
    expect(second.value.status).toBe(200);
    expect(second).toMatchObject({ hit: 0, miss: 0, pass: 1 });
  });

  test("a share-link page is never kept nor given to a reader without the key", async () => {
    const [gw] = gateways;
    const shared = await publishedSite(sys, w, { visibility: "share-link" });
    const link = (await w.owner.api.post(`${w.sites}/${shared.site.id}/share-links`, { name: "Partners" })).body;
    const key = new URL(link.urls.published).searchParams.get("share")!;
    for (let i = 0; i < 2; i++) {
      const opened = await counted(gw, () => raw(gw.url, `${shared.base}/guide?share=${encodeURIComponent(key)}`));
      expect(opened.value.status).toBe(200);
      expect(title(opened.value)).toBe("Guide");
      expect(opened).toMatchObject({ hit: 0, miss: 0 });
    }
    for (const gateway of gateways) {
      const anonymous = await raw(gateway.url, `${shared.base}/guide`);
      expect(anonymous.status).toBe(404);
      expect(anonymous.body.toString()).not.toContain("The guide.");
    }
  });

  test("attacker: an anonymous reader never gets the page a visitor-token reader read, nor its adaptive sections", async () => {
    const [gw] = gateways;
    const created = await newSite(w, { visibility: "visitor-auth", title: "Private docs" });
    const handbook = await newSection(w, created.id, "Handbook");
    await addPages(sys, handbook.siteSpaces[0].space.id, GUIDE_PAGES);
    const beta = await newSection(w, created.id, "Beta features");
    await addPages(sys, beta.siteSpaces[0].space.id, [{ title: "Beta home", markdown: "Only for beta." }]);
    expect((await w.owner.api.patch(`${w.sites}/${created.id}/sections/${beta.id}`, { condition: "visitor.claims.beta === true" })).status).toBe(200);
    const basename = unique("private");
    expect((await w.owner.api.patch(`${w.sites}/${created.id}`, { basename })).status).toBe(200);
    expect((await w.owner.api.post(`${w.sites}/${created.id}/publish`)).status).toBe(200);
    const base = `/sites/${basename}`;
    const key = (await w.owner.api.get(`${w.sites}/${created.id}/publishing/auth`)).body.privateKey as string;

    // Reader A, a beta visitor, by the token in the query, then by its cookie.
    const token = signToken(key, { aud: created.id, exp: now() + 600, beta: true });
    const a = await counted(gw, () => raw(gw.url, `${base}/guide?jwt_token=${token}`));
    expect(a.value.status).toBe(200);
    expect(h(a.value, "cache-control")).toBe("private, no-store");
    expect(a).toMatchObject({ hit: 0, miss: 0 });
    const cookie = String(a.value.headers["set-cookie"]).split(";")[0];
    for (let i = 0; i < 2; i++) {
      const byCookie = await counted(gw, () => raw(gw.url, `${base}/${beta.path}`, { Cookie: cookie }));
      expect(byCookie.value.status).toBe(200);
      expect(byCookie).toMatchObject({ hit: 0, miss: 0 });
    }
    // Reader B, anonymous, on every gateway: the sign-in page, never A's.
    for (const gateway of gateways) {
      for (const path of [`${base}/guide`, `${base}/${beta.path}`]) {
        const b = await raw(gateway.url, path);
        expect(b.status).toBe(401);
        expect(b.body.toString()).not.toContain("The guide.");
        expect(b.body.toString()).not.toContain("Beta home");
      }
    }
    // Reader C, a visitor without the beta claim: never A's adaptive section.
    const plain = signToken(key, { aud: created.id, exp: now() + 600 });
    const c = await raw(gw.url, `${base}/${beta.path}?jwt_token=${plain}`);
    expect(c.status).toBe(404);
    expect(c.body.toString()).not.toContain("Only for beta.");
  });

  test("a merged change request shows at once, through the gateway that took it and any other", async () => {
    const first = gateways[0];
    const second = gateways[gateways.length - 1];
    const path = `${docs.base}/guide`;
    // Both gateways hold the page.
    for (const gw of gateways) {
      await raw(gw.url, path);
      expect(await counted(gw, () => raw(gw.url, path))).toMatchObject({ hit: 1 });
    }
    // The API calls go to the first gateway (sys.url).
    const api = w.owner.api;
    const cr = await api.post(`/v1/spaces/${docs.spaceId}/change-requests`, { subject: "Rewrite the guide" });
    expect(cr.status).toBe(201);
    const crApi = `/v1/spaces/${docs.spaceId}/change-requests/${cr.body.id}`;
    const tree = await api.get(`${crApi}/content`);
    const guide = (tree.body.pages as Array<{ id: string; title: string }>).find((p) => p.title === "Guide")!;
    expect((await api.post(`${crApi}/content`, { changes: [{ operation: "update_page", page: guide.id, document: { markdown: "The guide, merged just now.\n" } }] })).status).toBe(200);
    expect((await api.post(`${crApi}/merge`)).status).toBe(200);
    for (const gw of [second, first]) {
      const after = await raw(gw.url, path);
      expect(after.status).toBe(200);
      expect(after.body.toString()).toContain("The guide, merged just now.");
    }
  });

  test("a customization, then an unpublish, show at once on every gateway", async () => {
    const site = await publishedSite(sys, w, { title: "Before" });
    const path = `${site.base}/guide`;
    for (const gw of gateways) {
      await raw(gw.url, path);
      expect(await counted(gw, () => raw(gw.url, path))).toMatchObject({ hit: 1 });
    }
    const custom = await w.owner.api.put(`${w.sites}/${site.site.id}/customization`, { title: "Renamed site" });
    expect(custom.status).toBe(200);
    for (const gw of [...gateways].reverse()) {
      const renamed = await raw(gw.url, path);
      expect(parse(renamed.body.toString()).querySelector("title")?.text).toBe("Guide | Renamed site");
    }
    expect((await w.owner.api.post(`${w.sites}/${site.site.id}/unpublish`)).status).toBe(200);
    for (const gw of [...gateways].reverse()) expect((await raw(gw.url, path)).status).toBe(404);
  });

  test("a Git sync import shows at once on every gateway, though none of them took part in it", async () => {
    const repo = unique("edge-repo");
    createRepo(git, repo, { "README.md": "# Home\n\nThe first import.\n", "SUMMARY.md": "# Contents\n\n* [Home](README.md)\n" });
    const spaceId = await newSpace(w, "Synced");
    const { runJob } = gitJobs(w.owner.api, w.owner.api);
    expect((await runJob(spaceId, "import", { url: git.url(repo), ref: "refs/heads/main" })).status).toBe("succeeded");
    const site = await newSite(w, { spaces: [spaceId], title: "Synced site" });
    const basename = unique("synced");
    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { basename })).status).toBe(200);
    expect((await w.owner.api.post(`${w.sites}/${site.id}/publish`)).status).toBe(200);
    const path = `/sites/${basename}`;
    for (const gw of gateways) {
      expect((await raw(gw.url, path)).body.toString()).toContain("The first import.");
      expect(await counted(gw, () => raw(gw.url, path))).toMatchObject({ hit: 1 });
    }
    commitFiles(git, repo, { "README.md": "# Home\n\nThe second import.\n" });
    // The job runs in git-sync (its own process over NATS); content commits the revision and broadcasts it.
    expect((await runJob(spaceId, "import", { url: git.url(repo), ref: "refs/heads/main" })).status).toBe("succeeded");
    for (const gw of [...gateways].reverse()) {
      const after = await raw(gw.url, path);
      expect(after.status).toBe(200);
      expect(after.body.toString()).toContain("The second import.");
    }
  }, 120_000);
});
