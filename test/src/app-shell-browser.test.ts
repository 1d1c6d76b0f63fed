// The app's shell in headless Chromium: dark mode (the pages follow the system's setting; the account page's
// choice wins over it, with no script; axe-core's contrast rules pass in dark), Ctrl/Cmd-K's jump dialog (a
// modal dialog, the field focused, arrows and Enter go, Escape closes and gives the focus back, Tab stays in
// it) and @ suggestions in a comment box (typed, chosen with the keyboard, posted as GitBook's mention, which
// notifies the member); the account page's email choices per kind; a site's sections edited in its settings page. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { RunningSystem, TestUser } from "@docshelf/testkit";
import { addMember, createUser } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, signInWithToken, watch, waitForTrue } from "./browser";
import { seriousViolations } from "./axe";
import { start } from "./modes";
import { Browser, appWorld, pathOf, signIn, type AppWorld } from "./app-fixtures";

/** The test project has no DOM types: what these checks read in the page, typed as far as they need. */
const BACKGROUND = "getComputedStyle(document.body).backgroundColor";
const DARK_BG = "rgb(13, 17, 23)";
const LIGHT_BG = "rgb(255, 255, 255)";

const suites = browserSuites("the app's shell browser suite");
suites("the app's shell in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let grace: TestUser;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `app-shell-${mode}-${name}.png`), fullPage: true });
  const activeId = (page: Page) => page.evaluate<string>("document.activeElement ? document.activeElement.id : ''");

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    grace = await createUser(sys.admin, { displayName: "Grace Hopper" });
    await addMember(w.alice.api, w.orgId, grace.email, "read");
    browser = await launchBrowser(sys.url);
    const page = await browser.context.newPage();
    await signInWithToken(page, `${sys.url}${pathOf(w.urls.space)}`, w.alice.token);
    await page.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  test("dark mode: the pages follow the system's setting, pass axe's contrast rules in dark, and the account page's choice wins", async () => {
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.emulateMedia({ colorScheme: "dark" });
    const cr = pathOf(w.urls.changeRequest);
    for (const [name, path] of [
      ["orgs", "/app"],
      ["org", pathOf(w.urls.org)],
      ["space", pathOf(w.urls.page)],
      ["change-request", cr],
      ["changes", `${cr}/~diff`],
      ["account", "/app/account"],
      ["notifications", "/app/notifications"],
      ["jump", "/app/jump?q=w"],
      ["site", pathOf(w.urls.site)],
      ["history", `${pathOf(w.urls.space)}/~/history`],
      ["files", `${cr}/~files`],
    ] as const) {
      await page.goto(sys.url + path);
      expect(await page.evaluate<string>(BACKGROUND)).toBe(DARK_BG);
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
      if (name === "space" || name === "change-request") await shot(page, `dark-${name}`);
    }
    // The system is dark; this browser chooses light: the server writes it into every page.
    await page.goto(`${sys.url}/app/account`);
    await page.check("#theme-light");
    await page.click("#save-theme");
    await page.waitForURL(/\/app\/account#appearance$/);
    expect(await page.getAttribute("html", "data-theme")).toBe("light");
    expect(await page.evaluate<string>(BACKGROUND)).toBe(LIGHT_BG);
    await page.goto(sys.url + pathOf(w.urls.space));
    expect(await page.evaluate<string>(BACKGROUND)).toBe(LIGHT_BG);
    // The system is light; this browser chooses dark.
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${sys.url}/app/account`);
    expect(await page.evaluate<string>(BACKGROUND)).toBe(LIGHT_BG);
    await page.check("#theme-dark");
    await page.click("#save-theme");
    await page.waitForURL(/\/app\/account#appearance$/);
    expect(await page.evaluate<string>(BACKGROUND)).toBe(DARK_BG);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "dark-account");
    // Back to the system's (light now).
    await page.check("#theme-system");
    await page.click("#save-theme");
    await page.waitForURL(/\/app\/account#appearance$/);
    expect(await page.getAttribute("html", "data-theme")).toBeNull();
    expect(await page.evaluate<string>(BACKGROUND)).toBe(LIGHT_BG);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("the account page's email choices per kind: a box cleared and saved stays cleared; axe", async () => {
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}/app/account`);
    expect(await page.isChecked("#kind-merge")).toBe(true);
    await page.uncheck("#kind-merge");
    await page.click("#save-email-kinds");
    await page.waitForSelector("#notice");
    expect(await page.textContent("#notice")).toBe("Your email choices were saved.");
    await page.goto(`${sys.url}/app/account`);
    expect(await page.isChecked("#kind-merge")).toBe(false);
    expect(await page.isChecked("#kind-mention")).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("Ctrl-K opens the jump dialog: typed, chosen with the arrows, Enter goes there; Escape closes and gives the focus back; Tab stays inside", async () => {
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.goto(sys.url + pathOf(w.urls.space));
    await page.focus("#subject");
    await page.keyboard.press("Control+k");
    await page.waitForSelector("dialog#jump[open]");
    expect(await activeId(page)).toBe("jump-input");
    expect(await page.getAttribute("#jump-input", "role")).toBe("combobox");
    // A modal dialog (showModal): the rest of the page is inert.
    expect(await page.evaluate<boolean>("document.querySelector('dialog#jump').matches(':modal')")).toBe(true);
    await page.waitForSelector("#jump-options [role=option]");
    expect(await seriousViolations(page)).toEqual([]);
    // Tab and Shift-Tab cycle within the dialog.
    for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab"]) {
      await page.keyboard.press(key);
      expect(["jump-input", "jump-close"]).toContain(await activeId(page));
    }
    await page.focus("#jump-input");
    // Escape closes it; the focus is back in the field it left.
    await page.keyboard.press("Escape");
    await page.waitForSelector("dialog#jump:not([open])", { state: "attached" });
    expect(await activeId(page)).toBe("subject");

    await page.keyboard.press("Control+k");
    await page.waitForSelector("dialog#jump[open]");
    await page.keyboard.type("tricky");
    await waitForTrue(page, "document.querySelectorAll('#jump-options [role=option]').length === 1");
    // A title is text, never markup.
    expect(await page.textContent("#jump-option-0 span")).toContain("<img src=x");
    await page.keyboard.press("Escape");
    // From another page (no space there): the viewer's spaces.
    await page.goto(`${sys.url}/app/account`);
    await page.keyboard.press("Control+k");
    await page.waitForSelector("dialog#jump[open]");
    await page.keyboard.type("hand");
    await waitForTrue(page, "[...document.querySelectorAll('#jump-options [role=option]')].some((o) => o.textContent.includes('Handbook'))");
    const options = await page.$$eval("#jump-options [role=option]", (els) => els.map((e) => e.textContent ?? ""));
    const target = options.findIndex((t) => t.startsWith("Handbook") && t.includes("space"));
    expect(target).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < target; i++) await page.keyboard.press("ArrowDown");
    expect(await page.getAttribute("#jump-input", "aria-activedescendant")).toBe(`jump-option-${target}`);
    expect(await page.getAttribute(`#jump-option-${target}`, "aria-selected")).toBe("true");
    await shot(page, "jump");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${sys.url}/s/${w.spaceId}`);

    // From a page of the space, its pages are offered: Welcome is reached with the keyboard only.
    await page.keyboard.press("Control+k");
    await page.waitForSelector("dialog#jump[open]");
    await page.keyboard.type("welc");
    await waitForTrue(page, "document.querySelector('#jump-option-0') && document.querySelector('#jump-option-0').textContent.startsWith('Welcome')");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${sys.url}/s/${w.spaceId}/welcome`);
    // The header's link opens the dialog too (without script it is the jump page).
    await page.click("#jump-link");
    await page.waitForSelector("dialog#jump[open]");
    expect(page.url()).toBe(`${sys.url}/s/${w.spaceId}/welcome`);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("a site's sections in the settings page: added, renamed with a path, a site space's path, deleted once confirmed; axe, and no overflow at 390 px", async () => {
    const page = await browser.context.newPage();
    const trace = watch(page);
    const sitePath = pathOf(w.urls.site);
    const sections = async () => (await w.alice.api.get(`/v1/orgs/${w.orgId}/sites/${sitePath.split("/").pop()}/sections`)).body.items as Array<{ id: string; title: string; path: string; siteSpaces: Array<{ id: string; path: string }> }>;
    await page.goto(sys.url + sitePath);
    await page.fill("#section-new-title", "User guide");
    await page.selectOption("#section-new-space", w.spaceId);
    await page.click('button:text-is("Add the section")');
    await page.waitForURL(sys.url + sitePath);
    const [section] = await sections();
    expect(section.title).toBe("User guide");
    await page.fill(`#section-title-${section.id}`, "Guide");
    await page.fill(`#section-path-${section.id}`, "guide");
    await page.click(`#section-${section.id} button:has-text("Save")`);
    await page.waitForURL(sys.url + sitePath);
    expect((await sections())[0]).toMatchObject({ title: "Guide", path: "guide" });
    const siteSpace = (await sections())[0].siteSpaces[0];
    await page.fill(`#site-space-path-${siteSpace.id}`, "handbook-v2");
    await page.click(`form.site-space-path:has(#site-space-path-${siteSpace.id}) button`);
    await page.waitForURL(sys.url + sitePath);
    expect((await sections())[0].siteSpaces[0].path).toBe("handbook-v2");
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    const { scroll, client } = await page.evaluate<{ scroll: number; client: number }>("({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })");
    expect(scroll).toBe(client);
    await shot(page, "site-sections");
    await page.setViewportSize({ width: 1280, height: 900 });
    // The delete button does nothing until its box is ticked (the browser keeps the form).
    await page.click(`#section-${section.id} button:has-text("Delete")`);
    expect(await page.evaluate<boolean>(`document.querySelector('#section-confirm-${section.id}').validity.valueMissing`)).toBe(true);
    expect(await sections()).toHaveLength(1);
    await page.check(`#section-confirm-${section.id}`);
    await page.click(`#section-${section.id} button:has-text("Delete")`);
    await page.waitForURL(sys.url + sitePath);
    expect(await sections()).toHaveLength(0);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("@ in a comment box suggests members who can read the space; the keyboard inserts GitBook's mention, which notifies them", async () => {
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.goto(sys.url + pathOf(w.urls.page));
    await page.click("#comment");
    await page.keyboard.type("Thanks @gra");
    await page.waitForSelector("#comment-mentions:not([hidden]) [role=option]");
    expect(await page.textContent("#comment-mentions [role=option]")).toBe("Grace Hopper");
    expect(await page.getAttribute("#comment", "aria-activedescendant")).toBe("comment-mentions-0");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "mention");
    await page.keyboard.press("Enter");
    await page.keyboard.type("for the review.");
    expect(await page.inputValue("#comment")).toBe(`Thanks @[Grace Hopper](user:${grace.id}) for the review.`);
    expect(await page.isHidden("#comment-mentions")).toBe(true);
    // Escape closes the suggestions without touching the text.
    await page.keyboard.type(" @");
    await page.waitForSelector("#comment-mentions:not([hidden]) [role=option]");
    await page.keyboard.press("Escape");
    expect(await page.isHidden("#comment-mentions")).toBe(true);
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.click('#comments button:text-is("Comment")');
    await page.waitForURL(`${sys.url}/s/${w.spaceId}/welcome`);
    const posted = (await page.textContent("#comments")) ?? "";
    expect(posted).toContain("Grace Hopper");
    expect(posted).toContain("for the review.");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();

    // Grace is notified of the mention.
    const graceBrowser = new Browser(sys.url);
    await signIn(graceBrowser, grace.token);
    const notifications = await graceBrowser.get("/app/notifications");
    expect(notifications.text).toContain("Thanks @Grace Hopper for the review.");
  });
});
