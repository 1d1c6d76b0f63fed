// The first hour on a fresh instance, in headless Chromium and both process modes, without a single API
// call: the setup link from the log creates the administrator, who signs in, creates an organization and
// invites a colleague by email (read from a real SMTP server on loopback); the colleague sets a password,
// signs in, creates a space and writes a page in a change request; the administrator merges it, publishes
// a site with a basename and a logo set in the page; an anonymous reader opens it. Then no new app page
// overflows a 390 px wide screen or has a serious accessibility violation.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { seriousViolations } from "./axe";
import { ARTIFACTS, browserSuites, launchBrowser, watch } from "./browser";
import { startPrivate } from "./modes";
import { linkIn, startMailbox, type Mailbox } from "./mailbox";

const suites = browserSuites("the first-hour browser suite");

async function setupLink(sys: RunningSystem): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const match = /https?:\/\/[^\s"]+(\/sso\/setup\?token=[A-Za-z0-9_-]{43})/.exec((sys.logs ?? []).join(""));
    if (match) return match[1];
    if (Date.now() > deadline) throw new Error("no setup link logged");
    await new Promise((r) => setTimeout(r, 100));
  }
}

suites("the first hour in the browser over %s", (mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let adminBrowser: Awaited<ReturnType<typeof launchBrowser>>;
  let colleagueBrowser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { ADMIN_TOKEN: "", SMTP_URL: mailbox.url, RATE_LIMIT_ANON_PER_MINUTE: "100000" };
    sys = await startPrivate(mode, env, { captureLogs: true });
    adminBrowser = await launchBrowser(sys.url);
    colleagueBrowser = await launchBrowser(sys.url);
    // A system of ten processes and two browsers: slow to start on a busy machine.
  }, 240_000);

  afterAll(async () => {
    await adminBrowser?.close();
    await colleagueBrowser?.close();
    await sys?.stop();
    await mailbox?.stop();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `first-hour-${mode}-${name}.png`), fullPage: true });
  const path = (page: Page) => new URL(page.url()).pathname;

  async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${sys.url}/app/sign-in`);
    await page.click("#password-sign-in");
    await page.waitForURL((url) => url.pathname === "/sso/sign-in");
    await page.fill("#email", email);
    await page.fill("#password", password);
    await page.click('#password-form button[type="submit"]');
    await page.waitForURL((url) => url.pathname === "/app");
  }

  test("setup, an organization, an invited colleague's change request merged, a site published with its basename and logo, read anonymously", async () => {
    const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
    const colleagueEmail = `cole-${randomUUID().slice(0, 8)}@example.com`;
    const adminPassword = "the administrator's password";
    const colleaguePassword = "the colleague's own password";
    const basename = "acme-handbook";
    const logo = "https://cdn.example.com/acme-logo.png";

    // 1. The setup link from the log creates the administrator, who signs in.
    const admin = await adminBrowser.context.newPage();
    const adminTrace = watch(admin);
    await admin.goto(sys.url + (await setupLink(sys)));
    await admin.fill("#displayName", "Ada Admin");
    await admin.fill("#email", adminEmail);
    await admin.fill("#password", adminPassword);
    await admin.click('#setup-form button[type="submit"]');
    await admin.waitForSelector(`text=${adminEmail}`);
    await signInWithPassword(admin, adminEmail, adminPassword);

    // 2. An organization, created on the home page.
    await admin.fill("#org-title", "Acme Docs");
    await admin.click('button:text-is("Create the organization")');
    await admin.waitForURL((url) => /^\/o\/[^/]+$/.test(url.pathname));
    const orgPath = path(admin);
    expect(await admin.textContent("h1")).toBe("Acme Docs");

    // 3. A colleague invited by email with the create role; the mail's link creates their account.
    await admin.fill("#invite-email", colleagueEmail);
    await admin.selectOption("#invite-role", "create");
    await admin.click('button:text-is("Invite")');
    await admin.waitForURL((url) => url.pathname === orgPath);
    expect(await admin.textContent("#pending-invites")).toContain(colleagueEmail);
    await shot(admin, "org");
    const inviteLink = linkIn(await mailbox.next(colleagueEmail), sys.url, "/sso/invite?token=");

    const colleague = await colleagueBrowser.context.newPage();
    const colleagueTrace = watch(colleague);
    await colleague.goto(sys.url + inviteLink);
    await colleague.fill("#displayName", "Cole League");
    await colleague.fill("#password", colleaguePassword);
    await colleague.click('#invite-form button[type="submit"]');
    await colleague.waitForSelector(`text=${colleagueEmail}`);
    await signInWithPassword(colleague, colleagueEmail, colleaguePassword);

    // 4. The colleague opens the organization, creates a space and writes a page in a change request.
    await colleague.click('main a:text-is("Acme Docs")');
    await colleague.waitForURL((url) => url.pathname === orgPath);
    await colleague.fill("#space-title", "Handbook");
    await colleague.click('button:text-is("Create the space")');
    await colleague.waitForURL((url) => /^\/s\/[^/]+$/.test(url.pathname));
    const spacePath = path(colleague);
    await colleague.fill("#subject", "First pages");
    await colleague.click('button:text-is("Create change request")');
    await colleague.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1`);
    await colleague.fill("#page-title", "Getting started");
    await colleague.click('button:text-is("Add page")');
    await colleague.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1`);
    await colleague.click('nav a:text-is("Getting started")');
    await colleague.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1/getting-started`);
    await colleague.click('a:text-is("Edit the Markdown")');
    await colleague.fill("#markdown", "# Getting started\n\nWelcome to **Acme**: written by Cole in the browser.\n");
    await colleague.click('button:text-is("Save in the change request")');
    await colleague.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1/getting-started`);
    expect(await colleague.textContent("article")).toContain("written by Cole in the browser");
    await shot(colleague, "change-request");

    // 5. The administrator finds it from the organization's page and merges it.
    await admin.goto(sys.url + orgPath);
    await admin.click('main a:text-is("Handbook")');
    await admin.waitForURL((url) => url.pathname === spacePath);
    await admin.click('#change-requests a:has-text("First pages")');
    await admin.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1`);
    await admin.check("#merge-confirm");
    await admin.click('button:text-is("Merge")');
    await admin.waitForURL((url) => url.pathname === `${spacePath}/~/changes/1`);
    expect(await admin.textContent("p.meta:has-text('Status')")).toContain("merged");

    // 6. A site publishing the space, its basename and logo set in its page, then published.
    await admin.goto(sys.url + orgPath);
    await admin.fill("#site-title", "Acme handbook");
    await admin.selectOption("#site-space", { label: "Handbook" });
    await admin.click('button:text-is("Create the site")');
    await admin.waitForURL((url) => url.pathname.startsWith(`${orgPath}/sites/`));
    const sitePath = path(admin);
    await admin.fill("#site-basename", basename);
    await admin.click('button:text-is("Save the settings")');
    await admin.waitForURL((url) => url.pathname === sitePath);
    await admin.fill("#site-logo", logo);
    await admin.fill("#site-color", "#0b7a4b");
    await admin.click('button:text-is("Save the look")');
    await admin.waitForURL((url) => url.pathname === sitePath);
    await admin.click('button:text-is("Publish")');
    await admin.waitForURL((url) => url.pathname === sitePath);
    const published = await admin.getAttribute("#published a", "href");
    expect(published).toBe(`${sys.url}/sites/${basename}`);
    // An old address kept working: a redirect to the page.
    await admin.fill("#redirect-source", "/start");
    await admin.fill("#redirect-destination", "/getting-started");
    await admin.click('button:text-is("Add the redirect")');
    await admin.waitForURL((url) => url.pathname === sitePath);
    expect(await admin.textContent("main")).toContain("/start");
    await shot(admin, "site");

    // 7. An anonymous reader (the colleague's browser, signed out of everything) opens the site.
    await colleagueBrowser.context.clearCookies();
    const reader = await colleagueBrowser.context.newPage();
    const answer = await reader.goto(published!);
    expect(answer?.status()).toBe(200);
    expect(await reader.content()).toContain("written by Cole in the browser");
    expect(await reader.locator(`img[src="${logo}"]`).count()).toBeGreaterThan(0);
    await shot(reader, "reader");
    await reader.goto(`${published}/start`);
    // The space's first page is the site's front page: the redirect lands there.
    expect(new URL(reader.url()).pathname).toBe(`/sites/${basename}`);
    expect(await reader.content()).toContain("written by Cole in the browser");

    // 8. No page of the app made here overflows a 390 px wide screen.
    await admin.goto(sys.url + orgPath);
    await admin.fill("#collection-title", "Guides");
    await admin.click('button:text-is("Create the collection")');
    await admin.waitForURL((url) => url.pathname.startsWith(`${orgPath}/c/`));
    const collectionPath = path(admin);
    await admin.goto(sys.url + orgPath);
    await admin.selectOption("#link-role", "read");
    await admin.click('button:text-is("Create an invite link")');
    await admin.waitForURL((url) => url.pathname === orgPath);
    const joinPath = new URL((await admin.getAttribute("#invite-links input", "value"))!).pathname;
    await admin.setViewportSize({ width: 390, height: 844 });
    const overflowing: string[] = [];
    const inaccessible: string[] = [];
    for (const p of ["/app", "/app/account", orgPath, `${orgPath}/settings`, `${orgPath}/sso`, collectionPath, `${spacePath}/~/settings`, sitePath, joinPath, `${spacePath}/~/changes/1`]) {
      await admin.goto(sys.url + p);
      // And none has a serious accessibility violation (axe-core, WCAG 2.1 A/AA).
      for (const v of await seriousViolations(admin)) inaccessible.push(`${p}: ${v.id} (${v.help}) ${JSON.stringify(v.targets)}`);
      // A string, evaluated in the page (this suite's TypeScript has no DOM types).
      const { scroll, client } = (await admin.evaluate("({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })")) as { scroll: number; client: number };
      if (scroll !== client) overflowing.push(`${p}: ${scroll} > ${client}`);
    }
    await shot(admin, "narrow-site");
    expect(overflowing).toEqual([]);
    expect(inaccessible).toEqual([]);

    expect(adminTrace).toEqual({ dialogs: [], errors: [], console: [] });
    expect(colleagueTrace).toEqual({ dialogs: [], errors: [], console: [] });
  }, 300_000);
});
