// A space's history in headless Chromium: from the space page to its history, two revisions picked with
// the radio buttons and compared (the changed page's diff), an old revision's page opened and restored as a
// new change request that the browser lands on; the history, revision and compare pages pass axe-core's
// WCAG 2.1 A/AA rules without serious violations, and run no script. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch, signInWithToken } from "./browser";
import { seriousViolations } from "./axe";
import { start } from "./modes";
import { appWorld, pathOf, type AppWorld } from "./app-fixtures";

const suites = browserSuites("the app's history browser suite");
suites("a space's history in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `app-history-${mode}-${name}.png`), fullPage: true });

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    browser = await launchBrowser(sys.url);
    context = browser.context;
    // One merged change request rewording Welcome: the history's newest revision.
    const pages = await w.alice.api.get(`/v1/spaces/${w.spaceId}/content`);
    const welcome = (pages.body.pages as Array<{ id: string; title: string }>).find((p) => p.title === "Welcome")!;
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Reword the welcome" });
    expect(cr.status).toBe(201);
    const api = `/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}`;
    expect((await w.alice.api.post(`${api}/content`, { changes: [{ operation: "update_page", page: welcome.id, document: { markdown: "# Welcome\n\nThe **handbook** begins here.\n" } }] })).status).toBe(200);
    expect((await w.alice.api.post(`${api}/merge`, {})).status).toBeLessThan(300);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test("open the history, compare the last two revisions, open the old page and restore it in a new change request", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    const spaceUrl = `${sys.url}${pathOf(w.urls.space)}`;
    await signInWithToken(page, spaceUrl, w.alice.token);

    await page.click('a:text-is("History")');
    await page.waitForURL(/\/~\/history$/);
    expect(await page.textContent("h1")).toBe("History");
    expect(await page.textContent("tbody tr:first-child")).toContain("#");
    expect(await page.getAttribute("tbody tr:first-child time", "title")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "list");

    // The newest two are picked: compare them.
    await page.click('button:text-is("Compare selected revisions")');
    await page.waitForURL(/\/~\/compare\?(from|to)=/);
    expect(await page.textContent("p.summary")).toContain("1 changed");
    expect(await page.textContent("pre.diff")).toContain("- The **handbook** starts here.");
    expect(await page.textContent("pre.diff")).toContain("+ The **handbook** begins here.");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "compare");

    // The older revision (the second row) and its Welcome page, as it was.
    await page.goBack();
    await page.click("tbody tr:nth-child(2) td:first-child a");
    await page.waitForURL(/\/~\/revisions\/[A-Za-z0-9_-]+$/);
    await page.click('nav.sidebar a:text-is("Welcome")');
    await page.waitForURL(/\/~\/revisions\/[A-Za-z0-9_-]+\/welcome$/);
    expect(await page.innerHTML("article")).toContain("The <strong>handbook</strong> starts here.");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "revision");

    await page.click('button:text-is("Restore this page in a new change request")');
    await page.waitForURL(/\/~\/changes\/\d+\/welcome$/);
    expect(await page.innerHTML("article")).toContain("The <strong>handbook</strong> starts here.");
    expect(await page.textContent("h1")).toBeTruthy();
    await shot(page, "restored");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });
});
