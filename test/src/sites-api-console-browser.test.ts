// The "Test it" console of a published page's API block in Chromium (Debian's `chromium`, playwright-core): the
// page links to its console page (and loads none of the console's script itself), the console (Scalar's API client,
// bundled and served by the site) opens on the block's operation, sends the request from the browser to the spec's
// server (a loopback server this test starts) and shows its answer; no CSP violation, and a spec whose summary,
// description and example carry script runs none. Another spec of the organization, or an operation no block of the
// page names, is no console (404). A spec the organization registered by URL (fetched by the openapi service from
// the loopback server, on a port the shared systems may reach: shared-ports.ts) gets the same console, named by GitBook's URL block
// (`{% openapi src="…" %}`) as well as by slug, its relative server resolved against where the spec came from; a
// block naming a URL no spec was registered with has no console and makes nothing fetch it. Screenshots go to
// test/artifacts/api-console-*.png.
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch } from "./browser";
import { start } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { listenOnSharedPort } from "./shared-ports";
import { publishedSite, rawGet, unique, type PublishedSite } from "./sites-serve-fixtures";

const XSS = '<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=1</script>';

/** The spec the loopback server serves at /specs/pets.json: its server relative to where it is (OpenAPI's rule). */
const URL_SPEC = {
  openapi: "3.0.3",
  info: { title: "Pets by URL", version: "1.0.0" },
  servers: [{ url: "/v1" }],
  paths: { "/pets": { get: { summary: "List pets (URL spec)", responses: { "200": { description: "The pets" } } } } },
};

function petsSpec(server: string): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1.0.0", description: `The pets API ${XSS}` },
    servers: [{ url: server }],
    paths: {
      "/pets": {
        get: {
          summary: `List pets ${XSS}`,
          description: `Lists every pet. ${XSS} [a link](javascript:window.__xss=1)`,
          parameters: [{ name: "limit", in: "query", schema: { type: "integer" }, example: 2, description: XSS }],
          responses: { "200": { description: "The pets", content: { "application/json": { example: { pets: [XSS] } } } } },
        },
      },
      "/secret": { get: { summary: "Not on any page", responses: { "200": { description: "ok" } } } },
    },
  };
}

const suites = browserSuites("the browser suite of the API console");
suites("the API blocks' Test it console in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let api: Server;
  let apiUrl: string;
  const received: string[] = [];
  const slug = unique("pets").toLowerCase();
  const urlSlug = unique("pets-url").toLowerCase();
  let specUrl: string;

  beforeAll(async () => {
    api = createServer((req, res) => {
      // A real API answers the browser's CORS preflight and request; this one says so for any origin.
      res.setHeader("Access-Control-Allow-Origin", "*");
      res.setHeader("Access-Control-Allow-Headers", "*");
      if (req.method === "OPTIONS") return void res.writeHead(204).end();
      received.push(`${req.method} ${req.url}`);
      if (req.url === "/specs/pets.json") return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(URL_SPEC));
      if (req.url?.startsWith("/v1/pets")) return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ pets: ["tom-from-the-url-spec-server"] }));
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ pets: ["rex-from-the-loopback-server"] }));
    });
    // A port the shared systems may reach: the openapi service fetches the URL spec from this server.
    apiUrl = `http://127.0.0.1:${await listenOnSharedPort(api)}`;
    specUrl = `${apiUrl}/specs/pets.json`;

    sys = await start(mode);
    w = await sitesWorld(sys);
    const byUrl = await w.owner.api.post(`/v1/orgs/${w.orgId}/openapi`, { slug: urlSlug, source: { url: specUrl } });
    expect(byUrl.status).toBe(201);
    const spec = await w.owner.api.post(`/v1/orgs/${w.orgId}/openapi`, { slug, source: { text: JSON.stringify(petsSpec(apiUrl)) } });
    expect(spec.status).toBe(201);
    const other = await w.owner.api.post(`/v1/orgs/${w.orgId}/openapi`, { slug: `${slug}-other`, source: { text: JSON.stringify(petsSpec(apiUrl)) } });
    expect(other.status).toBe(201);
    for (const s of [slug, `${slug}-other`, urlSlug]) {
      const deadline = Date.now() + 30_000;
      while ((await w.owner.api.get(`/v1/orgs/${w.orgId}/openapi/${s}`)).body.processingState !== "complete") {
        if (Date.now() > deadline) throw new Error(`spec ${s} was not processed`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    docs = await publishedSite(sys, w, {
      title: "API site",
      pages: [
        { id: "intro", title: "Intro", markdown: "The API.\n" },
        { id: "pets", title: "Pets", markdown: `{% openapi-operation spec="${slug}" path="/pets" method="get" %}\n[OpenAPI ${slug}](https://example.com/${slug}.json)\n{% endopenapi-operation %}\n` },
        // GitBook's block for a spec given by URL, and the same spec by its slug.
        { id: "url-pets", title: "URL pets", markdown: `{% openapi src="${specUrl}" path="/pets" method="get" %}\n[pets.json](${specUrl})\n{% endopenapi %}\n` },
        { id: "url-slug", title: "URL slug", markdown: `{% openapi-operation spec="${urlSlug}" path="/pets" method="get" %}\n{% endopenapi-operation %}\n` },
        // A URL no spec of the organization was registered with.
        { id: "unregistered", title: "Unregistered", markdown: `{% openapi src="${apiUrl}/specs/unregistered.json" path="/pets" method="get" %}\n{% endopenapi %}\n` },
      ],
    });
    browser = await launchBrowser(sys.url, [apiUrl]);
    context = browser.context;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
    await new Promise((resolve) => api?.close(resolve));
  });

  test("the console opens on the block's operation, sends the request from the browser to the spec's server and shows the answer, with no CSP violation and no script from the spec", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    // Every CSP violation the page reports, whatever the console prints.
    await page.addInitScript("window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber));");
    await page.goto(`${sys.url}${docs.base}/pets`);
    // The page with the block loads only the site's own script, never the console's.
    const scripts = await page.evaluate<string[]>("[...document.scripts].map((s) => s.getAttribute('src'))");
    expect(scripts.every((src) => !!src && src.startsWith(`${docs.base}/~site.`))).toBe(true);
    const tryIt = page.locator(".api-card a.api-try");
    expect(await tryIt.textContent()).toBe("Test it");
    await tryIt.click();
    await page.waitForURL((url) => url.pathname === `${docs.base}/pets/~api-console`);
    await page.waitForSelector("html[data-console-ready]", { timeout: 30_000 });
    const send = page.getByRole("button", { name: /^send/i }).first();
    await send.waitFor({ state: "visible", timeout: 30_000 });
    expect(await page.locator(`text=${apiUrl}`).count()).toBeGreaterThan(0);
    await send.click();
    // (A locator, not waitForFunction: the page's CSP refuses the string evaluation that would poll with.)
    await page.getByText("rex-from-the-loopback-server").first().waitFor({ timeout: 30_000 });
    expect(received.some((r) => r.startsWith("GET /pets"))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `api-console-${mode}.png`) });
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.evaluate<string[]>("window.__csp")).toEqual([]);
    expect(trace.dialogs).toEqual([]);
    expect(trace.errors).toEqual([]);
    expect(trace.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
    await page.close();
  }, 120_000);

  test("the API block shows the hosted spec's operation (parameters, responses with examples), the spec's markup inert, in the page and in Chromium", async () => {
    const res = await rawGet(sys.url, `${docs.base}/pets`);
    expect(res.status).toBe(200);
    const start = res.text.indexOf('<div class="api-card">');
    expect(start).toBeGreaterThanOrEqual(0);
    const card = res.text.slice(start, res.text.indexOf("api-try", start)); // the card, up to its Test it link
    expect(card).toContain("List pets");
    expect(card).toContain("<strong>Parameters</strong>");
    expect(card).toContain("<code>limit</code>");
    expect(card).toContain("<code>200</code> The pets");
    expect(card).toMatch(/<pre class="api-example"><code>[^<]*pets/);
    expect(res.text).not.toMatch(/<[^>]*\son\w+=|href="javascript:/i);
    expect(res.text).not.toContain("<script>window.__xss");
    const page = await context.newPage();
    await page.goto(`${sys.url}${docs.base}/pets`);
    await page.waitForSelector(".api-card .api-example");
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    await page.close();
  });

  test("the console page's CSP allows the spec's server and inline styles only there; its assets are hashed and immutable", async () => {
    const res = await rawGet(sys.url, `${docs.base}/pets/~api-console?spec=${slug}&method=get&path=%2Fpets`);
    expect(res.status).toBe(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain(`connect-src 'self' ${apiUrl}`);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const page = await rawGet(sys.url, `${docs.base}/pets`);
    expect(String(page.headers["content-security-policy"])).toContain("style-src 'self';");
    const js = /src="([^"]+\/~console-[A-Z0-9]+\.js)"/.exec(res.text)?.[1];
    expect(js).toBeDefined();
    const asset = await rawGet(sys.url, js!);
    expect(asset.status).toBe(200);
    expect(String(asset.headers["cache-control"])).toBe("public, max-age=31536000, immutable");
    expect(asset.text.length).toBeGreaterThan(100_000);
    // The spec's text is inert data: no `</script>` can close the data block.
    expect(res.text).not.toContain("<script>window.__xss");
  });

  test("attacker: another spec of the organization, an operation the page does not name, or a page without the block is no console (404)", async () => {
    for (const path of [
      `${docs.base}/pets/~api-console?spec=${slug}-other&method=get&path=%2Fpets`,
      `${docs.base}/pets/~api-console?spec=${slug}&method=get&path=%2Fsecret`,
      `${docs.base}/pets/~api-console?spec=${slug}&method=post&path=%2Fpets`,
      `${docs.base}/~api-console?spec=${slug}&method=get&path=%2Fpets`,
      `${docs.base}/pets/~api-console?spec=${slug}&method=get`,
      `${docs.base}/pets/~api-console?spec=..%2F..&method=get&path=%2Fpets`,
    ]) {
      const res = await rawGet(sys.url, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
  test("a spec registered by URL: GitBook's URL block gets the Test it console, which sends the request to the spec's relative server as resolved against the spec's URL", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await page.addInitScript("window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));");
    await page.goto(`${sys.url}${docs.base}/url-pets`);
    // The card shows the registered spec's operation, as a `spec=` block would.
    expect(await page.locator(".api-card .api-summary").textContent()).toBe("List pets (URL spec)");
    const tryIt = page.locator(".api-card a.api-try");
    expect(await tryIt.getAttribute("href")).toBe(`${docs.base}/url-pets/~api-console?spec=${urlSlug}&method=get&path=%2Fpets`);
    await tryIt.click();
    await page.waitForURL((url) => url.pathname === `${docs.base}/url-pets/~api-console`);
    await page.waitForSelector("html[data-console-ready]", { timeout: 30_000 });
    const send = page.getByRole("button", { name: /^send/i }).first();
    await send.waitFor({ state: "visible", timeout: 30_000 });
    await send.click();
    await page.getByText("tom-from-the-url-spec-server").first().waitFor({ timeout: 30_000 });
    expect(received.some((r) => r.startsWith("GET /v1/pets"))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `api-console-url-spec-${mode}.png`) });
    expect(await page.evaluate<string[]>("window.__csp")).toEqual([]);
    expect(trace.errors).toEqual([]);
    await page.close();
  }, 120_000);

  test("a spec registered by URL, named by slug: the console page's data and CSP name the server resolved against the spec's URL", async () => {
    for (const holder of ["url-slug", "url-pets"]) {
      const res = await rawGet(sys.url, `${docs.base}/${holder}/~api-console?spec=${urlSlug}&method=get&path=%2Fpets`);
      expect({ holder, status: res.status }).toEqual({ holder, status: 200 });
      expect(String(res.headers["content-security-policy"])).toContain(`connect-src 'self' ${apiUrl}`);
      const data = JSON.parse(/<script type="application\/json" id="api-console-data">([^<]*)<\/script>/.exec(res.text)?.[1] ?? "null");
      expect(data.document.servers).toEqual([{ url: `${apiUrl}/v1` }]);
    }
    // The text spec (no location) is left as it was.
    const text = await rawGet(sys.url, `${docs.base}/pets/~api-console?spec=${slug}&method=get&path=%2Fpets`);
    expect(JSON.parse(/id="api-console-data">([^<]*)</.exec(text.text)?.[1] ?? "null").document.servers).toEqual([{ url: apiUrl }]);
  });

  test("attacker: a block naming a URL no spec was registered with has no console, and the site fetches nothing from it", async () => {
    const res = await rawGet(sys.url, `${docs.base}/unregistered`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('class="api-card"');
    expect(res.text).not.toContain("api-try");
    expect(received.some((r) => r.includes("unregistered"))).toBe(false);
    // The registered spec's console is not reachable through the page that does not name it.
    const other = await rawGet(sys.url, `${docs.base}/unregistered/~api-console?spec=${urlSlug}&method=get&path=%2Fpets`);
    expect(other.status).toBe(404);
  });
});
