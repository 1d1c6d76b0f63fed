// The app in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core, launched
// as the published-site browser suite does) opens a space's urls.app without a session, is led to
// sign-in, pastes a token, comes back to the space page, opens a change request, edits a page with a
// preview and saves it, arranges pages, reads the changes, comments, uploads a file, is refused the merge
// until a second user (a reviewer, in a browser of their own) approves under the organization's merge
// rules, merges and reads the merged page; the XSS page runs no script; the
// main pages pass axe-core's WCAG 2.1 A/AA rules without serious violations. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { addMember, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch } from "./browser";
import { seriousViolations } from "./axe";
import { start } from "./modes";
import { appWorld, pathOf, type AppWorld } from "./app-fixtures";

const suites = browserSuites("the app's browser suite");
suites("the app in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let reviewer: TestUser;
  let teamPath: string;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `app-${mode}-${name}.png`), fullPage: true });

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    browser = await launchBrowser(sys.url);
    context = browser.context;
    reviewer = await createUser(sys.admin, { displayName: "Rita Reviewer" });
    await addMember(w.alice.api, w.orgId, reviewer.email, "review");
    const team = await w.alice.api.put(`/v1/orgs/${w.orgId}/teams`, { title: "Reviewers" });
    expect(team.status).toBe(201);
    expect((await w.alice.api.put(`/v1/orgs/${w.orgId}/teams/${team.body.id}/members/${reviewer.id}`, {})).status).toBe(204);
    teamPath = `/o/${w.orgId}/teams/${team.body.id}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test("sign in from a space's link, read it, open a change request, edit a page with a preview, comment, upload a file, merge, see the merged page", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    const spaceUrl = `${sys.url}${pathOf(w.urls.space)}`;
    await page.goto(spaceUrl);
    await page.waitForURL(/\/app\/sign-in\?return=/);
    await shot(page, "sign-in");
    await page.fill("#token", w.alice.token);
    await page.click('button:text-is("Sign in")');
    await page.waitForURL(spaceUrl);
    expect(await page.textContent("article h1")).toBe("Welcome");
    // The stylesheet loads under the CSP: the layout is a flex row.
    expect(await page.evaluate("getComputedStyle(document.querySelector('.frame')).display")).toBe("flex");
    await shot(page, "space");

    await page.fill("#subject", "Browser edit");
    await page.click('button:text-is("Create change request")');
    await page.waitForURL(/\/~\/changes\/\d+$/);
    expect(await page.textContent("h1")).toContain("Browser edit");
    await page.click('nav.sidebar a:text-is("Welcome")');
    await page.click('a:text-is("Edit the Markdown")');
    await page.fill("#markdown", "# Welcome\n\nEdited in **Chromium**.\n");
    await page.click('button:text-is("Preview")');
    expect(await page.innerHTML("section.preview")).toContain("<strong>Chromium</strong>");
    await shot(page, "edit-preview");
    await page.click('button:text-is("Save in the change request")');
    await page.waitForURL(/\/~\/changes\/\d+\/welcome$/);
    expect(await page.innerHTML("article")).toContain("Edited in <strong>Chromium</strong>.");

    // Arrange: a page added under Welcome, then moved out of it, as the forms post them (no script).
    const crUrl = page.url().replace(/\/welcome$/, "");
    await page.goto(crUrl);
    await page.click('a:text-is("Arrange pages")');
    await page.waitForURL(/\/~pages$/);
    await page.fill("#new-title", "Appendix");
    await page.selectOption("#new-parent", { label: "Welcome" });
    await page.click('button:text-is("Add page")');
    await page.waitForURL(/\/~pages$/);
    expect(await page.textContent("ol.arrange li:has(> .tree-row > span:text-is('Welcome')) ol")).toContain("Appendix");
    await page.click('button:has-text("Un-nest"):has(span:text-is(" Appendix out of its parent"))');
    await page.waitForURL(/\/~pages$/);
    expect(await page.locator("ol.arrange > li > .tree-row > span.page-title").allTextContents()).toContain("Appendix");
    await shot(page, "arrange");
    await page.click('p.meta a:has-text("Browser edit")');
    await page.click('a:text-is("Changes")');
    await page.waitForURL(/\/~diff$/);
    expect(await page.textContent("ul.change-list")).toContain("Appendix");
    expect(await page.innerHTML("#changed-pages")).toContain("<ins>+ Edited in **Chromium**.</ins>");
    await shot(page, "changes");
    await page.goto(crUrl);

    await page.fill("#comment", "Ship it");
    await page.click('button:text-is("Comment")');
    await page.waitForURL(/\/~\/changes\/\d+$/);
    expect(await page.textContent("section#comments")).toContain("Ship it");
    await shot(page, "change-request");

    // An upload from the change request's files page: Chromium's own multipart encoding.
    const changeRequestUrl = page.url();
    await page.click('a:text-is("Files")');
    await page.waitForURL(/\/~\/changes\/\d+\/~files$/);
    await page.setInputFiles("#file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Uploaded from Chromium.\n") });
    await page.click('button:text-is("Upload")');
    await page.waitForURL(/\/~files$/);
    expect(await page.textContent("table")).toContain("notes.txt");
    await shot(page, "upload");
    await page.goto(changeRequestUrl);

    // The organization asks for an approving review, which the author cannot give: the merge is refused…
    expect((await w.alice.api.patch(`/v1/orgs/${w.orgId}`, { mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] } })).status).toBe(200);
    try {
      await page.check("#merge-confirm");
      await page.click('button:text-is("Merge")');
      await page.waitForURL(/\/~\/changes\/\d+$/);
      expect(await page.textContent("main")).toContain("needs at least one approving review");
      await shot(page, "merge-refused");
      await page.goto(changeRequestUrl);
      expect(await page.textContent("p.meta:has-text('Status')")).not.toContain("merged");

      // …until the reviewer, signed in in a browser of their own, approves.
      const second = await launchBrowser(sys.url);
      try {
        const theirs = await second.context.newPage();
        await theirs.goto(changeRequestUrl);
        await theirs.waitForURL(/\/app\/sign-in\?return=/);
        await theirs.fill("#token", reviewer.token);
        await theirs.click('button:text-is("Sign in")');
        await theirs.waitForURL(changeRequestUrl);
        await theirs.click('button:text-is("Approve")');
        await theirs.waitForURL(changeRequestUrl);
        expect(await theirs.textContent("section#reviews")).toContain("Rita Reviewer: approved");
        await theirs.screenshot({ path: join(ARTIFACTS, `app-${mode}-second-reviewer.png`), fullPage: true });
      } finally {
        await second.close();
      }
      await page.reload();
      expect(await page.textContent("section#reviews")).toContain("Rita Reviewer: approved");
      await page.check("#merge-confirm");
      await page.click('button:text-is("Merge")');
      await page.waitForURL(/\/~\/changes\/\d+$/);
      expect(await page.textContent("p.meta:has-text('Status')")).toContain("merged");
    } finally {
      await w.alice.api.patch(`/v1/orgs/${w.orgId}`, { mergeRules: { type: "none" } });
    }
    await page.goto(`${spaceUrl}/welcome`);
    expect(await page.innerHTML("article")).toContain("Edited in <strong>Chromium</strong>.");
    await shot(page, "merged");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });

    await page.click('button:text-is("Sign out")');
    await page.waitForURL(/\/app\/sign-in$/);
    await page.goto(spaceUrl);
    await page.waitForURL(/\/app\/sign-in\?return=/);
    await page.close();
  });

  test("the main pages have no serious accessibility violations (axe-core, WCAG 2.1 A/AA)", async () => {
    const page = await context.newPage();
    await page.goto(`${sys.url}/app/sign-in`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill("#token", w.alice.token);
    await page.click('button:text-is("Sign in")');
    await page.waitForURL(/\/app$/);
    for (const path of ["/app", pathOf(w.urls.org), pathOf(w.urls.space), pathOf(w.urls.page), pathOf(w.urls.changeRequest), `${pathOf(w.urls.changeRequest)}/welcome?edit=1`, `${pathOf(w.urls.changeRequest)}/~files`, `${pathOf(w.urls.changeRequest)}/~pages`, `${pathOf(w.urls.changeRequest)}/~diff`, teamPath, `/o/${w.orgId}/settings`, pathOf(w.urls.site), "/app/sign-in"]) {
      const opened = await page.goto(`${sys.url}${path}`);
      expect({ path, status: opened?.status() }).toEqual({ path, status: 200 });
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
      if (path === teamPath) await shot(page, "team");
      if (path.endsWith("/settings")) await shot(page, "settings");
    }
    await page.close();
  });

  test("a page whose title and Markdown carry script runs none of it", async () => {
    const page = await context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}/app/sign-in`);
    await page.fill("#token", w.alice.token);
    await page.click('button:text-is("Sign in")');
    await page.waitForURL(/\/app$/);
    await page.goto(`${sys.url}${pathOf(w.urls.xssPage)}`);
    expect(await page.textContent("article h1")).toContain("onerror");
    await shot(page, "xss");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });
});
