// Issue 39's last parts in headless Chromium, with notification emails read from a real SMTP server on
// loopback: a member watches a change request from its page, another user comments and the watcher gets the
// bell and an email; Unwatch stops both; another organization's user finds no page to watch from. An
// administrator edits a SAML provider in the sign-in settings (the Edit details, no script) and moves a site's
// sections up and down. The pages run no script of their own here, pass axe-core's serious rules, do not
// overflow at 390 px and keep to the dark theme's colours when the system asks for dark.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, signInContext, watch } from "./browser";
import { startPrivate } from "./modes";
import { seriousViolations } from "./axe";
import { startMailbox, type Mailbox } from "./mailbox";
import { makeIdp } from "./saml-idp";

const MAIL_WAIT = 60_000;
const suites = browserSuites("the watch, SAML edit and section order browser suite");

suites("watching, SAML edit and section order in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let owner: TestUser;
  let watcher: TestUser;
  let outsider: TestUser;
  let sentinel: TestUser;
  let orgId: string;
  let spaceId: string;
  let syncSpace: string;
  let chromium: Awaited<ReturnType<typeof launchBrowser>>;
  let ownerChrome: Awaited<ReturnType<typeof launchBrowser>>;
  let outsiderChrome: Awaited<ReturnType<typeof launchBrowser>>;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `app-watch-${mode}-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url };
    sys = await startPrivate(mode, env);
    [owner, watcher, outsider, sentinel] = await Promise.all(["Olga Owner", "Walt Watcher", "Otto Outsider", "Sam Sentinel"].map((displayName) => createUser(sys.admin, { displayName })));
    orgId = (await createOrg(owner.api, "Watchers Inc")).id;
    await addMember(owner.api, orgId, watcher.email, "read");
    await addMember(owner.api, orgId, sentinel.email, "read");
    await createOrg(outsider.api, "Outside Inc");
    for (const user of [watcher, sentinel]) await mailbox.next(user.email, MAIL_WAIT);
    spaceId = (await createSpace(owner.api, orgId, { title: "Runbooks" })).id;
    syncSpace = (await createSpace(owner.api, orgId, { title: "Sync" })).id;
    [chromium, ownerChrome, outsiderChrome] = await Promise.all([launchBrowser(sys.url), launchBrowser(sys.url), launchBrowser(sys.url)]);
    await signInContext(chromium.context, sys.url, watcher.token);
    await signInContext(ownerChrome.context, sys.url, owner.token);
    await signInContext(outsiderChrome.context, sys.url, outsider.token);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await ownerChrome?.close();
    await outsiderChrome?.close();
    await sys?.stop();
    await mailbox?.stop();
  });

  async function settle(): Promise<void> {
    expect((await owner.api.post(`/v1/spaces/${syncSpace}/comments`, { body: { markdown: `Sync @[Sam](user:${sentinel.id})` } })).status).toBe(200);
    await mailbox.next(sentinel.email, MAIL_WAIT);
  }

  const bell = async (page: Page): Promise<number> => {
    await page.goto(`${sys.url}/app`);
    // Server-rendered: no count in the bell is none (not something to wait 30 s for).
    const unread = page.locator("a.bell #unread");
    if ((await unread.count()) === 0) return 0;
    return Number(await unread.textContent());
  };

  async function noOverflow(context: BrowserContext, paths: string[]): Promise<string[]> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const overflowing: string[] = [];
    for (const path of paths) {
      await page.goto(`${sys.url}${path}`);
      const { scroll, client } = await page.evaluate<{ scroll: number; client: number }>("({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })");
      if (scroll !== client) overflowing.push(`${path}: ${scroll} > ${client}`);
    }
    await page.close();
    return overflowing;
  }

  test("watch from the page: another user's comment reaches the bell and the mailbox; Unwatch stops both; an outsider has nothing to watch", async () => {
    const created = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Pager rota" });
    expect(created.status).toBe(201);
    const crPath = `/s/${spaceId}/~/changes/${created.body.number}`;
    const crApi = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    const page = await chromium.context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}${crPath}`);
    expect(await page.textContent("#watch")).toContain("1 person watches it.");
    await page.click('#watch button:text-is("Watch")');
    await page.waitForURL(`${sys.url}${crPath}#watch`);
    expect(await page.textContent("#watch")).toContain("You watch this change request");
    expect(await page.locator('#watch button:text-is("Unwatch")').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "watching");
    expect(await bell(page)).toBe(0);

    expect((await owner.api.post(`${crApi}/comments`, { body: { markdown: "Swap Tuesday and Friday?" } })).status).toBe(200);
    const mail = await mailbox.next(watcher.email, MAIL_WAIT);
    expect(mail.subject).toBe(`Olga Owner commented on change request #${created.body.number} of Runbooks`);
    expect(mail.text).toContain("Swap Tuesday and Friday?");
    expect(await bell(page)).toBe(1);
    await page.click("a.bell");
    await page.waitForURL(`${sys.url}/app/notifications`);
    expect(await page.textContent('li.notification.unread[data-kind="watch"]')).toContain("Olga Owner commented on change request");
    await shot(page, "notified");
    await page.click('li.notification.unread a:has-text("change request")');
    await page.waitForURL(`${sys.url}${crPath}#comments`);

    // Unwatch, then another comment: nothing new in the bell (after marking all read) and no mail.
    await page.click('#watch button:text-is("Unwatch")');
    await page.waitForURL(`${sys.url}${crPath}#watch`);
    expect(await page.locator('#watch button:text-is("Watch")').count()).toBe(1);
    await page.goto(`${sys.url}/app/notifications`);
    await page.click('button:text-is("Mark all read")');
    await page.waitForURL(`${sys.url}/app/notifications`);
    const mails = mailbox.count(watcher.email);
    expect((await owner.api.post(`${crApi}/comments`, { body: { markdown: "Never mind" } })).status).toBe(200);
    await settle();
    expect(await bell(page)).toBe(0);
    expect(mailbox.count(watcher.email)).toBe(mails);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();

    // Another organization's user: the page is not found, there is no form to watch from.
    const elsewhere = await outsiderChrome.context.newPage();
    const answer = await elsewhere.goto(`${sys.url}${crPath}`);
    expect(answer?.status()).toBe(404);
    expect(await elsewhere.locator("#watch").count()).toBe(0);
    await elsewhere.close();

    expect(await noOverflow(chromium.context, [crPath, "/app/notifications", "/app/account"])).toEqual([]);
  });

  test("an administrator edits a SAML provider in place and moves a site's sections; the pages fit 390 px and follow the dark theme", async () => {
    const idp = await makeIdp();
    const created = await owner.api.post(`/v1/orgs/${orgId}/saml`, { label: "Okta", entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL });
    expect(created.status).toBe(201);
    const ssoPath = `/o/${orgId}/sso`;
    const page = await ownerChrome.context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}${ssoPath}`);
    const item = page.locator(`#saml-${created.body.id}`);
    expect(await item.locator(`#saml-label-${created.body.id}`).isVisible()).toBe(false);
    await item.locator("summary").click();
    await page.fill(`#saml-label-${created.body.id}`, "Okta EU");
    await page.fill(`#saml-url-${created.body.id}`, "https://eu.okta.example.com/sso");
    await page.selectOption(`#saml-role-${created.body.id}`, "comment");
    await item.locator('button:text-is("Save the provider")').click();
    await page.waitForURL(`${sys.url}${ssoPath}`);
    const stored = (await owner.api.get(`/v1/orgs/${orgId}/saml/${created.body.id}`)).body;
    expect(stored).toMatchObject({ label: "Okta EU", ssoURL: "https://eu.okta.example.com/sso", defaultRole: "comment", entityID: idp.entityID });
    expect(await page.textContent(`#saml-${created.body.id}`)).toContain("Okta EU");
    // A refused field: the page says which.
    await page.locator(`#saml-${created.body.id} summary`).click();
    await page.fill(`#saml-url-${created.body.id}`, "not a url");
    await page.locator(`#saml-${created.body.id} button:text-is("Save the provider")`).click();
    await page.waitForLoadState();
    expect(await page.textContent("body")).toContain("'ssoURL'");
    expect(await seriousViolations(page)).toEqual([]);

    // Sections: three, the last moved up twice.
    const spaces = await Promise.all(["One", "Two", "Three"].map(async (title) => (await createSpace(owner.api, orgId, { title })).id));
    const site = await owner.api.post(`/v1/orgs/${orgId}/sites`, { title: "Tabs", spaces: [spaces[0]] });
    expect(site.status).toBe(201);
    const api = `/v1/orgs/${orgId}/sites/${site.body.id}`;
    for (const [i, title] of ["One", "Two", "Three"].entries()) expect((await owner.api.post(`${api}/sections`, { spaceId: spaces[i], title })).status).toBeLessThan(300);
    const titles = async () => ((await owner.api.get(`${api}/sections`)).body.items as Array<{ title: string }>).map((s) => s.title);
    expect(await titles()).toEqual(["One", "Two", "Three"]);
    const sitePath = `/o/${orgId}/sites/${site.body.id}`;
    await page.goto(`${sys.url}${sitePath}`);
    await page.click('button:has-text("Move up the section Three")');
    await page.waitForURL(`${sys.url}${sitePath}`);
    await page.click('button:has-text("Move up the section Three")');
    await page.waitForURL(`${sys.url}${sitePath}`);
    expect(await titles()).toEqual(["Three", "One", "Two"]);
    expect(await page.locator("ol.sections > li strong").allTextContents()).toEqual(["Three", "One", "Two"]);
    expect(await page.locator('button:has-text("Move up the section Three")').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "sections");
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });

    // Dark: the system asks for it, the pages' background is dark.
    await page.emulateMedia({ colorScheme: "dark" });
    for (const path of [ssoPath, sitePath]) {
      await page.goto(`${sys.url}${path}`);
      const background = await page.evaluate<string>("getComputedStyle(document.body).backgroundColor");
      const [r, g, b] = (background.match(/\d+/g) ?? ["255", "255", "255"]).map(Number);
      expect({ path, dark: r + g + b < 3 * 96 }).toEqual({ path, dark: true });
    }
    await shot(page, "dark");
    await page.close();
    expect(await noOverflow(ownerChrome.context, [ssoPath, sitePath])).toEqual([]);
  });
});
