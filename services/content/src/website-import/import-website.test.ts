import { BadRequestError } from "@docshelf/errors";
import { SafeFetchError } from "@docshelf/safe-fetch";
import { html, startSite, testFetch, type Route, type RouteEntry, type Site } from "./__tests__/site";
import { htmlToMarkdownTask } from "./convert-task";
import { importWebsite } from "./import-website";

const sites: Site[] = [];
async function site(routes: Record<string, RouteEntry>, host?: string): Promise<Site> {
  const s = await startSite(routes, host);
  sites.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

/** A documentation site with navigation, an external link, assets, redirects and a non-HTML page. */
async function docsSite(other: Site): Promise<Site> {
  const nav = `<nav><a href="/">Home</a><a href="/guide?ref=nav">Guide</a><a href="/api/reference.html">API</a>
    <a href="/data.json">Data</a><a href="/logo.png">Logo</a><a href="/moved">Moved</a><a href="/old">Old</a>
    <a href="mailto:team@site.test">Mail</a><a href="${other.origin}/">Partner</a></nav>`;
  return site({
    "/": html("Acme Docs", `${nav}<main><h1>Welcome</h1><p>Start with the <a href="/guide#install">guide</a>.</p></main><footer>© Acme</footer>`),
    "/guide": html(
      "Guide | Acme",
      `${nav}<main><h1>Guide</h1>
        <h2 id="install">Install</h2><ol><li>Download</li><li>Run <code>acme init</code></li></ol>
        <ul><li>fast<ul><li>really</li></ul></li><li>small</li></ul>
        <pre><code class="language-bash">acme init --yes\n</code></pre>
        <table><thead><tr><th>Flag</th><th>Meaning</th></tr></thead><tbody><tr><td>--yes</td><td>no prompts</td></tr></tbody></table>
        <p>See <a href="/api/reference.html#auth">authentication</a>, <a href="/old">the old page</a> and <a href="${other.origin}/x">our partner</a>.</p>
      </main>`,
    ),
    "/api/reference.html": html("API", `${nav}<article><h1>API reference</h1><h2 id="auth">Auth</h2><p>Back <a href="/">home</a>.</p></article>`),
    "/data.json": { type: "application/json", body: '{"not":"html"}' },
    "/logo.png": { type: "image/png", body: "PNG" },
    "/moved": (origin) => ({ status: 302, headers: { location: `${other.origin}/landing` }, body: origin }),
    "/old": { status: 301, headers: { location: "/guide" } },
  });
}

describe("importWebsite", () => {
  it("hands every page's HTML, links rewritten, to `convert` at once and keeps its Markdown: the same pages as converting here", async () => {
    const other = await site({ "/": html("Partner", "<p>partner</p>") }, "127.0.0.2");
    const docs = await docsSite(other);
    const here = await importWebsite(`${docs.origin}/`, { fetch: testFetch });
    const batches: string[][] = [];
    const off = await importWebsite(`${docs.origin}/`, {
      fetch: testFetch,
      convert: async (htmls) => {
        batches.push(htmls);
        return htmlToMarkdownTask(htmls);
      },
    });
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(here.pages.length);
    expect(off.pages).toEqual(here.pages);
  });

  it("imports the start page and the same-site pages it links to, breadth-first and once each", async () => {
    const other = await site({ "/": html("Partner", "<p>partner</p>") }, "127.0.0.2");
    const docs = await docsSite(other);
    const result = await importWebsite(`${docs.origin}/`, { fetch: testFetch });

    expect(result.pages.map((p) => [p.path, p.title])).toEqual([
      ["index", "Welcome"],
      ["guide", "Guide"],
      ["api/reference", "API reference"],
    ]);
    expect(result.pages.map((p) => p.sourceUrl)).toEqual([`${docs.origin}/`, `${docs.origin}/guide`, `${docs.origin}/api/reference.html`]);
    expect(result.importedResources).toBe(3);
    // "/", "/guide", "/api/reference.html", "/data.json", "/moved", "/old"
    expect(result.totalResources).toBe(6);
    expect(docs.requested.filter((p) => p.startsWith("/guide"))).toEqual(["/guide"]);
    expect(new Set(docs.requested).size).toBe(docs.requested.length);
  });

  it("never contacts another origin, neither by link nor by redirect", async () => {
    const other = await site({ "/": html("Partner", "<p>partner</p>"), "/landing": html("Landing", "<p>landing</p>") }, "127.0.0.2");
    const docs = await docsSite(other);
    const result = await importWebsite(docs.origin, { fetch: testFetch });
    expect(docs.requested).toContain("/moved");
    expect(other.connections()).toBe(0);
    expect(result.pages.some((p) => p.title === "Landing" || p.title === "Partner")).toBe(false);
  });

  it("skips non-HTML responses and does not fetch asset links at all", async () => {
    const other = await site({}, "127.0.0.2");
    const docs = await docsSite(other);
    const result = await importWebsite(docs.origin, { fetch: testFetch });
    expect(docs.requested).toContain("/data.json");
    expect(docs.requested).not.toContain("/logo.png");
    expect(result.pages.map((p) => p.sourceUrl)).not.toContain(`${docs.origin}/data.json`);
  });

  it("converts headings, lists, code, tables and links to markdown, without scripts, styles, navigation or footer", async () => {
    const other = await site({}, "127.0.0.2");
    const docs = await docsSite(other);
    const { pages } = await importWebsite(docs.origin, { fetch: testFetch });
    const guide = pages.find((p) => p.path === "guide")!.markdown;

    expect(guide).toContain("## Install");
    expect(guide).toMatch(/1\. +Download\n2\. +Run `acme init`/);
    expect(guide).toMatch(/- +fast\n +- +really\n- +small/);
    expect(guide).toContain("```bash\nacme init --yes\n```");
    expect(guide).toMatch(/\| Flag +\| Meaning +\|\n\| -+ \| -+ \|\n\| \\?--yes +\| no prompts \|/); // turndown escapes a leading "-"
    expect(guide).not.toMatch(/secret|color:red|Partner|Home|©/);
    expect(guide.startsWith("# Guide")).toBe(false);
  });

  it("rewrites links between imported pages to relative page paths, others to absolute URLs", async () => {
    const other = await site({}, "127.0.0.2");
    const docs = await docsSite(other);
    const { pages } = await importWebsite(docs.origin, { fetch: testFetch });
    const byPath = Object.fromEntries(pages.map((p) => [p.path, p.markdown]));

    expect(byPath.index).toContain("[guide](guide#install)");
    expect(byPath.guide).toContain("[authentication](api/reference#auth)");
    expect(byPath.guide).toContain("[the old page](guide)"); // /old redirects to /guide
    expect(byPath.guide).toContain(`[our partner](${other.origin}/x)`);
    expect(byPath["api/reference"]).toContain("[home](../index)");
  });

  it("stops at maxPages, keeping the pages found first", async () => {
    const other = await site({}, "127.0.0.2");
    const docs = await docsSite(other);
    const result = await importWebsite(docs.origin, { fetch: testFetch, maxPages: 2 });
    expect(result.pages.map((p) => p.path)).toEqual(["index", "guide"]);
    expect(docs.requested).not.toContain("/api/reference.html");
    expect(result.totalResources).toBeGreaterThan(2);
  });

  it("stops when the bytes downloaded reach maxBytesTotal", async () => {
    const filler = "<p>" + "words ".repeat(300) + "</p>";
    const links = Array.from({ length: 10 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join("");
    const routes: Record<string, Route> = { "/": { body: html("Home", `<main>${links}${filler}</main>`) } };
    for (let i = 0; i < 10; i++) routes[`/p${i}`] = { body: html(`P${i}`, `<main>${filler}</main>`) };
    const big = await site(routes);
    const pageSize = Buffer.byteLength(routes["/p0"].body!);
    const startSize = Buffer.byteLength(routes["/"].body!);

    const result = await importWebsite(big.origin, { fetch: testFetch, maxBytesTotal: startSize + pageSize * 3 + 10 });
    expect(result.pages).toHaveLength(4);
    expect(big.requested.length).toBeLessThanOrEqual(5);
    expect(result.totalResources).toBe(11);
  });

  it("returns what it has when the time limit runs out on a page that never answers", async () => {
    const slow = await site({
      "/": html("Home", `<main><a href="/fast">fast</a><a href="/slow">slow</a><a href="/after">after</a></main>`),
      "/fast": html("Fast", "<main><p>fast</p></main>"),
      "/slow": { hang: true },
      "/after": html("After", "<main><p>after</p></main>"),
    });
    const result = await importWebsite(slow.origin, { fetch: testFetch, timeoutMs: 1500 });
    expect(result.pages.map((p) => p.path)).toEqual(["index", "fast"]);
    expect(slow.requested).not.toContain("/after");
  });

  it("gives pages whose URLs slug alike distinct paths", async () => {
    const s = await site({
      "/": html("Home", `<main><a href="/Guide">one</a><a href="/guide.html">two</a></main>`),
      "/Guide": html("One", "<main><p>1</p></main>"),
      "/guide.html": html("Two", "<main><p>2</p></main>"),
    });
    const { pages } = await importWebsite(s.origin, { fetch: testFetch });
    expect(pages.map((p) => p.path)).toEqual(["index", "guide", "guide-2"]);
    expect(pages[0].markdown).toBe("[one](guide)[two](guide-2)");
  });
});

describe("importWebsite refusals", () => {
  it("refuses a private start URL under the default fetch without connecting", async () => {
    const s = await site({ "/": html("Home", "<p>x</p>") });
    const err = await importWebsite(s.origin).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).reason).toBe("private-address");
    expect(s.connections()).toBe(0);
  });

  it.each([
    ["ftp://127.0.0.1/", "scheme"],
    ["not a url", "bad-url"],
  ])("refuses %s with reason %s", async (url, reason) => {
    await expect(importWebsite(url, { fetch: testFetch })).rejects.toMatchObject({ code: 400, data: { reason } });
  });

  it("refuses a start page that is not HTML or not found, with a 400", async () => {
    const s = await site({ "/file": { type: "application/pdf", body: "%PDF" } });
    await expect(importWebsite(`${s.origin}/file`, { fetch: testFetch })).rejects.toThrow(BadRequestError);
    await expect(importWebsite(`${s.origin}/missing`, { fetch: testFetch })).rejects.toThrow(/answered 404/);
  });

  it("follows redirects of the start page within the allowance", async () => {
    const s = await site({
      "/": { status: 302, headers: { location: "/docs/" } },
      "/docs/": html("Docs", `<main><h1>Docs home</h1><a href="/">root</a></main>`),
    });
    const result = await importWebsite(s.origin, { fetch: testFetch });
    expect(result.pages.map((p) => [p.path, p.title])).toEqual([["docs", "Docs home"]]);
    expect(result.pages[0].markdown).toBe("[root](docs)");
  });

  it.each([0, -1, 1.5])("refuses maxPages %p with a 400", async (maxPages) => {
    await expect(importWebsite("http://127.0.0.1/", { fetch: testFetch, maxPages })).rejects.toThrow(BadRequestError);
  });
});
