// Signing in to the app without an API token: email and password, emailed sign-in links and password
// resets, read from a real SMTP server on loopback. Each test is another client address (X-Forwarded-For
// from a trusted proxy), so the per-address limits of one test do not reach the next.
import { randomUUID } from "node:crypto";
import { createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, type Page } from "./app-fixtures";
import { linkIn, startMailbox, type Mailbox } from "./mailbox";
import { MODES, type Mode, startPrivate } from "./modes";

const PASSWORD = "correct horse battery staple";
let clients = 0;

describe.each(MODES)("sign-in with email and password over %s", (mode: Mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url, MAIL_FROM: "docs@example.test", TRUSTED_PROXIES: "127.0.0.1", RATE_LIMIT_ANON_PER_MINUTE: "100000" };
    sys = await startPrivate(mode, env);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
    await mailbox?.stop();
  });

  /** A browser that is a client address of its own. */
  function newBrowser(): Browser {
    const browser = new Browser(sys.url);
    browser.headers["x-forwarded-for"] = `198.51.100.${++clients}`;
    return browser;
  }

  async function userWithPassword(): Promise<TestUser> {
    const user = await createUser(sys.admin, { email: `pw-${randomUUID()}@example.com` });
    expect((await user.api.put("/v1/docshelf/user/password", { password: PASSWORD })).status).toBe(204);
    return user;
  }

  /** The app's sign-in page, then its link to identity's form: answers the form page. */
  async function passwordForm(browser: Browser, returnTo = "/app"): Promise<Page> {
    const appPage = await browser.get(`/app/sign-in?return=${encodeURIComponent(returnTo)}`);
    const href = /id="password-sign-in" href="([^"]+)"/.exec(appPage.text)?.[1].replace(/&amp;/g, "&");
    expect(href).toMatch(/^\/sso\/sign-in\?app=[0-9a-f]{64}&return=/);
    const form = await browser.get(href!);
    expect(form.status).toBe(200);
    expect(form.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    return form;
  }

  const fieldOf = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1].replace(/&#47;/g, "/") ?? "";

  async function signInWithPassword(browser: Browser, email: string, password: string, returnTo = "/app"): Promise<Page> {
    const form = await passwordForm(browser, returnTo);
    return browser.post("/sso/sign-in", { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: fieldOf(form.text, "return"), email, password });
  }

  /** Follows identity's 303 to the app's grant redemption; answers the app's answer. */
  async function complete(browser: Browser, res: Page): Promise<Page> {
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/app\/sso\/complete\?grant=[A-Za-z0-9_-]{43}$/);
    return browser.get(res.location!);
  }

  test("a password set through the API signs in from the app's sign-in page; the session id is new (fixation) and listed, and revoking it ends it", async () => {
    const user = await userWithPassword();
    const browser = newBrowser();
    // An attacker-chosen session id planted before sign-in is never the one signed in.
    browser.cookies.set("docshelf_session", "A".repeat(43));
    const done = await complete(browser, await signInWithPassword(browser, user.email.toUpperCase(), PASSWORD, "/app"));
    expect(done.status).toBe(303);
    expect(done.location).toBe("/app");
    const session = browser.cookies.get("docshelf_session");
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session).not.toBe("A".repeat(43));
    const home = await browser.get("/app");
    expect(home.status).toBe(200);
    expect(home.text).toContain('action="/app/sign-out"');

    const listed = await user.api.get("/v1/docshelf/user/sessions");
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({ method: "password", address: expect.stringMatching(/^198\.51\.100\./) });
    // Sessions are not API tokens: the token list holds only what the API made.
    expect((await user.api.get("/v1/docshelf/user/tokens")).body.items.map((t: { id: string }) => t.id)).not.toContain(listed.body.items[0].id);
    // Another user cannot end it.
    const other = await createUser(sys.admin);
    expect((await other.api.delete(`/v1/docshelf/user/sessions/${listed.body.items[0].id}`)).status).toBe(404);
    expect((await browser.get("/app")).status).toBe(200);
    expect((await user.api.delete(`/v1/docshelf/user/sessions/${listed.body.items[0].id}`)).status).toBe(204);
    const after = await browser.get("/app");
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/app\/sign-in/);
  });

  test("API tokens: created (shown once), listed without the secret, revoked", async () => {
    const user = await createUser(sys.admin);
    const created = await user.api.post(`/v1/users/${user.id}/tokens`, { label: "laptop" });
    expect(created.status).toBe(201);
    const listed = await user.api.get("/v1/docshelf/user/tokens");
    const item = listed.body.items.find((t: { id: string }) => t.id === created.body.id);
    expect(item).toEqual({ id: created.body.id, label: "laptop", createdAt: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    expect((await user.api.delete(`/v1/users/${user.id}/tokens/${created.body.id}`)).status).toBe(204);
    expect((await user.api.get("/v1/docshelf/user/tokens")).body.items.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
    expect((await fetch(`${sys.url}/v1/docshelf/user/tokens`)).status).toBe(401);
  });

  test("changing a password through the API needs the current one; 400 names the field", async () => {
    const user = await userWithPassword();
    const short = await user.api.put("/v1/docshelf/user/password", { password: "short", currentPassword: PASSWORD });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toMatch(/password/);
    const missing = await user.api.put("/v1/docshelf/user/password", { password: "another long password" });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/currentPassword/);
    expect((await user.api.put("/v1/docshelf/user/password", { password: "another long password", currentPassword: "wrong password!" })).status).toBe(403);
    expect((await user.api.put("/v1/docshelf/user/password", { password: "another long password", currentPassword: PASSWORD })).status).toBe(204);
    const browser = newBrowser();
    expect((await signInWithPassword(browser, user.email, PASSWORD)).status).toBe(401);
    expect((await signInWithPassword(browser, user.email, "another long password")).status).toBe(303);
    expect((await fetch(`${sys.url}/v1/docshelf/user/password`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  });

  test("a wrong password and an unknown email answer alike; five failures lock the email (known or not) for 15 minutes", async () => {
    const user = await userWithPassword();
    const browser = newBrowser();
    const wrong = await signInWithPassword(browser, user.email, "not the password");
    const unknown = await signInWithPassword(browser, `nobody-${randomUUID()}@example.com`, "not the password");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (p: Page) => /id="error"[^>]*>([^<]*)</.exec(p.text)?.[1];
    expect(message(wrong)).toBe(message(unknown));
    for (let i = 0; i < 4; i++) expect((await signInWithPassword(browser, user.email, `wrong ${i} password`)).status).toBe(401);
    // Locked: even the right password, from another address too.
    expect((await signInWithPassword(newBrowser(), user.email, PASSWORD)).status).toBe(429);
    const unknownEmail = `nobody-${randomUUID()}@example.com`;
    for (let i = 0; i < 5; i++) await signInWithPassword(browser, unknownEmail, `wrong ${i} password`);
    expect((await signInWithPassword(newBrowser(), unknownEmail, PASSWORD)).status).toBe(429);
  });

  test("one address may try 30 times in 15 minutes, then every attempt answers 429", async () => {
    const browser = newBrowser();
    const form = await passwordForm(browser);
    const fields = { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app" };
    const statuses: number[] = [];
    // Different unknown emails, so the per-email lockout is not what stops them.
    for (let i = 0; i < 31; i++) statuses.push((await browser.post("/sso/sign-in", { ...fields, email: `x${i}-${randomUUID()}@example.com`, password: "not the password" })).status);
    // Compared whole, so a failure shows every status (one run at load 26 failed here without saying which).
    expect(statuses).toEqual([...Array(30).fill(401), 429]);
  }, 120_000);

  test("login CSRF: a form posted without this browser's form cookie and token is refused; a grant from another browser's sign-in is refused", async () => {
    const user = await userWithPassword();
    const attacker = newBrowser();
    const form = await passwordForm(attacker);
    const fields = { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app", email: user.email, password: PASSWORD };
    // The victim's browser posts the attacker's form (another site's page): no form cookie of ours matches.
    const victim = newBrowser();
    await victim.get("/app/sign-in");
    const posted = await victim.post("/sso/sign-in", fields);
    expect(posted.status).toBe(403);
    expect((await victim.post("/sso/sign-in", { ...fields, _csrf: "" })).status).toBe(403);
    // The attacker signs in to their own account and pushes the grant into the victim's browser.
    const own = await attacker.post("/sso/sign-in", fields);
    expect(own.status).toBe(303);
    const pushed = await victim.get(own.location!);
    expect(pushed.status).toBe(403);
    expect(victim.cookies.has("docshelf_session")).toBe(false);
  });

  test("400 names the field: email, password, app, return", async () => {
    const browser = newBrowser();
    const form = await passwordForm(browser);
    const base = { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app", email: "a@example.com", password: PASSWORD };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ ...base, email: "not-an-email" }, /email/],
      [{ ...base, password: "x".repeat(300) }, /password/],
      [{ ...base, app: "zz" }, /app/],
      [{ ...base, return: "//evil.example/" }, /return/],
      [{ ...base, return: "https://evil.example/" }, /return/],
    ];
    for (const [fields, field] of cases) {
      const res = await browser.post("/sso/sign-in", fields);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(field);
    }
  });

  test("an emailed sign-in link (text and HTML) signs in once, only in the browser that asked for it; an unknown email gets the same answer and no mail", async () => {
    const user = await userWithPassword();
    const browser = newBrowser();
    const form = await passwordForm(browser, "/app");
    const ask = (email: string) => browser.post("/sso/sign-in/link", { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app", email });
    const known = await ask(user.email);
    const unknownEmail = `nobody-${randomUUID()}@example.com`;
    const unknown = await ask(unknownEmail);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(unknown.text);
    const mail = await mailbox.next(user.email);
    expect(mail.subject).toMatch(/sign-in link/i);
    expect(mail.from).toContain("docs@example.test");
    const link = linkIn(mail, sys.url, "/sso/sign-in/magic?token=");
    expect(mail.html).toContain(`href="${sys.url}${link.replace(/&/g, "&amp;")}"`);

    // Opened in another browser (the attacker's link in a victim's browser, or another device): no session.
    const elsewhere = newBrowser();
    await elsewhere.get("/app/sign-in");
    const page = await elsewhere.get(link);
    expect(page.status).toBe(200);
    // Opening the page (as a mail scanner does) uses nothing; posting it does, once.
    const mine = await browser.get(link);
    const used = await browser.post("/sso/sign-in/magic", { _csrf: csrfOf(mine.text), token: fieldOf(mine.text, "token") });
    const done = await complete(browser, used);
    expect(done.status).toBe(303);
    expect((await browser.get("/app")).status).toBe(200);
    expect((await user.api.get("/v1/docshelf/user/sessions")).body.items[0].method).toBe("email-link");
    const again = await elsewhere.post("/sso/sign-in/magic", { _csrf: csrfOf(page.text), token: fieldOf(page.text, "token") });
    expect(again.status).toBe(403);
    expect((await browser.get(link)).status).toBe(403);
    // The unknown email got nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.count(unknownEmail)).toBe(0);
  });

  test("a sign-in link posted into another browser than the one that asked for it opens no session there", async () => {
    const user = await userWithPassword();
    const attacker = newBrowser();
    const form = await passwordForm(attacker, "/app");
    await attacker.post("/sso/sign-in/link", { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app", email: user.email });
    const link = linkIn(await mailbox.next(user.email), sys.url, "/sso/sign-in/magic?token=");
    const victim = newBrowser();
    await victim.get("/app/sign-in");
    const page = await victim.get(link);
    const posted = await victim.post("/sso/sign-in/magic", { _csrf: csrfOf(page.text), token: fieldOf(page.text, "token") });
    expect(posted.status).toBe(303);
    expect((await victim.get(posted.location!)).status).toBe(403);
    expect(victim.cookies.has("docshelf_session")).toBe(false);
  });

  test("a password reset link sets a new password once, ends the account's sessions and lifts a lockout; an unknown email gets the same answer and no mail", async () => {
    const user = await userWithPassword();
    const signedIn = newBrowser();
    await complete(signedIn, await signInWithPassword(signedIn, user.email, PASSWORD));
    expect((await signedIn.get("/app")).status).toBe(200);
    const browser = newBrowser();
    for (let i = 0; i < 5; i++) await signInWithPassword(browser, user.email, `wrong ${i} password`);
    expect((await signInWithPassword(browser, user.email, PASSWORD)).status).toBe(429);

    const forgot = await browser.get("/sso/sign-in/forgot");
    const ask = (email: string) => browser.post("/sso/sign-in/forgot", { _csrf: csrfOf(forgot.text), email });
    const known = await ask(user.email);
    const unknownEmail = `nobody-${randomUUID()}@example.com`;
    const unknown = await ask(unknownEmail);
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(known.text).toBe(unknown.text);
    const mail = await mailbox.next(user.email);
    expect(mail.subject).toMatch(/reset/i);
    const link = linkIn(mail, sys.url, "/sso/sign-in/reset?token=");

    const resetPage = await browser.get(link);
    expect(resetPage.status).toBe(200);
    const token = fieldOf(resetPage.text, "token");
    const tooShort = await browser.post("/sso/sign-in/reset", { _csrf: csrfOf(resetPage.text), token, password: "short" });
    expect(tooShort.status).toBe(400);
    expect(tooShort.text).toMatch(/password/);
    expect((await browser.post("/sso/sign-in/reset", { token, password: "a brand new password" })).status).toBe(403); // no CSRF token
    const set = await browser.post("/sso/sign-in/reset", { _csrf: csrfOf(resetPage.text), token, password: "a brand new password" });
    expect(set.status).toBe(200);
    // Once only.
    expect((await browser.post("/sso/sign-in/reset", { _csrf: csrfOf(resetPage.text), token, password: "yet another password" })).status).toBe(403);
    expect((await browser.get(link)).status).toBe(403);
    // The session opened before the reset is over; the old password no longer works, the new one does (no lockout left).
    expect((await signedIn.get("/app")).status).toBe(303);
    expect((await signInWithPassword(newBrowser(), user.email, PASSWORD)).status).toBe(401);
    expect((await signInWithPassword(newBrowser(), user.email, "a brand new password")).status).toBe(303);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.count(unknownEmail)).toBe(0);
  });

  test("mail to one address is capped: the fourth link request in 15 minutes sends nothing, with the same answer", async () => {
    const user = await userWithPassword();
    const browser = newBrowser();
    const forgot = await browser.get("/sso/sign-in/forgot");
    const before = mailbox.count(user.email);
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push((await browser.post("/sso/sign-in/forgot", { _csrf: csrfOf(forgot.text), email: user.email })).text);
    await mailbox.next(user.email);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailbox.count(user.email) - before).toBe(3);
    expect(new Set(answers).size).toBe(1);
  });

  if (mode === "embedded") {
    // Only here does the server share the test's clock (one process): the links are made, then the clock moves.
    test("reset and sign-in links expire (30 and 15 minutes)", async () => {
      const user = await userWithPassword();
      const browser = newBrowser();
      const form = await passwordForm(browser);
      await browser.post("/sso/sign-in/link", { _csrf: csrfOf(form.text), app: fieldOf(form.text, "app"), return: "/app", email: user.email });
      const magic = linkIn(await mailbox.next(user.email), sys.url, "/sso/sign-in/magic?token=");
      const forgot = await browser.get("/sso/sign-in/forgot");
      await browser.post("/sso/sign-in/forgot", { _csrf: csrfOf(forgot.text), email: user.email });
      const reset = linkIn(await mailbox.next(user.email), sys.url, "/sso/sign-in/reset?token=");
      const magicPage = await browser.get(magic);
      const resetPage = await browser.get(reset);
      const now = Date.now();
      const clock = jest.spyOn(Date, "now");
      try {
        clock.mockImplementation(() => now + 16 * 60_000);
        expect((await browser.post("/sso/sign-in/magic", { _csrf: csrfOf(magicPage.text), token: fieldOf(magicPage.text, "token") })).status).toBe(403);
        expect((await browser.get(reset)).status).toBe(200); // 30 minutes for a reset
        clock.mockImplementation(() => now + 31 * 60_000);
        expect((await browser.post("/sso/sign-in/reset", { _csrf: csrfOf(resetPage.text), token: fieldOf(resetPage.text, "token"), password: "a brand new password" })).status).toBe(403);
      } finally {
        clock.mockRestore();
      }
    });
  }
});
