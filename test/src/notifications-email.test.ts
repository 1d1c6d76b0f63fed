// Notification emails (issue 39), read from a real SMTP server on loopback (a system of the suite's own with
// SMTP_URL): a mention is mailed with its excerpt and link; a user who turned them off on the account page
// gets none; one who turned a kind off gets the others only. The per-kind form: CSRF, a field refused by name.
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, signIn } from "./app-fixtures";
import { startMailbox, type Mailbox } from "./mailbox";
import { MODES, type Mode, startPrivate } from "./modes";

describe.each(MODES)("notification emails over %s", (mode: Mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let owner: TestUser;
  let quiet: TestUser;
  let loud: TestUser;
  let orgId: string;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url };
    sys = await startPrivate(mode, env);
    [owner, quiet, loud] = await Promise.all([1, 2, 3].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api, "Mail Corp")).id;
    await addMember(owner.api, orgId, quiet.email, "read");
    await addMember(owner.api, orgId, loud.email, "read");
    // Being added mails an invitation: taken here, so that each test reads the notifications' mail.
    for (const user of [quiet, loud]) expect((await mailbox.next(user.email)).subject).toContain("invited");
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
    await mailbox?.stop();
  });

  test("a mention is mailed with the excerpt and a link; turned off on the account page, none is", async () => {
    const spaceId = (await createSpace(owner.api, orgId, { title: "Guides" })).id;
    const post = (markdown: string) => owner.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown } });
    expect((await post(`Please read this @[Quiet](user:${quiet.id})`)).status).toBe(200);
    const mail = await mailbox.next(quiet.email);
    const mailed = mailbox.count(quiet.email);
    expect(mail.subject).toContain("mentioned you in Guides");
    expect(mail.text).toContain("Please read this @Quiet");
    expect(mail.text).toContain(`${sys.url}/s/${spaceId}`);

    const browser = new Browser(sys.url);
    expect((await signIn(browser, quiet.token)).status).toBe(303);
    const account = await browser.get("/app/account");
    expect(account.text).toContain("Stop emailing me notifications");
    const off = await browser.submit("/app/account", "/app/account", { intent: "notifications", email: "off" });
    expect(off.status).toBe(200);
    expect(off.text).toContain("Email me notifications");

    // Mentioned again: stored (the bell counts it), not mailed. Another user's mail, sent after, arrives first.
    expect((await post(`Again @[Quiet](user:${quiet.id})`)).status).toBe(200);
    expect((await post(`And @[Loud](user:${loud.id})`)).status).toBe(200);
    expect((await mailbox.next(loud.email)).subject).toContain("mentioned you");
    expect(mailbox.count(quiet.email)).toBe(mailed);
    const page = await browser.get("/app/notifications");
    expect(page.text).toContain("Again @Quiet");
  });

  test("per kind: mentions turned off on the account page are not mailed, replies still are; the form refuses a bad box by name and a post without its token", async () => {
    const spaceId = (await createSpace(owner.api, orgId, { title: "Kinds" })).id;
    const browser = new Browser(sys.url);
    expect((await signIn(browser, loud.token)).status).toBe(303);
    const account = await browser.get("/app/account");
    expect(account.text).toContain('<input type="checkbox" id="kind-mention" name="kind-mention" value="on" checked>');
    // No CSRF token: 403, nothing changed; a box with another value: 400 naming it.
    expect((await browser.post("/app/account", { intent: "email-kinds", "kind-reply": "on" })).status).toBe(403);
    const bad = await browser.submit("/app/account", "/app/account", { intent: "email-kinds", "kind-mention": "yes" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("&#39;kind-mention&#39;");
    expect((await browser.get("/app/account")).text).toContain('id="kind-mention" name="kind-mention" value="on" checked>');
    // Only replies, review requests and merges: the mention box cleared.
    const saved = await browser.submit("/app/account", "/app/account", { intent: "email-kinds", "kind-reply": "on", "kind-review-request": "on", "kind-merge": "on" });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('<input type="checkbox" id="kind-mention" name="kind-mention" value="on"> ');
    expect(saved.text).toContain('<input type="checkbox" id="kind-reply" name="kind-reply" value="on" checked>');

    // Loud may comment here (a reader may not), so that a reply in their thread notifies them.
    expect((await owner.api.patch(`/v1/orgs/${orgId}/members/${loud.id}`, { role: "comment" })).status).toBe(200);
    const before = mailbox.count(loud.email);
    const comment = await loud.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: "My question" } });
    expect(comment.status).toBe(200);
    // Mentioned: stored, not mailed. Then a reply in loud's thread: mailed.
    expect((await owner.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: `Ping @[Loud](user:${loud.id})` } })).status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${spaceId}/comments/${comment.body.id}/replies`, { body: { markdown: "An answer" } })).status).toBe(200);
    const reply = await mailbox.next(loud.email);
    expect(reply.subject).toContain("replied in");
    expect(mailbox.count(loud.email)).toBe(before + 1);
    const page = await browser.get("/app/notifications");
    expect(page.text).toContain("Ping @Loud");
  });
});
