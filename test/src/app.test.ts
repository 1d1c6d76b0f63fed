// The app through the HTTP gateway: sessions (sign-in with an API token, cookie flags, stored hashed,
// sign-out, CSRF, open redirects), every `urls.app` the API returns opening its page for a member and
// not for anyone else, escaped content, the CSP, and the write loop (change request, edit, comment).
import { createHash } from "node:crypto";
import { addMember, createOrg, createSpace, createUser, expectSchema, withBodies, type RunningSystem } from "@docshelf/testkit";
import { addPages } from "./sites-serve-fixtures";
import { countStored } from "./store-snapshot";
import { MODES, start } from "./modes";
import { Browser, appWorld, csrfOf, pathOf, signIn, type AppWorld } from "./app-fixtures";

// The published pages' CSP plus the app's own built scripts (every signed-in page's small script, the block editor's).
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; script-src 'self'; connect-src 'self'";
/** A script tag other than the app's own built ones (`/app/assets/…`): what a page must never carry. */
const FOREIGN_SCRIPT = /<script(?![^>]*\ssrc="\/app\/assets\/[a-z]+-[A-Z0-9]{8,}\.js")/i;

describe.each(MODES)("the app over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  describe("sessions", () => {
    test("signing in with an API token sets an HttpOnly, SameSite=Lax session cookie stored only as its SHA-256", async () => {
      const browser = new Browser(sys.url);
      const res = await signIn(browser, w.alice.token, "/o/" + w.orgId);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/o/${w.orgId}`);
      const set = res.headers.getSetCookie().find((c) => c.startsWith("docshelf_session="))!;
      expect(set).toMatch(/; HttpOnly/);
      expect(set).toMatch(/; SameSite=Lax/);
      expect(set).toMatch(/; Path=\//);
      // Plain http without a proxy saying https: no Secure (the browser would drop it).
      expect(set).not.toMatch(/Secure/);
      const value = browser.cookies.get("docshelf_session")!;
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await browser.get(`/o/${w.orgId}`)).status).toBe(200);

      // The store (the embedded files, or MongoDB in the MongoDB run) holds the session by its hash only.
      const where = { dataDir: sys.dataDir, mongoUrl: (sys as RunningSystem & { mongoUrl?: string }).mongoUrl };
      const hash = createHash("sha256").update(value).digest("hex");
      expect(await countStored(where, "app", "sessions", (d) => (d._id ?? d.id) === hash && d.userId === w.alice.id)).toBe(1);
      expect(await countStored(where, "app", "sessions", (d) => JSON.stringify(d).includes(value) || JSON.stringify(d).includes(w.alice.token))).toBe(0);
    });

    test("a client's own X-Forwarded-Proto (no trusted proxy) does not make the cookie Secure", async () => {
      const form = await fetch(`${sys.url}/app/sign-in`, { headers: { "x-forwarded-proto": "https" } });
      expect(form.headers.getSetCookie().join("\n")).not.toMatch(/Secure/);
    });

    test("signing in again replaces the browser's session: the previous cookie no longer works", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const first = browser.cookieHeader();
      await signIn(browser, w.alice.token);
      expect(browser.cookieHeader()).not.toBe(first);
      expect((await browser.get(pathOf(w.urls.org))).status).toBe(200);
      const old = await fetch(sys.url + pathOf(w.urls.org), { headers: { cookie: first }, redirect: "manual" });
      expect(old.status).toBe(303);
    });

    test("a wrong token is refused and opens no session", async () => {
      const browser = new Browser(sys.url);
      const res = await signIn(browser, "not-a-real-token-at-all-0123456789");
      expect(res.status).toBe(401);
      expect(res.text).toContain("That token is unknown or was revoked.");
      expect(browser.cookies.has("docshelf_session")).toBe(false);
    });

    test("signing in without the form's CSRF token is refused", async () => {
      const browser = new Browser(sys.url);
      await browser.get("/app/sign-in");
      const res = await browser.post("/app/sign-in", { token: w.alice.token });
      expect(res.status).toBe(403);
      expect(browser.cookies.has("docshelf_session")).toBe(false);
    });

    test("a form posted without the session's CSRF token, or with another session's, is refused (403)", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const other = new Browser(sys.url);
      await signIn(other, w.alice.token);
      const otherCsrf = csrfOf((await other.get(pathOf(w.urls.space))).text);

      const path = `/s/${w.spaceId}/~/changes`;
      expect((await browser.post(path, { subject: "No token" })).status).toBe(403);
      expect((await browser.post(path, { subject: "Wrong token", _csrf: otherCsrf })).status).toBe(403);
      const ok = await browser.submit(pathOf(w.urls.space), path, { subject: "With the token" });
      expect(ok.status).toBe(303);
      expect(ok.location).toMatch(new RegExp(`^/s/${w.spaceId}/~/changes/\\d+$`));
    });

    test("signing out ends the session: the same cookie no longer opens pages", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const cookie = browser.cookieHeader();
      const out = await browser.submit(pathOf(w.urls.org), "/app/sign-out", {});
      expect(out.status).toBe(303);
      expect(out.headers.getSetCookie().join("\n")).toMatch(/docshelf_session=; .*Max-Age=0/);
      const replay = await fetch(sys.url + pathOf(w.urls.org), { headers: { cookie }, redirect: "manual" });
      expect(replay.status).toBe(303);
      expect(replay.headers.get("location")).toMatch(/^\/app\/sign-in\?return=/);
    });

    test("revoking the API token a session was opened with ends the session", async () => {
      const token = await sys.admin.post(`/v1/users/${w.alice.id}/tokens`, { label: "app" });
      const browser = new Browser(sys.url);
      await signIn(browser, token.body.token);
      expect((await browser.get(pathOf(w.urls.org))).status).toBe(200);
      const revoked = await sys.admin.delete(`/v1/users/${w.alice.id}/tokens/${token.body.id}`);
      expect([200, 204]).toContain(revoked.status);
      const after = await browser.get(pathOf(w.urls.org));
      expect(after.status).toBe(303);
    });

    test("a link opened without a session leads to sign-in and back", async () => {
      const browser = new Browser(sys.url);
      const target = pathOf(w.urls.page);
      const first = await browser.get(target);
      expect(first.status).toBe(303);
      expect(first.location).toBe(`/app/sign-in?return=${encodeURIComponent(target)}`);
      const form = await browser.get(first.location!);
      expect(form.text).toContain(`name="return" value="${target}"`);
      const res = await browser.post("/app/sign-in", { _csrf: csrfOf(form.text), token: w.alice.token, return: target });
      expect(res.location).toBe(target);
      expect((await browser.get(target)).status).toBe(200);
    });

    test.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/%0d%0aSet-Cookie:x=1", " //evil.example"])(
      "sign-in never sends the browser elsewhere (return=%p)",
      async (returnTo) => {
        const browser = new Browser(sys.url);
        const res = await signIn(browser, w.alice.token, returnTo);
        expect(res.status).toBe(303);
        const location = res.location!;
        expect(location.startsWith("/")).toBe(true);
        expect(location.startsWith("//")).toBe(false);
        expect(location).not.toMatch(/evil|[\r\n\\]/);
      },
    );
  });

  describe("every urls.app opens its page", () => {
    let alice: Browser;
    let bob: Browser;

    beforeAll(async () => {
      alice = new Browser(sys.url);
      await signIn(alice, w.alice.token);
      bob = new Browser(sys.url);
      await signIn(bob, w.bob.token);
    });

    test.each([
      ["organization", "org", "Alice&#39;s org"],
      ["space", "space", "Welcome"],
      ["page", "page", "The <strong>handbook</strong> starts here."],
      ["change request", "changeRequest", "Improve the welcome"],
      ["site", "site", "Docs"],
      ["collection", "collection", "Guides"],
      ["revision", "revision", "Handbook (revision"],
      ["OpenAPI spec", "openapi", "OpenAPI spec pets"],
    ] as const)("the %s's page opens for a member, and is not found for a member of another organization", async (_name, key, shows) => {
      const path = pathOf(w.urls[key]);
      const mine = await alice.get(path);
      expect(mine.status).toBe(200);
      expect(mine.text).toContain(shows);
      expect(mine.headers.get("content-security-policy")).toBe(CSP);
      expect(mine.headers.get("cache-control")).toBe("private, no-store");
      expect(mine.headers.get("x-frame-options")).toBe("DENY");

      const theirs = await bob.get(path);
      expect(theirs.status).toBe(404);
      expect(theirs.text).not.toContain(shows);

      const nobody = await new Browser(sys.url).get(path);
      expect(nobody.status).toBe(303);
      expect(nobody.location).toMatch(/^\/app\/sign-in\?return=/);
    });

    test("a collection opens only under its own organization's path, even for a member of both", async () => {
      const other = await createOrg(w.alice.api, "Alice's second org");
      const collectionPath = pathOf(w.urls.collection);
      expect((await alice.get(collectionPath)).status).toBe(200);
      const elsewhere = await alice.get(collectionPath.replace(`/o/${w.orgId}/`, `/o/${other.id}/`));
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.text).not.toContain("Guides");
    });

    test("the organization page lists spaces and sites, and members for an administrator", async () => {
      const res = await alice.get(pathOf(w.urls.org));
      expect(res.text).toContain(`href="/s/${w.spaceId}"`);
      expect(res.text).toContain("Members");
      expect(res.text).toContain(w.alice.email);
    });

    test("the space page lists its change requests in progress (drafts too)", async () => {
      const res = await alice.get(pathOf(w.urls.space));
      expect(res.text).toContain(`href="${pathOf(w.urls.changeRequest)}"`);
      expect(res.text).toContain("Improve the welcome");
    });

    test("the start page lists the viewer's organizations only", async () => {
      const res = await bob.get("/app");
      expect(res.status).toBe(200);
      expect(res.text).toContain("Bob&#39;s org");
      expect(res.text).not.toContain("Alice&#39;s org");
    });

    test("a title and Markdown carrying script render inert, as text", async () => {
      const res = await alice.get(pathOf(w.urls.xssPage));
      expect(res.status).toBe(200);
      expect(res.text).toContain("&lt;img src=x onerror=&quot;alert(&#39;title&#39;)&quot;&gt;Tricky");
      expect(res.text).not.toMatch(FOREIGN_SCRIPT);
      expect(res.text).not.toMatch(/<img[^>]*onerror/i);
      expect(res.text).not.toMatch(/(href|src)="?javascript:/i);
      // The link with a script URL stays text; GitBook's HTML (an <img>) passes the renderer's allow-list
      // without its handler (packages/document's render/, issue 41).
      expect(res.text).toContain(`A [link](javascript:alert('link')) and <img src="x" />.`);
      expect(res.text).toContain("<strong>bold</strong>");
    });

    test("a space whose tree is too large for one message (streamed by content) still opens", async () => {
      const big = await createSpace(w.alice.api, w.orgId, { title: "Big space" });
      const pages = Array.from({ length: 1500 }, (_, i) => ({ title: `Chapter number ${i} with a long enough title to fill the tree`, markdown: `Body ${i}` }));
      await addPages(sys, big.id, pages);
      const tree = await w.alice.api.get(`/v1/spaces/${big.id}/content`);
      expect(JSON.stringify(tree.body).length).toBeGreaterThan(512 * 1024);
      const res = await alice.get(`/s/${big.id}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain("Chapter number 0 with a long enough title");
      // Only a window of the tree is in the page, not all 1,500 links.
      expect(res.text).toContain("more pages: use search");
      expect(res.text.length).toBeLessThan(100_000);
      const last = (tree.body.pages as Array<{ title: string; path: string }>).find((p) => p.title.startsWith("Chapter number 1499 "))!;
      const deep = await alice.get(`/s/${big.id}/${last.path}`);
      expect(deep.status).toBe(200);
      expect(deep.text).toContain(`aria-current="page">Chapter number 1499 with a long enough title`);
    }, 60_000);

    test("the files of a space are listed with links that download them", async () => {
      const inserted = await sys.admin.post(`/v1/_test/spaces/${w.spaceId}/changes`, {
        changes: [{ type: "insert_file", name: "<notes>.txt", contentType: "text/plain", data: Buffer.from("hello file").toString("base64") }],
      });
      expect(inserted.status).toBe(201);
      const res = await alice.get(`/s/${w.spaceId}/~/files`);
      expect(res.status).toBe(200);
      expect(res.text).toContain("&lt;notes&gt;.txt");
      const href = /<a href="([^"]+)">&lt;notes&gt;.txt<\/a>/.exec(res.text)![1].replace(/&amp;/g, "&");
      const download = await fetch(href);
      expect(download.status).toBe(200);
      expect(await download.text()).toBe("hello file");
      expect((await bob.get(`/s/${w.spaceId}/~/files`)).status).toBe(404);
    });

    test("an unknown path under the app is a 404 page with the CSP", async () => {
      const res = await alice.get(`/s/${w.spaceId}/~/nothing-here`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-security-policy")).toBe(CSP);
    });
  });

  describe("writing", () => {
    test("create a change request, edit a page's Markdown with a preview, save, comment", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const created = await browser.submit(pathOf(w.urls.space), `/s/${w.spaceId}/~/changes`, { subject: "Edit from the app" });
      const crPath = created.location!;
      const cr = await browser.get(crPath);
      expect(cr.status).toBe(200);
      expect(cr.text).toContain("Edit from the app");

      const editPath = `${crPath}/welcome?edit=1`;
      const editor = await browser.get(editPath);
      expect(editor.status).toBe(200);
      expect(editor.text).toContain("The **handbook** starts here.");
      const csrf = csrfOf(editor.text);
      const markdown = "# Welcome\n\nEdited <b>in</b> the **app**.\n";
      const preview = await browser.post(`${crPath}/welcome`, { _csrf: csrf, intent: "preview", markdown });
      expect(preview.status).toBe(200);
      expect(preview.text).toContain("the <strong>app</strong>.");
      expect(preview.text).toContain("Edited &lt;b&gt;in&lt;/b&gt; the **app**.");
      const saved = await browser.post(`${crPath}/welcome`, { _csrf: csrf, intent: "save", markdown });
      expect(saved.status).toBe(303);

      // The page in the change request shows its diff against main, line by line, escaped.
      const diff = await browser.get(`${crPath}/welcome`);
      expect(diff.text).toContain("<del>- The **handbook** starts here.</del>");
      expect(diff.text).toContain("<ins>+ Edited &lt;b&gt;in&lt;/b&gt; the **app**.</ins>");
      const number = crPath.split("/").pop();
      const page = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
      expect(page.body.markdown).toContain("Edited <b>in</b> the **app**.");
      // Main is untouched until the change request merges.
      const main = await w.alice.api.get(`/v1/spaces/${w.spaceId}/content/path/welcome?format=markdown`);
      expect(main.body.markdown).not.toContain("Edited");

      const commented = await browser.post(crPath, { _csrf: csrf, intent: "comment", markdown: "Looks *good* <script>alert(1)</script>" });
      expect(commented.status).toBe(303);
      const withComment = await browser.get(crPath);
      expect(withComment.text).toContain("Looks <em>good</em>");
      expect(withComment.text).not.toMatch(FOREIGN_SCRIPT);
    });

    test("review and merge: a reviewer approves, the author merges, the space shows the merged page", async () => {
      const carol = await createUser(sys.admin, { displayName: "Carol" });
      await addMember(w.alice.api, w.orgId, carol.email, "review");
      const author = new Browser(sys.url);
      await signIn(author, w.alice.token);
      const created = await author.submit(pathOf(w.urls.space), `/s/${w.spaceId}/~/changes`, { subject: "To merge" });
      const crPath = created.location!;
      const editor = await author.get(`${crPath}/welcome?edit=1`);
      const saved = await author.post(`${crPath}/welcome`, { _csrf: csrfOf(editor.text), intent: "save", markdown: "# Welcome\n\nMerged from the app.\n" });
      expect(saved.status).toBe(303);
      expect((await author.post(crPath, { _csrf: csrfOf(editor.text), intent: "add-page", title: "Added then merged" })).status).toBe(303);
      // The space's tree before the merge (the app keeps trees by revision: the merge must show a new one).
      expect((await author.get(`/s/${w.spaceId}`)).text).not.toContain("Added then merged");

      const reviewer = new Browser(sys.url);
      await signIn(reviewer, carol.token);
      const approved = await reviewer.submit(crPath, crPath, { intent: "approve" });
      expect(approved.status).toBe(303);
      expect((await author.get(crPath)).text).toContain("Carol: approved");

      const merged = await author.submit(crPath, crPath, { intent: "merge", confirm: "yes" });
      expect(merged.status).toBe(303);
      const mergedPage = await author.get(`/s/${w.spaceId}/welcome`);
      expect(mergedPage.text).toContain("Merged from the app.");
      expect(mergedPage.text).toContain(">Added then merged</a>");
      // Merged: no more merge button, and merging again is refused with the action's reason.
      const after = await author.get(crPath);
      expect(after.text).not.toContain('value="merge"');
      const again = await author.post(crPath, { _csrf: csrfOf(after.text), intent: "merge", confirm: "yes" });
      expect(again.status).toBe(400);
      expect(again.text).toContain("cannot be merged");
    });

    test("add a page to a change request, and reply to a comment", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const created = await browser.submit(pathOf(w.urls.space), `/s/${w.spaceId}/~/changes`, { subject: "More pages" });
      const crPath = created.location!;
      const added = await browser.submit(crPath, crPath, { intent: "add-page", title: "Release notes" });
      expect(added.status).toBe(303);
      const cr = await browser.get(crPath);
      expect(cr.text).toMatch(/<a href="[^"]*\/release-notes">Release notes<\/a>/);
      expect((await browser.get(`${crPath}/release-notes?edit=1`)).status).toBe(200);
      expect((await browser.get(`${crPath}/release-notes`)).text).toContain("A new page: main has none at this path.");
      expect((await browser.get(`${crPath}/welcome`)).text).toContain("No change to this page.");

      // The same form adds a page group (its second button): a group at the top level, in the API too.
      const form = await browser.get(crPath);
      expect(form.text).toContain('<button type="submit" name="kind" value="group">Add group</button>');
      expect((await browser.submit(crPath, crPath, { intent: "add-page", kind: "group", title: "Reference" })).status).toBe(303);
      expect((await browser.submit(crPath, crPath, { intent: "add-page", kind: "page", title: "Glossary" })).status).toBe(303);
      const number = crPath.split("/").pop();
      const content = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content`);
      // The group the form added is a GitBook page group in the change request's revision.
      expectSchema("getRevisionOfChangeRequestById", 200, withBodies(content.body));
      const top = content.body.pages.map((p: { title: string; type: string }) => [p.title, p.type]);
      expect(top).toEqual(expect.arrayContaining([["Release notes", "document"], ["Reference", "group"], ["Glossary", "document"]]));
      // The change request's tree shows the group as a heading, not a page to open.
      const withGroup = await browser.get(crPath);
      expect(withGroup.text).toContain("<li><strong>Reference</strong>");
      expect(withGroup.text).toMatch(/<a href="[^"]*\/glossary">Glossary<\/a>/);
      // Another kind, or no title: a 400 page naming the field, nothing added.
      await browser.refused(crPath, [
        [{ intent: "add-page", kind: "folder", title: "Odd" }, "kind: add a page or a group."],
        [{ intent: "add-page", kind: "group", title: " " }, "title: a group needs a title."],
      ]);
      // Without a session's form token: 403; another organization's member: 404; nothing added either way.
      expect((await browser.post(crPath, { intent: "add-page", kind: "group", title: "No token" })).status).toBe(403);
      const bob = new Browser(sys.url);
      await signIn(bob, w.bob.token);
      expect((await bob.post(crPath, { _csrf: csrfOf((await bob.get("/app")).text), intent: "add-page", kind: "group", title: "Theirs" })).status).toBe(404);
      const after = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content`);
      for (const title of ["Odd", "No token", "Theirs"]) expect(after.body.pages.map((p: { title: string }) => p.title)).not.toContain(title);

      await browser.submit(crPath, crPath, { intent: "comment", markdown: "Needs a changelog" });
      const withComment = await browser.get(crPath);
      const commentId = /name="comment" value="([^"]+)"/.exec(withComment.text)![1];
      const replied = await browser.post(crPath, { _csrf: csrfOf(withComment.text), intent: "reply", comment: commentId, markdown: "Added **one**" });
      expect(replied.status).toBe(303);
      expect((await browser.get(crPath)).text).toContain("Added <strong>one</strong>");
    });

    test("comment on a page of the space and reply; the comment is the page's only", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const pagePath = pathOf(w.urls.page);
      const posted = await browser.submit(pagePath, pagePath, { intent: "comment", markdown: "Typo in *here*" });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe(pagePath);
      const withComment = await browser.get(pagePath);
      expect(withComment.text).toContain("Typo in <em>here</em>");
      const commentId = /name="comment" value="([^"]+)"/.exec(withComment.text)![1];
      const replied = await browser.post(pagePath, { _csrf: csrfOf(withComment.text), intent: "reply", comment: commentId, markdown: "Fixed" });
      expect(replied.status).toBe(303);
      expect((await browser.get(pagePath)).text).toMatch(/class="replies"><li>.*Fixed/s);
      // Another page of the space does not show it.
      expect((await browser.get(pathOf(w.urls.xssPage))).text).not.toContain("Typo in");
      const api = await w.alice.api.get(`/v1/spaces/${w.spaceId}/comments`);
      expect(api.body.items.some((c: { body: { markdown?: string } }) => JSON.stringify(c.body).includes("Typo in"))).toBe(true);

      const bob = new Browser(sys.url);
      await signIn(bob, w.bob.token);
      const refused = await bob.post(pagePath, { _csrf: csrfOf((await bob.get("/app")).text), intent: "comment", markdown: "hi" });
      expect(refused.status).toBe(404);
    });

    test("search a space: its pages that match, linked", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const res = await browser.get(`/s/${w.spaceId}/~/search?q=handbook`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`href="/s/${w.spaceId}/welcome"`);
      const none = await browser.get(`/s/${w.spaceId}/~/search?q=${encodeURIComponent("<b>zzqx</b>")}`);
      expect(none.text).toContain("Nothing matches “&lt;b&gt;zzqx&lt;/b&gt;”.");
      const bob = new Browser(sys.url);
      await signIn(bob, w.bob.token);
      expect((await bob.get(`/s/${w.spaceId}/~/search?q=handbook`)).status).toBe(404);
    });

    test("an administrator invites a member from the organization page; others cannot", async () => {
      const dave = await createUser(sys.admin, { displayName: "Dave" });
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const invited = await browser.submit(pathOf(w.urls.org), pathOf(w.urls.org), { intent: "invite", email: dave.email, role: "edit" });
      expect(invited.status).toBe(303);
      // Dave joins when he accepts, from his own home page (tenancy-invites.test.ts: declining, others' invitations).
      const daves = new Browser(sys.url);
      await signIn(daves, dave.token);
      expect((await daves.get(pathOf(w.urls.org))).status).toBe(404);
      const accepted = await daves.submit("/app", "/app", { intent: "accept-invite", organization: w.orgId, invite: (await dave.api.get("/v1/user/invites")).body.items[0].id });
      expect(accepted.status).toBe(303);
      const members = await w.alice.api.get(`/v1/orgs/${w.orgId}/members`);
      expect(members.body.items.find((m: { user: { id: string } }) => m.user.id === dave.id)?.role).toBe("edit");
      expect((await daves.get(pathOf(w.urls.org))).status).toBe(200);
      // Dave (edit) is no administrator: no member list, no invite form, and an invite posted anyway is refused.
      const page = await daves.get(pathOf(w.urls.org));
      expect(page.text).not.toContain('value="invite"');
      const refused = await daves.post(pathOf(w.urls.org), { _csrf: csrfOf(page.text), intent: "invite", email: "eve@example.com", role: "admin" });
      expect(refused.status).toBe(404);
    });

    test("an administrator changes a member's role, creates a team, publishes and unpublishes a site", async () => {
      const erin = await createUser(sys.admin, { displayName: "Erin" });
      await addMember(w.alice.api, w.orgId, erin.email, "read");
      const admin = new Browser(sys.url);
      await signIn(admin, w.alice.token);
      const org = pathOf(w.urls.org);
      expect((await admin.submit(org, org, { intent: "role", user: erin.id, role: "review" })).status).toBe(303);
      const members = await w.alice.api.get(`/v1/orgs/${w.orgId}/members`);
      expect(members.body.items.find((m: { user: { id: string } }) => m.user.id === erin.id)?.role).toBe("review");
      expect((await admin.get(org)).text).toMatch(new RegExp(`id="role-${erin.id}" name="role">.*<option value="review" selected>`, "s"));
      expect((await admin.submit(org, org, { intent: "role", user: erin.id, role: "owner" })).status).toBe(400);

      expect((await admin.submit(org, org, { intent: "team", title: "Writers <3" })).status).toBe(303);
      expect((await admin.get(org)).text).toMatch(/<li><a href="\/o\/[^"]+\/teams\/[^"]+">Writers &lt;3<\/a><\/li>/);

      const site = pathOf(w.urls.site);
      expect((await admin.submit(site, site, { intent: "publish" })).status).toBe(303);
      const siteId = site.split("/").pop();
      expect((await w.alice.api.get(`/v1/orgs/${w.orgId}/sites/${siteId}`)).body.published).toBe(true);
      expect((await admin.get(site)).text).toContain('value="unpublish"');
      expect((await admin.submit(site, site, { intent: "unpublish" })).status).toBe(303);
      expect((await w.alice.api.get(`/v1/orgs/${w.orgId}/sites/${siteId}`)).body.published).toBe(false);

      // Erin (review) is no administrator: the same forms are refused.
      const erins = new Browser(sys.url);
      await signIn(erins, erin.token);
      const csrf = csrfOf((await erins.get(org)).text);
      expect((await erins.post(org, { _csrf: csrf, intent: "role", user: erin.id, role: "admin" })).status).toBe(404);
      expect((await erins.post(site, { _csrf: csrf, intent: "publish" })).status).toBe(404);
    });

    test("a member of another organization cannot post into the change request", async () => {
      const bob = new Browser(sys.url);
      await signIn(bob, w.bob.token);
      const csrf = csrfOf((await bob.get("/app")).text);
      const res = await bob.post(`${pathOf(w.urls.changeRequest)}`, { _csrf: csrf, intent: "comment", markdown: "hi" });
      expect(res.status).toBe(404);
    });
  });
});
