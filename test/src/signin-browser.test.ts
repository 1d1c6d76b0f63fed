// Identity's sign-in pages in headless Chromium, under their CSP (no script, no style): from the app's
// sign-in page to a session with a password, with an emailed sign-in link, and a password reset, the mail
// read from a real SMTP server on loopback.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, watch } from "./browser";
import { startPrivate } from "./modes";
import { linkIn, startMailbox, type Mailbox } from "./mailbox";

const PASSWORD = "a password for the browser";
const suites = browserSuites("the sign-in browser suite");

suites("identity's sign-in pages in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let user: TestUser;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url, RATE_LIMIT_ANON_PER_MINUTE: "100000" };
    sys = await startPrivate(mode, env);
    browser = await launchBrowser(sys.url);
    user = await createUser(sys.admin, { email: `browser-${randomUUID().slice(0, 8)}@example.com`, displayName: "Bea Browser" });
    expect((await user.api.put("/v1/docshelf/user/password", { password: PASSWORD })).status).toBe(204);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
    await mailbox?.stop();
  });

  async function fresh(): Promise<{ page: Page; trace: ReturnType<typeof watch> }> {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    return { page, trace: watch(page) };
  }

  const signedIn = async (page: Page) => {
    await page.waitForURL((url) => url.pathname === "/app");
    await expectSignOut(page);
  };
  const expectSignOut = async (page: Page) => expect(await page.locator('form[action="/app/sign-out"]').count()).toBeGreaterThan(0);

  test("email and password: from the app's sign-in page to the app", async () => {
    const { page, trace } = await fresh();
    await page.goto(`${sys.url}/app/sign-in`);
    await page.click("#password-sign-in");
    await page.waitForURL((url) => url.pathname === "/sso/sign-in");
    await page.fill("#email", user.email);
    await page.fill("#password", "not the password");
    await page.click('#password-form button[type="submit"]');
    await page.waitForSelector("#error");
    expect(await page.textContent("#error")).toMatch(/do not match/);
    await page.fill("#password", PASSWORD);
    await page.click('#password-form button[type="submit"]');
    await signedIn(page);
    await page.screenshot({ path: join(ARTIFACTS, `signin-${mode}-password.png`), fullPage: true });
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("an emailed sign-in link, opened in the same browser, signs in", async () => {
    const { page, trace } = await fresh();
    await page.goto(`${sys.url}/app/sign-in`);
    await page.click("#password-sign-in");
    await page.fill("#link-email", user.email);
    await page.click('#link-form button[type="submit"]');
    await page.waitForSelector("#notice");
    const link = linkIn(await mailbox.next(user.email), sys.url, "/sso/sign-in/magic?token=");
    await page.goto(sys.url + link);
    await page.click('#magic-form button[type="submit"]');
    await signedIn(page);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });

  test("a forgotten password is reset from the emailed link, and the new one signs in", async () => {
    const { page, trace } = await fresh();
    await page.goto(`${sys.url}/app/sign-in`);
    await page.click("#password-sign-in");
    await page.click('a[href="/sso/sign-in/forgot"]');
    await page.fill("#email", user.email);
    await page.click('#forgot-form button[type="submit"]');
    await page.waitForSelector("#notice");
    const link = linkIn(await mailbox.next(user.email), sys.url, "/sso/sign-in/reset?token=");
    await page.goto(sys.url + link);
    await page.fill("#password", "the new browser password");
    await page.click('#reset-form button[type="submit"]');
    await page.waitForSelector("#notice");
    expect(await page.textContent("#notice")).toMatch(/password is set/);
    await page.click('a[href="/app/sign-in"]');
    await page.click("#password-sign-in");
    await page.fill("#email", user.email);
    await page.fill("#password", "the new browser password");
    await page.click('#password-form button[type="submit"]');
    await signedIn(page);
    expect(trace).toEqual({ dialogs: [], errors: [], console: [] });
    await page.close();
  });
});
