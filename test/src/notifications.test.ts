// Notifications (issue 39) through HTTP, in every process mode: mentions (`@[Name](user:ID)`) in comments and
// replies, replies in one's threads, review requests and merges notify members who may read the space; the
// app's bell counts the unread ones, its notifications page lists them and marks them read.
import { addMember, createOrg, createSpace, createUser, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";
import { bellCount, listed, type Shown } from "./notifications-page";


const mention = (user: TestUser, name = "Someone") => `@[${name}](user:${user.id})`;

describe.each(MODES)("notifications over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let editor: TestUser;
  let reviewer: TestUser;
  let reader: TestUser;
  let commenter: TestUser;
  let outsider: TestUser;
  let guest: TestUser;
  const browsers = new Map<string, Browser>();

  beforeAll(async () => {
    sys = await start(mode);
    [owner, editor, reviewer, reader, commenter, outsider, guest] = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reviewer.email, "review");
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, commenter.email, "comment");
    // A guest of the organization sees only the spaces shared with them.
    await addMember(owner.api, orgId, guest.email, null);
    await createOrg(outsider.api);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** A signed-in browser of `user` (one per user, kept). */
  async function browserOf(user: TestUser): Promise<Browser> {
    let browser = browsers.get(user.id);
    if (!browser) {
      browser = new Browser(sys.url);
      const res = await signIn(browser, user.token);
      expect(res.status).toBe(303);
      browsers.set(user.id, browser);
    }
    return browser;
  }

  async function notificationsOf(user: TestUser): Promise<{ items: Shown[]; html: string }> {
    const page = await (await browserOf(user)).get("/app/notifications");
    expect(page.status).toBe(200);
    return { items: listed(page.text), html: page.text };
  }

  /** Marks all of `user`'s notifications read, so that a test reads only its own. */
  async function clear(user: TestUser): Promise<void> {
    const browser = await browserOf(user);
    const res = await browser.submit("/app/notifications", "/app/notifications", { intent: "read-all" });
    expect(res.status).toBe(303);
  }

  const unreadOf = async (user: TestUser) => (await notificationsOf(user)).items.filter((n) => n.unread);

  async function comment(api: ApiClient, spaceId: string, markdown: string): Promise<string> {
    const res = await api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown } });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  test("a mention notifies the member: listed with who, where, a link, the excerpt and a relative time; the bell counts it; read once marked", async () => {
    await clear(reader);
    const spaceId = (await createSpace(owner.api, orgId, { title: "Handbook" })).id;
    const applied = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "insert_page", id: "pgnotified", title: "Onboarding", markdown: "Welcome" }] });
    expect(applied.status).toBe(201);
    const res = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { page: "pgnotified", body: { markdown: `Could ${mention(reader, "Reader")} check this? Also me: ${mention(commenter)}` } });
    expect(res.status).toBe(200);
    const unread = await unreadOf(reader);
    expect(unread).toHaveLength(1);
    expect(unread[0].kind).toBe("mention");
    expect(unread[0].html).toContain("Onboarding in Handbook");
    // The link opens the page with the comment under it.
    const link = /<a href="([^"]+)">/.exec(unread[0].html)![1];
    expect(link).toBe(`/s/${spaceId}/${res.body.target.page.path}#comments`);
    const shown = await (await browserOf(reader)).get(link.replace(/#.*$/, ""));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Could @Reader check this?");
    expect(unread[0].html).toContain("Could @Reader check this?");
    expect(unread[0].html).toContain("just now");
    // Mentioning oneself notifies nobody.
    expect((await unreadOf(commenter)).some((n) => n.html.includes(spaceId))).toBe(false);

    const browser = await browserOf(reader);
    expect(bellCount((await browser.get("/app")).text)).toBe(1);
    const marked = await browser.post("/app/notifications", { _csrf: csrfOf((await browser.get("/app/notifications")).text), intent: "read", notification: unread[0].id });
    expect(marked.status).toBe(303);
    expect(marked.location).toBe("/app/notifications");
    const after = await notificationsOf(reader);
    expect(after.items.find((n) => n.id === unread[0].id)?.unread).toBe(false);
    expect(bellCount(after.html)).toBe(0);
  });

  test("a mention of a user of another organization, or of a member who cannot read the space, notifies nobody", async () => {
    await Promise.all([clear(guest), clear(outsider), clear(owner)]);
    const spaceId = (await createSpace(owner.api, orgId, { title: "Members only" })).id;
    expect((await guest.api.get(`/v1/spaces/${spaceId}`)).status).toBe(404);
    await comment(editor.api, spaceId, `${mention(outsider)} ${mention(guest)} ${mention(owner)}`);
    // The owner may read it: notified, by the same comment as the others.
    expect((await unreadOf(owner)).some((n) => n.html.includes(spaceId))).toBe(true);
    expect(await unreadOf(outsider)).toEqual([]);
    expect(await unreadOf(guest)).toEqual([]);

    // Shared with the guest, the space notifies them; the outsider still nothing (not a member).
    expect((await owner.api.post(`/v1/spaces/${spaceId}/permissions`, { role: "read", users: [guest.id] })).status).toBeLessThan(300);
    expect((await guest.api.get(`/v1/spaces/${spaceId}`)).status).toBe(200);
    await comment(editor.api, spaceId, `${mention(outsider)} ${mention(guest)}`);
    expect(await unreadOf(outsider)).toEqual([]);
    expect((await unreadOf(guest)).map((n) => n.kind)).toEqual(["mention"]);
  });

  test("a reply notifies the comment's author and earlier repliers, never the one replying", async () => {
    await Promise.all([clear(commenter), clear(editor), clear(owner)]);
    const spaceId = (await createSpace(owner.api, orgId, { title: "Thread" })).id;
    const commentId = await comment(commenter.api, spaceId, "A question");
    const path = `/v1/spaces/${spaceId}/comments/${commentId}/replies`;
    expect((await editor.api.post(path, { body: { markdown: "First answer" } })).status).toBe(200);
    expect((await owner.api.post(path, { body: { markdown: "Second answer" } })).status).toBe(200);
    const toAuthor = (await unreadOf(commenter)).filter((n) => n.html.includes(spaceId));
    expect(toAuthor.map((n) => n.kind)).toEqual(["reply", "reply"]);
    expect(toAuthor[0].html).toContain("Second answer");
    const toEditor = (await unreadOf(editor)).filter((n) => n.html.includes(spaceId));
    expect(toEditor).toHaveLength(1);
    expect(toEditor[0].html).toContain("Second answer");
    expect((await unreadOf(owner)).filter((n) => n.html.includes(spaceId))).toEqual([]);
  });

  test("a review request notifies the reviewer; a merge notifies the change request's author; a mention in its thread links to it", async () => {
    await Promise.all([clear(reviewer), clear(editor)]);
    const spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "New intro" });
    expect(created.status).toBe(201);
    const base = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    // The change request's page (a mention in its thread: at its comments).
    const link = `href="/s/${spaceId}/~/changes/${created.body.number}`;
    expect((await editor.api.post(`${base}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(200);
    const asked = await unreadOf(reviewer);
    expect(asked.map((n) => n.kind)).toEqual(["review-request"]);
    expect(asked[0].html).toContain(link);
    expect(asked[0].html).toContain("New intro");

    expect((await reviewer.api.post(`${base}/comments`, { body: { markdown: `Done? ${mention(editor)}` } })).status).toBe(200);
    expect((await owner.api.post(`${base}/merge`)).status).toBe(200);
    const toAuthor = await unreadOf(editor);
    expect(toAuthor.map((n) => n.kind)).toEqual(["merge", "mention"]);
    for (const n of toAuthor) expect(n.html).toContain(link);
    const shown = await (await browserOf(editor)).get(`/s/${spaceId}/~/changes/${created.body.number}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Done? @Someone");
  });

  test("each user sees only their own notifications: another's id is 404 and stays unread", async () => {
    await clear(reader);
    const spaceId = (await createSpace(owner.api, orgId)).id;
    await comment(commenter.api, spaceId, `Hi ${mention(reader)}`);
    const [theirs] = await unreadOf(reader);
    expect((await notificationsOf(editor)).items.some((n) => n.id === theirs.id)).toBe(false);
    const browser = await browserOf(editor);
    const res = await browser.submit("/app/notifications", "/app/notifications", { intent: "read", notification: theirs.id });
    expect(res.status).toBe(404);
    expect((await unreadOf(reader)).map((n) => n.id)).toEqual([theirs.id]);
  });

  test("signed out: the page sends to sign-in and a form is refused; a form without the CSRF token is refused", async () => {
    const anonymous = new Browser(sys.url);
    const page = await anonymous.get("/app/notifications");
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/app/sign-in?return=${encodeURIComponent("/app/notifications")}`);
    expect((await anonymous.post("/app/notifications", { intent: "read-all" })).status).toBe(403);

    await clear(reader);
    await comment(commenter.api, (await createSpace(owner.api, orgId)).id, `Hi ${mention(reader)}`);
    const browser = await browserOf(reader);
    expect((await browser.post("/app/notifications", { intent: "read-all" })).status).toBe(403);
    expect((await browser.post("/app/notifications", { intent: "read-all", _csrf: "forged" })).status).toBe(403);
    expect(await unreadOf(reader)).toHaveLength(1);
  });

  test("bad forms are 400 naming the field", async () => {
    const browser = await browserOf(reader);
    const noIntent = await browser.submit("/app/notifications", "/app/notifications", { intent: "nonsense" });
    expect(noIntent.status).toBe(400);
    expect(noIntent.text).toContain("intent");
    const badId = await browser.submit("/app/notifications", "/app/notifications", { intent: "read", notification: "../x" });
    expect(badId.status).toBe(400);
    expect(badId.text).toContain("notification");
    const badSetting = await browser.submit("/app/account", "/app/account", { intent: "notifications", email: "maybe" });
    expect(badSetting.status).toBe(400);
    expect(badSetting.text).toContain("email");
  });

  test("hostile mention text: a huge comment of mentions answers 200 and notifies at most the first 20 mentioned", async () => {
    await Promise.all([clear(reader), clear(editor)]);
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const fakes = Array.from({ length: 19 }, (_, i) => `@[U${i}](user:nobody${i})`);
    // The reader is the 20th mentioned, the editor the 21st: past the cap, text.
    const tail = Array.from({ length: 2000 }, (_, i) => `@[${"x".repeat(10)}](user:z${i})`).join(" ");
    const markdown = `${fakes.join(" ")} ${mention(reader)} ${mention(editor)} ${tail}`.slice(0, 65_536);
    await comment(commenter.api, spaceId, markdown);
    expect(await unreadOf(reader)).toHaveLength(1);
    expect(await unreadOf(editor)).toEqual([]);
    // Unclosed and nested brackets, long names: answered, nobody notified.
    const odd = `@[${"[".repeat(30_000)}](user:${reader.id}) @[${"a".repeat(300)}](user:${reader.id}) @[`.repeat(2);
    expect((await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: odd } })).status).toBe(200);
    expect(await unreadOf(reader)).toHaveLength(1);
  });
});
