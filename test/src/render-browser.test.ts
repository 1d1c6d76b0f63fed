// The renderer's blocks on a published site in Chromium (Debian's `chromium`, playwright-core): every
// block type of the fixture page shows in both themes and at 1366 and 390 px, nothing overflows the
// phone's width, the page tree opens as a drawer, tabs switch and code copies with the site's one
// script (and read without it), the theme toggle is remembered, and the XSS corpus inside every block
// type runs no script. Screenshots go to test/artifacts/render-*.png: the whole blocks page, and each block
// alone as render-{mode}-block-{block}-{width}-{theme}.png, each checked to be a real PNG of some size.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { BLOCK_SELECTORS, BLOCKS_PAGE } from "@docshelf/document/dist/blocks-fixture";
import { XSS_BLOCK_TEMPLATES, xssInBlocks } from "@docshelf/document/dist/xss-corpus";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch, waitForTrue } from "./browser";
import { start } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { GUIDE_PAGES, publishedSite, setVariables, type PublishedSite } from "./sites-serve-fixtures";

const WIDTHS = [1366, 390] as const;
const THEMES = ["light", "dark"] as const;
const BACKGROUND = { light: "rgb(255, 255, 255)", dark: "rgb(13, 17, 23)" };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A screenshot file that exists and is a PNG of at least `minWidth` × 16 pixels and 400 bytes (a blank strip is less). */
function expectPng(path: string, minWidth: number): Buffer {
  expect(existsSync(path)).toBe(true);
  const png = readFileSync(path);
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString("latin1", 12, 16)).toBe("IHDR");
  expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(minWidth);
  expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(16);
  expect(png.length).toBeGreaterThan(400);
  return png;
}

const fileName = (name: string) => name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();

const suites = browserSuites("the browser suite of rendered blocks");
suites("rendered blocks in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `render-${mode}-${name}.png`), fullPage: true });
  const blocksUrl = () => `${sys.url}${docs.base}/blocks`;
  // Page-side expressions are strings: this project's TypeScript has no DOM library.
  const fits = (page: Page) => page.evaluate<number[]>("[document.documentElement.scrollWidth, document.documentElement.clientWidth]");
  const background = (page: Page) => page.evaluate<string>("getComputedStyle(document.body).backgroundColor");

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w, { pages: [
        ...GUIDE_PAGES,
        { id: "blocks", title: "Blocks", markdown: BLOCKS_PAGE },
        { id: "refs", title: "References", markdown: '{% content-ref url="guide.md" %}\n[guide.md](guide.md)\n{% endcontent-ref %}\n' },
      ], title: "Render site" });
    browser = await launchBrowser(sys.url);
    context = browser.context;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test.each(WIDTHS.flatMap((width) => THEMES.map((theme) => [width, theme] as const)))(
    "every block type shows at %i px in the %s theme, within the width",
    async (width, theme) => {
      const page = await context.newPage();
      const trace = watch(page);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      const res = await page.goto(blocksUrl());
      expect(res?.status()).toBe(200);
      await page.waitForLoadState("load");
      const missing: string[] = [];
      for (const [name, selector] of Object.entries(BLOCK_SELECTORS)) {
        if ((await page.locator(selector).count()) === 0) missing.push(`${name} (${selector})`);
      }
      expect(missing).toEqual([]);
      // The visible ones show (hidden tab panels and the heading icon before hover aside).
      for (const selector of [".hint.hint-warning", ".code-block .code-title", "details.expandable summary", "ol.stepper li.step", ".cards .card", ".columns .column", ".table-wrap table", "a.file-card", "a.embed-card", "a.content-ref", "a.button.primary", ".math-block math", ".api-card"]) {
        expect(await page.locator(selector).first().isVisible()).toBe(true);
      }
      expect(await background(page)).toBe(BACKGROUND[theme]);
      const [scrollWidth, clientWidth] = await fits(page);
      expect(scrollWidth).toBe(clientWidth);
      if (width === 390) {
        // Long code scrolls inside its block, not the page.
        const code = await page.evaluate<{ scroll: number; client: number; overflow: string }>(
          "(() => { const pre = document.querySelectorAll('pre.code')[1]; return { scroll: pre.scrollWidth, client: pre.clientWidth, overflow: getComputedStyle(pre).overflowX }; })()",
        );
        expect(code.scroll).toBeGreaterThan(code.client);
        expect(code.overflow).toBe("auto");
      }
      await shot(page, `blocks-${width}-${theme}`);
      expectPng(join(ARTIFACTS, `render-${mode}-blocks-${width}-${theme}.png`), width);
      // Each block alone: a strip of the page's width around the block (the first visible element of its
      // selector, or its nearest ancestor with a size when the element itself has none), scrolled to the middle of
      // the viewport and taken from it; a full-page picture clipped to it cost a whole page's rendering per block.
      const hashes = new Set<string>();
      for (const [name, selector] of Object.entries(BLOCK_SELECTORS)) {
        const box = await page.evaluate<{ top: number; height: number; viewport: number } | null>(`(() => {
          for (const found of document.querySelectorAll(${JSON.stringify(selector)})) {
            for (let el = found; el; el = el.parentElement) {
              if (el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0) {
                el.scrollIntoView({ block: "center", behavior: "instant" });
                const r = el.getBoundingClientRect();
                return { top: r.top, height: r.height, viewport: window.innerHeight };
              }
            }
          }
          return null;
        })()`);
        expect({ name, found: box !== null }).toEqual({ name, found: true });
        const path = join(ARTIFACTS, `render-${mode}-block-${fileName(name)}-${width}-${theme}.png`);
        const top = Math.max(0, Math.floor(box!.top) - 12);
        const height = Math.min(box!.viewport - top, Math.max(48, Math.ceil(box!.height) + 24));
        await page.screenshot({ path, clip: { x: 0, y: top, width, height } });
        hashes.add(createHash("sha256").update(expectPng(path, width)).digest("hex"));
      }
      // Different blocks make different pictures (a broken clip would repeat one strip).
      expect(hashes.size).toBeGreaterThan(Object.keys(BLOCK_SELECTORS).length / 2);
      expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
      await page.close();
    },
    120_000,
  );

  test("at 390 px the page tree is a drawer behind a menu button, and the search box fits", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${sys.url}${docs.base}/guide`);
    expect(await page.locator("nav.sidebar").isVisible()).toBe(false);
    const search = await page.locator('form.search input[name="q"]').boundingBox();
    expect(search!.x + search!.width).toBeLessThanOrEqual(390);
    await page.click("a.menu-button");
    expect(await page.locator("nav.sidebar").isVisible()).toBe(true);
    await shot(page, "drawer-390");
    await page.click('nav.sidebar a:text-is("FAQ")');
    await page.waitForURL(`${sys.url}${docs.base}/faq`);
    expect(await page.locator("nav.sidebar").isVisible()).toBe(false);
    const [scrollWidth, clientWidth] = await fits(page);
    expect(scrollWidth).toBe(clientWidth);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("tabs switch, code copies, and headings link to themselves", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sys.url });
    await page.goto(blocksUrl());
    const panels = page.locator(".tabs .tab-panel");
    expect(await panels.nth(0).isVisible()).toBe(true);
    expect(await panels.nth(1).isVisible()).toBe(false);
    await page.click('.tabs [role="tab"]:text-is("yarn")');
    expect(await panels.nth(0).isVisible()).toBe(false);
    expect(await panels.nth(1).isVisible()).toBe(true);
    expect(await page.locator('.tabs [role="tab"]:text-is("yarn")').getAttribute("aria-selected")).toBe("true");

    await page.locator(".code-block").first().locator("button.copy").click();
    await waitForTrue(page, "document.querySelector('.code-block button.copy')?.textContent === 'Copied'");
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(await page.locator(".code-block pre code").first().textContent());

    await page.hover("h2#tabs");
    await page.click("h2#tabs a.anchor");
    expect(page.url()).toBe(`${blocksUrl()}#tabs`);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("a content-ref to a page of the site is a card with that page's title, leading to it", async () => {
    const page = await context.newPage();
    await page.goto(`${sys.url}${docs.base}/references`);
    expect(await page.textContent("a.content-ref .content-ref-title")).toBe("Guide");
    await page.click("a.content-ref");
    await page.waitForURL(`${sys.url}${docs.base}/guide`);
    await page.close();
  });

  test("without the script every tab shows with its title, and the page still reads", async () => {
    const page = await context.newPage();
    await page.route("**/~site.*.js", (route) => route.abort());
    await page.goto(blocksUrl());
    expect(await page.locator(".tabs .tab-panel").nth(0).isVisible()).toBe(true);
    expect(await page.locator(".tabs .tab-panel").nth(1).isVisible()).toBe(true);
    expect(await page.locator(".tab-title").allTextContents()).toEqual(["npm", "yarn"]);
    expect(await page.locator("button.copy").count()).toBe(0);
    await shot(page, "no-script");
    await page.close();
  });

  test("the theme toggle switches to dark and is remembered; a site without the toggle keeps its fixed theme", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(blocksUrl());
    expect(await background(page)).toBe(BACKGROUND.light);
    await page.click("button.theme-toggle");
    expect(await page.getAttribute("html", "data-theme")).toBe("dark");
    expect(await background(page)).toBe(BACKGROUND.dark);
    await page.reload();
    expect(await background(page)).toBe(BACKGROUND.dark);
    expect(await page.getAttribute("button.theme-toggle", "aria-pressed")).toBe("true");
    await page.click("button.theme-toggle");
    await page.reload();
    expect(await background(page)).toBe(BACKGROUND.light);

    const fixed = await publishedSite(sys, w, { title: "Dark site" });
    const put = await w.owner.api.put(`${w.sites}/${fixed.site.id}/customization`, { themes: { default: "dark", toggeable: false } });
    expect(put.status).toBe(200);
    await page.goto(`${sys.url}${fixed.base}`);
    expect(await background(page)).toBe(BACKGROUND.dark);
    expect(await page.locator("button.theme-toggle").count()).toBe(0);
    await shot(page, "fixed-dark");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("the XSS corpus inside every block type runs no script", async () => {
    const blocks = Object.keys(XSS_BLOCK_TEMPLATES);
    const cases = xssInBlocks();
    const pages = blocks.map((block, i) => ({
      id: `xss${i}`,
      title: `Block ${i}`,
      markdown: cases.filter((c) => c.block === block).map((c) => c.markdown).join("\n\n"),
    }));
    const site = await publishedSite(sys, w, { pages, title: "XSS blocks" });
    await setVariables(sys, site.spaceId, { evil: "<script>window.__xss=1</script><img src=x onerror=alert(1)>" });
    const page = await context.newPage();
    const trace = watch(page);
    const failures: string[] = [];
    for (const [i, block] of blocks.entries()) {
      const res = await page.goto(`${sys.url}${site.base}${i === 0 ? "" : `/block-${i}`}`);
      if (res?.status() !== 200) failures.push(`${block}: status ${res?.status()}`);
      await page.waitForLoadState("load");
      if ((await page.evaluate("window.__xss")) !== undefined) failures.push(`${block}: window.__xss was set`);
      if (await page.$(`script:not([src^="${site.base}/~site."])`)) failures.push(`${block}: a script element is in the page`);
      if (trace.dialogs.length || trace.errors.length || trace.console.length) {
        failures.push(`${block}: ${JSON.stringify(trace)}`);
        trace.dialogs.length = trace.errors.length = trace.console.length = 0;
      }
      if (i < 3) await shot(page, `xss-block-${i}`);
    }
    expect(failures).toEqual([]);
    await page.close();
  }, 240_000);
});
