// Invitations accepted from an emailed link: an organization admin invites addresses; each gets an email
// (read from a real SMTP server on loopback) whose link creates the account with a password and makes it a
// member, once; an address that has an account is told to sign in and accept.
import { randomUUID } from "node:crypto";
import { createOrg, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf } from "./app-fixtures";
import { linkIn, startMailbox, type Mailbox } from "./mailbox";
import { MODES, type Mode, startPrivate } from "./modes";

const PASSWORD = "an invited password";

describe.each(MODES)("invitations by email over %s", (mode: Mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url, RATE_LIMIT_ANON_PER_MINUTE: "100000" };
    sys = await startPrivate(mode, env);
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api, "Invite Corp")).id;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
    await mailbox?.stop();
  });

  async function memberRole(email: string): Promise<string | undefined> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const members = (await owner.api.get(`/v1/orgs/${orgId}/members?limit=100`)).body.items as Array<{ role: string; user: { email?: string }; sso: boolean }>;
      const found = members.find((m) => m.user.email === email);
      if (found || Date.now() > deadline) return found?.role;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test("a new address: the emailed link creates the account with a password, once, and it is a member with the invited role", async () => {
    const email = `new-${randomUUID().slice(0, 8)}@example.com`;
    expect((await owner.api.post(`/v1/orgs/${orgId}/invites`, { emails: [email], role: "edit" })).status).toBe(200);
    const mail = await mailbox.next(email);
    expect(mail.subject).toContain("Invite Corp");
    expect(mail.html).toContain("/sso/invite?token=");
    const link = linkIn(mail, sys.url, "/sso/invite?token=");

    const browser = new Browser(sys.url);
    const form = await browser.get(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain(email);
    const token = /name="token" value="([^"]+)"/.exec(form.text)![1];
    expect((await browser.post("/sso/invite", { token, displayName: "Grace", password: PASSWORD })).status).toBe(403); // no CSRF token
    const short = await browser.post("/sso/invite", { _csrf: csrfOf(form.text), token, displayName: "Grace", password: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/password/);
    const created = await browser.post("/sso/invite", { _csrf: csrfOf(form.text), token, displayName: "Grace", password: PASSWORD });
    expect(created.status).toBe(201);
    expect(await memberRole(email)).toBe("edit");
    // Once only.
    expect((await browser.post("/sso/invite", { _csrf: csrfOf(form.text), token, displayName: "Mallory", password: PASSWORD })).status).toBe(403);
    expect((await browser.get(link)).status).toBe(403);

    // The new member signs in with the password.
    const signIn = await browser.get("/app/sign-in");
    const href = /id="password-sign-in" href="([^"]+)"/.exec(signIn.text)![1].replace(/&amp;/g, "&");
    const page = await browser.get(href);
    const app = /name="app" value="([^"]+)"/.exec(page.text)![1];
    const res = await browser.post("/sso/sign-in", { _csrf: csrfOf(page.text), app, return: `/o/${orgId}`, email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect((await browser.get(res.location!)).location).toBe(`/o/${orgId}`);
    expect((await browser.get(`/o/${orgId}`)).status).toBe(200);
  });

  test("an address with an account: the link creates nothing and says to sign in and accept; the invitation is listed for them", async () => {
    const existing = await createUser(sys.admin);
    expect((await owner.api.post(`/v1/orgs/${orgId}/invites`, { emails: [existing.email], role: "read" })).status).toBe(200);
    const link = linkIn(await mailbox.next(existing.email), sys.url, "/sso/invite?token=");
    const browser = new Browser(sys.url);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/already have an account/);
    expect(page.text).not.toContain('name="password"');
    const invites = await existing.api.get("/v1/user/invites");
    expect(invites.body.items.map((i: { organization?: { id: string }; organizationId?: string }) => i.organization?.id ?? i.organizationId)).toContain(orgId);
  });

  test("a made-up or other kind of token is refused; only organization admins invite (and so mail)", async () => {
    const browser = new Browser(sys.url);
    expect((await browser.get(`/sso/invite?token=${"y".repeat(43)}`)).status).toBe(403);
    const outsider = await createUser(sys.admin);
    const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    expect((await outsider.api.post(`/v1/orgs/${orgId}/invites`, { emails: [email] })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.count(email)).toBe(0);
  });
});
