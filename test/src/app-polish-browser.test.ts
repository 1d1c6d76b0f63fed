// The app's polish in headless Chromium: a change request created as a draft, marked ready for review, its
// merge held back by the unticked confirmation box (the browser does not post the form) and done once it is
// ticked; the pages pass axe-core's WCAG 2.1 A/AA rules without serious violations and run no script; and the
// main pages do not overflow sideways on a 390 px wide screen. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch, signInWithToken } from "./browser";
import { seriousViolations } from "./axe";
import { start } from "./modes";
import { appWorld, pathOf, type AppWorld } from "./app-fixtures";

const suites = browserSuites("the app's polish browser suite");
suites("the app's polish in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `app-polish-${mode}-${name}.png`), fullPage: true });
  const statusOf = async (number: string): Promise<string> => (await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}`)).body.status;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    browser = await launchBrowser(sys.url);
    context = browser.context;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test("create a draft, mark it ready for review, merge it only once the confirmation is ticked", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    const spaceUrl = `${sys.url}${pathOf(w.urls.space)}`;
    await signInWithToken(page, spaceUrl, w.alice.token);

    await page.fill("#subject", "Polished");
    await page.click('button:text-is("Create change request")');
    await page.waitForURL(/\/~\/changes\/\d+$/);
    const number = /\/~\/changes\/(\d+)$/.exec(page.url())![1];
    expect(await page.textContent("p.meta:has-text('Status') .status")).toBe("draft");
    expect(await page.getAttribute("p.meta:has-text('Status') time", "title")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "draft");

    await page.click('button:text-is("Ready for review")');
    await page.waitForURL(/\/~\/changes\/\d+$/);
    expect(await page.textContent("p.meta:has-text('Status') .status")).toBe("open");
    expect(await statusOf(number)).toBe("open");

    // The merge button looks unlike Approve (another colour) and does nothing until the box is ticked.
    // (The test project has no DOM types: the browser's getComputedStyle typed as far as this needs.)
    type Styles = { getComputedStyle(el: unknown): { backgroundColor: string } };
    const colour = (selector: string) => page.locator(selector).first().evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor);
    expect(await colour("#merge button")).not.toBe(await colour('button:text-is("Approve")'));
    await page.click('#merge button:text-is("Merge")');
    expect(await page.evaluate<boolean>("document.querySelector('#merge-confirm').validity.valueMissing")).toBe(true);
    expect(await statusOf(number)).toBe("open");
    await page.check("#merge-confirm");
    await page.click('#merge button:text-is("Merge")');
    await page.waitForURL(/\/~\/changes\/\d+$/);
    expect(await page.textContent("p.meta:has-text('Status') .status")).toBe("merged");
    expect(await statusOf(number)).toBe("merged");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "merged");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("no main page overflows sideways at 390 px", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${sys.url}/app`);
    if (page.url().includes("/app/sign-in")) {
      await page.fill("#token", w.alice.token);
      await page.click('button:text-is("Sign in")');
      await page.waitForURL(`${sys.url}/app`);
    }
    const cr = pathOf(w.urls.changeRequest);
    const paths = [
      "/app",
      "/app/account",
      "/app/jump?q=e",
      pathOf(w.urls.site),
      pathOf(w.urls.org),
      `${pathOf(w.urls.org)}/settings`,
      pathOf(w.urls.collection),
      `${pathOf(w.urls.space)}/~/settings`,
      pathOf(w.urls.space),
      pathOf(w.urls.page),
      `${pathOf(w.urls.space)}/~/files`,
      `${pathOf(w.urls.space)}/~/history`,
      `${pathOf(w.urls.space)}/~/search?q=handbook`,
      cr,
      `${cr}/~diff`,
      `${cr}/~pages`,
      `${cr}/~files`,
      `${cr}/welcome?edit=1`,
    ];
    const overflowing: string[] = [];
    for (const path of paths) {
      const res = await page.goto(sys.url + path);
      expect(res?.status()).toBe(200);
      const { scroll, client } = await page.evaluate<{ scroll: number; client: number }>("({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })");
      if (scroll !== client) overflowing.push(`${path}: ${scroll} > ${client}`);
    }
    await shot(page, "narrow-change-request");
    expect(overflowing).toEqual([]);
    await page.close();
  });
});
