// Published sites in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core)
// walks a site's navigation, searches, is refused on a share-link site without the key and let in
// with it, and renders the whole XSS corpus without running any script. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { XSS_CORPUS } from "@docshelf/document/dist/xss-corpus";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch, waitForTrue } from "./browser";
import { start } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { publishedSite, setVariables, type PublishedSite } from "./sites-serve-fixtures";

const suites = browserSuites("the browser suite of published sites");
suites("published sites in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `sites-${mode}-${name}.png`), fullPage: true });

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
    browser = await launchBrowser(sys.url);
    context = browser.context;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test("a visitor opens the site and walks its navigation, previous and next", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    const opened = await page.goto(`${sys.url}${docs.base}`);
    expect(opened?.status()).toBe(200);
    expect(await page.title()).toBe("Introduction | Docs site");
    await shot(page, "home");

    await page.click('nav.sidebar a:text-is("Guide")');
    await page.waitForURL(`${sys.url}${docs.base}/guide`);
    expect(await page.textContent("article h1")).toBe("Guide");
    // The guide's branch opens: its child is in the navigation now.
    await page.click('nav.sidebar a:text-is("Advanced")');
    await page.waitForURL(`${sys.url}${docs.base}/guide/advanced`);
    expect(await page.textContent("article h1")).toBe("Advanced");
    await page.click('a[rel="next"]');
    await page.waitForURL(`${sys.url}${docs.base}/faq`);
    await page.click('a[rel="prev"]');
    await page.waitForURL(`${sys.url}${docs.base}/guide/advanced`);
    await shot(page, "nested-page");

    await page.goto(`${sys.url}${docs.base}`);
    await page.click('aside.toc a:text-is("Install the tool")');
    expect(page.url()).toBe(`${sys.url}${docs.base}#install-the-tool`);
    // The stylesheet is served and applied under the strict CSP: the layout is a grid.
    expect(await page.evaluate("getComputedStyle(document.querySelector('.layout')).display")).toBe("grid");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("the search box finds a page and leads to it", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}${docs.base}/guide`);
    await page.fill('form.search input[name="q"]', "zeppelins");
    await page.press('form.search input[name="q"]', "Enter");
    await page.waitForURL(/~search\?q=zeppelins$/);
    expect(await page.$$eval("ol.search-results > li > a", (links) => links.map((a) => a.textContent))).toEqual(["Advanced"]);
    await shot(page, "search");
    await page.click('ol.search-results > li > a:text-is("Advanced")');
    await page.waitForURL(`${sys.url}${docs.base}/guide/advanced`);
    expect(await page.textContent("article h1")).toBe("Advanced");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("a share-link site refuses a visitor without the key and lets one with it in, keeping the key for the next page", async () => {
    const shared = await publishedSite(sys, w, { visibility: "share-link", title: "Partner docs" });
    const link = (await w.owner.api.post(`${w.sites}/${shared.site.id}/share-links`, { name: "Browser" })).body;
    const page = await context.newPage();
    const refused = await page.goto(`${sys.url}${shared.base}/guide`);
    expect(refused?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Page not found");
    await shot(page, "share-link-refused");

    const opened = await page.goto(link.urls.published);
    expect(opened?.status()).toBe(200);
    expect(await page.title()).toBe("Introduction | Partner docs");
    await page.click('nav.sidebar a:text-is("Guide")');
    await page.waitForURL(`${sys.url}${shared.base}/guide`);
    expect(await page.textContent("article h1")).toBe("Guide");
    await shot(page, "share-link-opened");
    const cookies = await context.cookies(`${sys.url}${shared.base}/guide`);
    expect(cookies.find((c) => c.name === "docshelf_share")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: shared.base });
    await page.close();
  });

  test("the watch notices script that runs: a handler without the sites' CSP sets the marker and opens a dialog", async () => {
    // A control for the corpus test below: outside the served pages the same payload does run.
    const page = await context.newPage();
    const trace = watch(page);
    await page.setContent('<img src="/nothing.png" onerror="window.__xss=1; alert(1)">');
    await waitForTrue(page, "window.__xss === 1");
    expect(trace.dialogs).toEqual(["alert: 1"]);
    await page.close();
  });

  test("no case of the XSS corpus runs script in the browser", async () => {
    const pages = XSS_CORPUS.map((c, i) => ({ id: `xss${i}`, title: `Case ${i}`, markdown: c.markdown }));
    const site = await publishedSite(sys, w, { pages, title: "XSS corpus" });
    await setVariables(sys, site.spaceId, { evil: "<script>window.__xss=1</script><img src=x onerror=alert(1)>" });
    const page = await context.newPage();
    const trace = watch(page);
    const failures: string[] = [];
    for (const [i, c] of XSS_CORPUS.entries()) {
      const res = await page.goto(`${sys.url}${site.base}${i === 0 ? "" : `/case-${i}`}`);
      if (res?.status() !== 200) failures.push(`${c.name}: status ${res?.status()}`);
      // Give handlers (onerror, onload, autofocus) a chance to fire before looking.
      await page.waitForLoadState("load");
      const marker = await page.evaluate("window.__xss");
      if (marker !== undefined) failures.push(`${c.name}: window.__xss was set`);
      // The site's own hashed script (theme, tabs, copy) is the only script element a page may hold.
      if (await page.$(`script:not([src^="${site.base}/~site."])`)) failures.push(`${c.name}: a script element is in the page`);
      if (trace.dialogs.length || trace.errors.length || trace.console.length) {
        failures.push(`${c.name}: ${JSON.stringify(trace)}`);
        trace.dialogs.length = trace.errors.length = trace.console.length = 0;
      }
      if (i === 0 || c.name === "img onerror" || c.name === "table cell with script") await shot(page, `xss-${i}`);
    }
    expect(failures).toEqual([]);
    await page.close();
  }, 120_000);
});
