// Watching a change request (issue 39) through HTTP, in every process mode, with notification emails read from
// a real SMTP server on loopback: a member watches (the Watch form on the change request's page) and is then
// notified, in the bell and by email, of its new comments, replies, review requests and merge; Unwatch stops
// it. The author watches without choosing to; a requested reviewer starts watching when asked. A user of
// another organization (even on a public space they may read), or a member who cannot read the space, cannot
// watch (404) and hears nothing. The form
// needs its CSRF token; the per-kind email switch "Change requests I watch" stops the mail, not the bell.
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, signIn } from "./app-fixtures";
import { startMailbox, type Mailbox } from "./mailbox";
import { MODES, type Mode, startPrivate } from "./modes";
import { bellCount, listed, type Shown } from "./notifications-page";


const MAIL_WAIT = 60_000;

describe.each(MODES)("watching a change request over %s", (mode: Mode) => {
  let sys: RunningSystem;
  let mailbox: Mailbox;
  let owner: TestUser;
  let author: TestUser;
  let watcher: TestUser;
  let reviewer: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let sentinel: TestUser;
  let orgId: string;
  let syncSpace: string;
  const browsers = new Map<string, Browser>();

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { SMTP_URL: mailbox.url };
    sys = await startPrivate(mode, env);
    [owner, author, watcher, reviewer, guest, outsider, sentinel] = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => createUser(sys.admin, { displayName: `User${i}` })));
    orgId = (await createOrg(owner.api, "Watch Corp")).id;
    await addMember(owner.api, orgId, author.email, "edit");
    await addMember(owner.api, orgId, watcher.email, "read");
    await addMember(owner.api, orgId, reviewer.email, "review");
    await addMember(owner.api, orgId, sentinel.email, "read");
    // A guest of the organization sees only the spaces shared with them (none here).
    await addMember(owner.api, orgId, guest.email, null);
    await createOrg(outsider.api, "Elsewhere");
    syncSpace = (await createSpace(owner.api, orgId, { title: "Sync" })).id;
    // Being added mails an invitation: taken here, so that each test reads the notifications' mail.
    for (const user of [author, watcher, reviewer, sentinel, guest]) expect((await mailbox.next(user.email, MAIL_WAIT)).subject).toContain("invited");
  }, 180_000);

  afterAll(async () => {
    await sys?.stop();
    await mailbox?.stop();
  });

  async function browserOf(user: TestUser): Promise<Browser> {
    let browser = browsers.get(user.id);
    if (!browser) {
      browser = new Browser(sys.url);
      expect((await signIn(browser, user.token)).status).toBe(303);
      browsers.set(user.id, browser);
    }
    return browser;
  }

  async function unreadOf(user: TestUser): Promise<Shown[]> {
    const page = await (await browserOf(user)).get("/app/notifications");
    expect(page.status).toBe(200);
    return listed(page.text).filter((n) => n.unread);
  }

  async function clear(user: TestUser): Promise<void> {
    expect((await (await browserOf(user)).submit("/app/notifications", "/app/notifications", { intent: "read-all" })).status).toBe(303);
  }

  /** A change request by the author in a new space of the organization: its API base and its page. */
  async function changeRequest(title: string): Promise<{ spaceId: string; api: string; page: string; number: number }> {
    const spaceId = (await createSpace(owner.api, orgId, { title })).id;
    const created = await author.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: `${title} changes` });
    expect(created.status).toBe(201);
    return { spaceId, api: `/v1/spaces/${spaceId}/change-requests/${created.body.id}`, page: `/s/${spaceId}/~/changes/${created.body.number}`, number: created.body.number };
  }

  /** A mail to the sentinel (from a space nobody watches), sent after everything before it: once it is in, earlier mails to others are too. */
  async function settle(): Promise<void> {
    const res = await owner.api.post(`/v1/spaces/${syncSpace}/comments`, { body: { markdown: `Sync @[Sentinel](user:${sentinel.id})` } });
    expect(res.status).toBe(200);
    await mailbox.next(sentinel.email, MAIL_WAIT);
  }

  test("a member watches from the change request's page; comments, replies, a review request and the merge then reach the bell and their email", async () => {
    const cr = await changeRequest("Handbook");
    const browser = await browserOf(watcher);
    await clear(watcher);
    const page = await browser.get(cr.page);
    expect(page.status).toBe(200);
    // Not watching yet: the Watch button, and one person (the author) watches.
    expect(page.text).toContain('<button type="submit" name="intent" value="watch"');
    expect(page.text).toContain("1 person watches it.");
    const watched = await browser.submit(cr.page, cr.page, { intent: "watch" });
    expect(watched.status).toBe(303);
    expect(watched.location).toBe(`${cr.page}#watch`);
    const after = await browser.get(cr.page);
    expect(after.text).toContain('<button type="submit" name="intent" value="unwatch"');
    expect(after.text).toContain("You and 1 other person watch it.");

    // A comment by the owner (who does not watch): the watcher's bell counts it, the page lists it, and it is mailed.
    const before = mailbox.count(watcher.email);
    const comment = await owner.api.post(`${cr.api}/comments`, { body: { markdown: "Looks close to done" } });
    expect(comment.status).toBe(200);
    const mail = await mailbox.next(watcher.email, MAIL_WAIT);
    expect(mail.subject).toBe(`User1 commented on change request #${cr.number} of Handbook`);
    expect(mail.text).toContain("Looks close to done");
    expect(mail.text).toContain(`${sys.url}${cr.page}#comments`);
    expect(mail.text).toContain("you watch this change request");
    let unread = await unreadOf(watcher);
    expect(unread.map((n) => n.kind)).toEqual(["watch"]);
    expect(unread[0].html).toContain("User1 commented on");
    expect(unread[0].html).toContain(`href="${cr.page}#comments"`);
    expect(bellCount((await browser.get("/app/notifications")).text)).toBe(1);

    // A reply (by the author), a review request (the reviewer asked), the merge: one each.
    expect((await author.api.post(`${cr.api}/comments/${comment.body.id}/replies`, { body: { markdown: "Thanks!" } })).status).toBe(200);
    expect((await mailbox.next(watcher.email, MAIL_WAIT)).subject).toBe(`User2 replied in change request #${cr.number} of Handbook`);
    expect((await author.api.post(`${cr.api}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(200);
    expect((await mailbox.next(watcher.email, MAIL_WAIT)).subject).toBe(`User2 asked for a review of change request #${cr.number} of Handbook`);
    expect((await owner.api.post(`${cr.api}/merge`)).status).toBe(200);
    expect((await mailbox.next(watcher.email, MAIL_WAIT)).subject).toBe(`User1 merged change request #${cr.number} of Handbook`);
    expect(mailbox.count(watcher.email)).toBe(before + 4);
    unread = await unreadOf(watcher);
    expect(unread.map((n) => n.kind)).toEqual(["watch", "watch", "watch", "watch"]);
    expect(unread.map((n) => /User\d ([a-z ]+) <a/.exec(n.html)?.[1])).toEqual(["merged", "asked for a review of", "replied in", "commented on"]);
    expect(bellCount((await browser.get("/app/notifications")).text)).toBe(4);
  });

  test("the author watches without choosing to and a requested reviewer once asked; each is notified once per event (the direct kind wins)", async () => {
    const cr = await changeRequest("Guides");
    await Promise.all([clear(author), clear(reviewer)]);
    const authorPage = await (await browserOf(author)).get(cr.page);
    expect(authorPage.text).toContain('value="unwatch"');
    expect((await author.api.post(`${cr.api}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(200);
    expect((await (await browserOf(reviewer)).get(cr.page)).text).toContain('value="unwatch"');
    // The owner comments mentioning the reviewer: the reviewer gets the mention only, the author a watch notification.
    expect((await owner.api.post(`${cr.api}/comments`, { body: { markdown: `Have a look @[Rev](user:${reviewer.id})` } })).status).toBe(200);
    await settle();
    expect((await unreadOf(reviewer)).map((n) => n.kind)).toEqual(["mention", "review-request"]);
    expect((await unreadOf(author)).map((n) => n.kind)).toEqual(["watch"]);
    // The merge: the author hears it as their own change request's merge, the reviewer as a watcher.
    expect((await owner.api.post(`${cr.api}/merge`)).status).toBe(200);
    await settle();
    expect((await unreadOf(author)).map((n) => n.kind)).toEqual(["merge", "watch"]);
    expect((await unreadOf(reviewer)).map((n) => n.kind)).toEqual(["watch", "mention", "review-request"]);
  });

  test("Unwatch stops the notifications and emails; an author who unwatched stays unwatched", async () => {
    const cr = await changeRequest("Policies");
    const browser = await browserOf(watcher);
    expect((await browser.submit(cr.page, cr.page, { intent: "watch" })).status).toBe(303);
    expect((await (await browserOf(author)).submit(cr.page, cr.page, { intent: "unwatch" })).status).toBe(303);
    expect((await browser.submit(cr.page, cr.page, { intent: "unwatch" })).status).toBe(303);
    const page = await browser.get(cr.page);
    expect(page.text).toContain('value="watch"');
    expect(page.text).not.toMatch(/watch(es)? it\./);
    await Promise.all([clear(watcher), clear(author)]);
    const [watcherMails, authorMails] = [mailbox.count(watcher.email), mailbox.count(author.email)];
    expect((await owner.api.post(`${cr.api}/comments`, { body: { markdown: "Nobody listens" } })).status).toBe(200);
    await settle();
    expect(await unreadOf(watcher)).toEqual([]);
    expect(await unreadOf(author)).toEqual([]);
    expect(mailbox.count(watcher.email)).toBe(watcherMails);
    expect(mailbox.count(author.email)).toBe(authorMails);
  });

  test("a user of another organization or a member who cannot read the space cannot watch (404) and receives nothing", async () => {
    const cr = await changeRequest("Secrets");
    await Promise.all([clear(guest), clear(outsider)]);
    for (const user of [guest, outsider]) {
      const browser = await browserOf(user);
      expect((await browser.get(cr.page)).status).toBe(404);
      // The form of another page, posted here: the token is good, the change request is not theirs.
      const token = (await browser.get("/app/notifications")).text;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(token)?.[1] ?? "";
      expect((await browser.post(cr.page, { _csrf: csrf, intent: "watch" })).status).toBe(404);
    }
    const [guestMails, outsiderMails] = [mailbox.count(guest.email), mailbox.count(outsider.email)];
    expect((await owner.api.post(`${cr.api}/comments`, { body: { markdown: "Internal only" } })).status).toBe(200);
    expect((await owner.api.post(`${cr.api}/merge`)).status).toBe(200);
    await settle();
    expect(await unreadOf(guest)).toEqual([]);
    expect(await unreadOf(outsider)).toEqual([]);
    expect(mailbox.count(guest.email)).toBe(guestMails);
    expect(mailbox.count(outsider.email)).toBe(outsiderMails);
  });

  test("on a public space, which anyone may read, only members watch: an outsider has no form, is refused (404) and receives nothing", async () => {
    // (change-requests' own check, for a non-member who reads the change request through the API: watch.test.ts.)
    const cr = await changeRequest("Public");
    expect((await owner.api.patch(`/v1/spaces/${cr.spaceId}`, { visibility: "public" })).status).toBe(200);
    await clear(outsider);
    const browser = await browserOf(outsider);
    const page = await browser.get(cr.page);
    expect(page.text).not.toContain('id="watch"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await browser.get("/app/notifications")).text)?.[1] ?? "";
    expect((await browser.post(cr.page, { _csrf: csrf, intent: "watch" })).status).toBe(404);
    expect((await browser.get(cr.page)).text).not.toContain('id="watch"');
    const mails = mailbox.count(outsider.email);
    expect((await owner.api.post(`${cr.api}/comments`, { body: { markdown: "For members" } })).status).toBe(200);
    await settle();
    expect(await unreadOf(outsider)).toEqual([]);
    expect(mailbox.count(outsider.email)).toBe(mails);
  });

  test("the form needs its CSRF token; signed out is refused; nothing changes", async () => {
    const cr = await changeRequest("Tokens");
    const browser = await browserOf(watcher);
    expect((await browser.post(cr.page, { intent: "watch" })).status).toBe(403);
    expect((await browser.post(cr.page, { intent: "watch", _csrf: "forged" })).status).toBe(403);
    expect((await new Browser(sys.url).post(cr.page, { intent: "watch" })).status).toBe(403);
    expect((await browser.get(cr.page)).text).toContain('value="watch"');
  });

  test("with “Change requests I watch” emails off, a watched change request's comment reaches the bell but not the mailbox", async () => {
    const cr = await changeRequest("Quiet");
    const browser = await browserOf(watcher);
    expect((await browser.get("/app/account")).text).toContain('id="kind-watch" name="kind-watch" value="on" checked>');
    const saved = await browser.submit("/app/account", "/app/account", { intent: "email-kinds", "kind-mention": "on", "kind-reply": "on", "kind-review-request": "on", "kind-merge": "on" });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('<input type="checkbox" id="kind-watch" name="kind-watch" value="on"> ');
    expect((await browser.submit(cr.page, cr.page, { intent: "watch" })).status).toBe(303);
    await clear(watcher);
    const mails = mailbox.count(watcher.email);
    expect((await owner.api.post(`${cr.api}/comments`, { body: { markdown: "Quietly noted" } })).status).toBe(200);
    await settle();
    expect((await unreadOf(watcher)).map((n) => n.kind)).toEqual(["watch"]);
    expect(mailbox.count(watcher.email)).toBe(mails);
  });
});
