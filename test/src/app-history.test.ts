// A space's history in the app through the HTTP gateway, in both process modes: the revisions newest first
// with who, when (the exact time in a title) and the merged change request that made them, paged; one old
// revision's pages as they were; two revisions compared page by page (added, removed, moved, changed) with
// a changed page's line diff; a page restored from an old revision as a new change request that the user
// lands on. A reader reads the history but is refused the restore (403); another organization's user
// finds nothing; signed out is sent to sign in; a bad revision id is not found, a bad compare form a 400.
import { createSpace, type RunningSystem } from "@docshelf/testkit";
import { Browser, appWorld, csrfOf, signedIn, type AppWorld } from "./app-fixtures";
import { addPages } from "./sites-serve-fixtures";
import { MODES, start } from "./modes";

interface TreePage {
  id: string;
  title: string;
  path: string;
  pages?: TreePage[];
}

describe.each(MODES)("a space's history in the app over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let alice: Browser;
  let readerBrowser: Browser;
  let bob: Browser;
  /** Main's revision before the merge, after it, and the merged change request's number. */
  let before: string;
  let after: string;
  let merged: number;
  let welcomeId: string;
  const history = () => `/s/${w.spaceId}/~/history`;

  const pagesOf = async (api: string): Promise<TreePage[]> => {
    const res = await w.alice.api.get(api);
    expect(res.status).toBe(200);
    return res.body.pages;
  };
  const find = (pages: TreePage[], title: string): TreePage | undefined => {
    for (const p of pages) {
      if (p.title === title) return p;
      const inner = find(p.pages ?? [], title);
      if (inner) return inner;
    }
    return undefined;
  };
  const currentRevision = async (spaceId: string): Promise<string> => {
    const res = await w.alice.api.get(`/v1/spaces/${spaceId}`);
    expect(res.status).toBe(200);
    return res.body.revision;
  };

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    ({ alice, readerBrowser, bob } = await signedIn(sys, w));

    // One merged change request: Welcome reworded, a page added, the tricky page moved under Welcome.
    before = await currentRevision(w.spaceId);
    const main = await pagesOf(`/v1/spaces/${w.spaceId}/content`);
    welcomeId = find(main, "Welcome")!.id;
    const tricky = main.find((p) => p.title !== "Welcome")!;
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Reword <the> welcome" });
    expect(cr.status).toBe(201);
    const api = `/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}`;
    // Two edits: the change request's own revisions, which a fast-forward merge puts on main's line.
    const edited = await w.alice.api.post(`${api}/content`, {
      changes: [
        { operation: "update_page", page: welcomeId, document: { markdown: "# Welcome\n\nThe **handbook** begins here.\n" } },
        { operation: "insert_page", title: "Glossary", document: { markdown: "Terms.\n" } },
      ],
    });
    expect(edited.status).toBe(200);
    expect((await w.alice.api.post(`${api}/content`, { changes: [{ operation: "update_page", page: tricky.id, into: welcomeId }] })).status).toBe(200);
    expect((await w.alice.api.post(`${api}/merge`, {})).status).toBeLessThan(300);
    after = await currentRevision(w.spaceId);
    expect(after).not.toBe(before);
    merged = cr.body.number;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  test("the space page links to its history; the history lists revisions newest first with author, time and change request", async () => {
    const space = await alice.get(`/s/${w.spaceId}`);
    expect(space.text).toContain(`href="/s/${w.spaceId}/~/history"`);
    const res = await alice.get(history());
    expect(res.status).toBe(200);
    const rows = [...res.text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    expect(rows[0]).toBe(after);
    // The revision before the merge comes next: not the change request's intermediate revision.
    expect(rows[1]).toBe(before);
    // The merge's row: Alice's change request, escaped, linked; the time relative with the exact time in its title.
    expect(res.text).toContain(`href="/s/${w.spaceId}/~/changes/${merged}">#${merged} Reword &lt;the&gt; welcome</a>`);
    expect(res.text).toContain("Alice");
    expect(res.text).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">(just now|\d+ minutes? ago)<\/time>/);
    // The compare form (a GET) with the newest two picked, and each row's own changes.
    expect(res.text).toContain(`action="/s/${w.spaceId}/~/compare"`);
    expect(res.text).toContain(`href="/s/${w.spaceId}/~/compare?from=${before}&amp;to=${after}"`);
    expect(res.text).toMatch(new RegExp(`name="to" value="${after}" id="to-0" checked`));
  });

  test("a duplicated space's history starts at its own first revision (whose parent is the source space's)", async () => {
    const copy = await w.alice.api.post(`/v1/spaces/${w.spaceId}/duplicate`);
    expect(copy.status).toBe(201);
    const res = await alice.get(`/s/${copy.body.id}/~/history`);
    expect(res.status).toBe(200);
    const rows = [...res.text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    expect(rows).toEqual([await currentRevision(copy.body.id)]);
  });

  test("a page's history lists only the revisions that changed it, with what they changed; linked from the page", async () => {
    const space = await alice.get(`/s/${w.spaceId}/welcome`);
    expect(space.text).toContain(`href="/s/${w.spaceId}/~/history?page=${welcomeId}">History of this page</a>`);
    const res = await alice.get(`${history()}?page=${welcomeId}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("<h1>History of “Welcome”</h1>");
    const rows = [...res.text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    // The merge that reworded it and the revision that added it; not the space's empty first revision.
    expect(rows).toEqual([after, before]);
    expect(res.text).toContain(`href="/s/${w.spaceId}/~/compare?from=${before}&amp;to=${after}&amp;page=${welcomeId}">changed<`);
    expect(res.text).toMatch(/>added<span class="visually-hidden">/);
    const glossary = find(await pagesOf(`/v1/spaces/${w.spaceId}/content`), "Glossary")!;
    const glossaryRows = [...(await alice.get(`${history()}?page=${glossary.id}`)).text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    expect(glossaryRows).toEqual([after]);
    // A page id no revision knows: none listed; a malformed one: 400 naming the field.
    const none = await alice.get(`${history()}?page=nope`);
    expect(none.status).toBe(200);
    expect(none.text).toContain("No change to this page in these revisions.");
    const bad = await alice.get(`${history()}?page=${encodeURIComponent("a/b")}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("&#39;page&#39; must be a page id");
    // The old revision's page links to the page's history too.
    expect((await alice.get(`/s/${w.spaceId}/~/revisions/${before}/welcome`)).text).toContain(`href="/s/${w.spaceId}/~/history?page=${welcomeId}">History of this page</a>`);
  });

  test("the history is paged: the older page starts where the first ended, and leads back to the newest", async () => {
    const log = await createSpace(w.alice.api, w.orgId, { title: "Log" });
    for (let i = 0; i < 22; i++) await addPages(sys, log.id, [{ title: `Entry ${i}`, markdown: `Entry ${i}.\n` }]);
    const first = await alice.get(`/s/${log.id}/~/history`);
    expect(first.status).toBe(200);
    const ids = (text: string) => [...text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    const firstIds = ids(first.text);
    expect(firstIds).toHaveLength(20);
    expect(firstIds[0]).toBe(await currentRevision(log.id));
    const older = /href="(\/s\/[^"]+\/~\/history\?at=[^"]+)" rel="next"/.exec(first.text);
    expect(older).not.toBeNull();
    const second = await alice.get(older![1]);
    expect(second.status).toBe(200);
    const secondIds = ids(second.text);
    // 23 revisions (the space's first and 22 edits): 3 more, none repeated, the last without a parent.
    expect(secondIds).toHaveLength(3);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(second.text).not.toContain('rel="next"');
    expect(second.text).toContain(`href="/s/${log.id}/~/history">Newest revisions</a>`);
    // The first row's "changes" of the older page compare the last of the first page's parent chain.
    expect(first.text).toContain(`compare?from=${secondIds[0]}&amp;to=${firstIds[19]}`);
  });

  test("a merge onto a main that moved meanwhile is listed with its change request, then main's revision before it", async () => {
    const side = await createSpace(w.alice.api, w.orgId, { title: "Side" });
    await addPages(sys, side.id, [{ title: "One", markdown: "One.\n" }]);
    const cr = await w.alice.api.post(`/v1/spaces/${side.id}/change-requests`, { subject: "Add two" });
    const api = `/v1/spaces/${side.id}/change-requests/${cr.body.id}`;
    expect((await w.alice.api.post(`${api}/content`, { changes: [{ operation: "insert_page", title: "Two", document: { markdown: "Two.\n" } }] })).status).toBe(200);
    // Main moves on before the merge: the merge combines both sides (two parents, main first).
    await addPages(sys, side.id, [{ title: "Three", markdown: "Three.\n" }]);
    const moved = await currentRevision(side.id);
    expect((await w.alice.api.post(`${api}/merge`, {})).status).toBeLessThan(300);
    const res = await alice.get(`/s/${side.id}/~/history`);
    expect(res.status).toBe(200);
    const rows = [...res.text.matchAll(/<a href="\/s\/[^/]+\/~\/revisions\/([A-Za-z0-9_-]+)">/g)].map((m) => m[1]);
    expect(rows[0]).toBe(await currentRevision(side.id));
    expect(rows[1]).toBe(moved);
    expect(rows).toHaveLength(4);
    expect(res.text).toContain(`#${cr.body.number} Add two</a>`);
  });

  test("an old revision shows its pages as they were; the current one has no restore form", async () => {
    const old = await alice.get(`/s/${w.spaceId}/~/revisions/${before}/welcome`);
    expect(old.status).toBe(200);
    expect(old.text).toContain("The <strong>handbook</strong> starts here.");
    expect(old.text).not.toContain("Glossary");
    expect(old.text).toContain('value="restore"');
    expect(old.text).toContain(`href="/s/${w.spaceId}/~/revisions/${before}/welcome" aria-current="page"`);
    // The revision's own page: its first document, the title naming the revision.
    const top = await alice.get(`/s/${w.spaceId}/~/revisions/${before}`);
    expect(top.status).toBe(200);
    expect(top.text).toContain("Handbook (revision");
    expect(top.text).toContain("starts here");
    const now = await alice.get(`/s/${w.spaceId}/~/revisions/${after}/welcome`);
    expect(now.status).toBe(200);
    expect(now.text).toContain("The <strong>handbook</strong> begins here.");
    expect(now.text).toContain("Glossary");
    expect(now.text).not.toContain('value="restore"');
  });

  test("comparing two revisions lists added, moved and changed pages, with a changed page's diff; one page alone", async () => {
    const res = await alice.get(`/s/${w.spaceId}/~/compare?from=${before}&to=${after}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/1 added, 1 moved, 1 changed/);
    expect(res.text).toMatch(/Glossary<\/a> <span class="meta">added<\/span>/);
    expect(res.text).toMatch(/Welcome<\/a> <span class="meta">changed<\/span>/);
    expect(res.text).toContain("<del>- The **handbook** starts here.</del>");
    expect(res.text).toContain("<ins>+ The **handbook** begins here.</ins>");
    expect(res.text).toContain("moved from the top level to Welcome");
    // The other way round: Glossary removed.
    const back = await alice.get(`/s/${w.spaceId}/~/compare?from=${after}&to=${before}`);
    expect(back.status).toBe(200);
    expect(back.text).toMatch(/Glossary <span class="meta">removed<\/span>/);
    expect(back.text).toContain("<del>- Terms.</del>");
    const one = await alice.get(`/s/${w.spaceId}/~/compare?from=${before}&to=${after}&page=${welcomeId}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain("One page’s changes");
    expect(one.text).toContain("<ins>+ The **handbook** begins here.</ins>");
    expect(one.text).not.toContain("Glossary");
    const same = await alice.get(`/s/${w.spaceId}/~/compare?from=${after}&to=${after}`);
    expect(same.status).toBe(200);
    expect(same.text).toContain("No page changed between these revisions.");
  });

  test("restoring a page from an old revision opens a new change request holding it; main is untouched", async () => {
    const path = `/s/${w.spaceId}/~/revisions/${before}/welcome`;
    const res = await alice.submit(path, path, { intent: "restore" });
    expect(res.status).toBe(303);
    const landed = /^\/s\/[^/]+\/~\/changes\/(\d+)\/welcome$/.exec(res.location ?? "");
    expect(landed).not.toBeNull();
    const cr = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${landed![1]}`);
    expect(cr.status).toBe(200);
    expect(cr.body.subject).toContain("Restore “Welcome” from revision");
    const page = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}/content/page/${welcomeId}?format=markdown`);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).toContain("starts here");
    const shown = await alice.get(res.location!);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("The <strong>handbook</strong> starts here.");
    expect(await currentRevision(w.spaceId)).toBe(after);
    // A page deleted since comes back as a new page of the change request.
    const glossaryPath = `/s/${w.spaceId}/~/revisions/${after}/glossary`;
    const glossary = find(await pagesOf(`/v1/spaces/${w.spaceId}/content`), "Glossary")!;
    const drop = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Drop the glossary" });
    const dropApi = `/v1/spaces/${w.spaceId}/change-requests/${drop.body.id}`;
    expect((await w.alice.api.post(`${dropApi}/content`, { changes: [{ operation: "delete_page", page: glossary.id }] })).status).toBe(200);
    expect((await w.alice.api.post(`${dropApi}/merge`, {})).status).toBeLessThan(300);
    const again = await alice.submit(glossaryPath, glossaryPath, { intent: "restore" });
    expect(again.status).toBe(303);
    const number = /^\/s\/[^/]+\/~\/changes\/(\d+)$/.exec(again.location ?? "")?.[1];
    expect(number).toBeDefined();
    const restoredCr = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}`);
    const tree = await pagesOf(`/v1/spaces/${w.spaceId}/change-requests/${restoredCr.body.id}/content`);
    expect(find(tree, "Glossary")).toBeDefined();
  });

  test("a reader reads the history but cannot restore (403, and no change request is made)", async () => {
    const path = `/s/${w.spaceId}/~/revisions/${before}/welcome`;
    const seen = await readerBrowser.get(path);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain("starts here");
    expect(seen.text).not.toContain('value="restore"');
    expect((await readerBrowser.get(history())).status).toBe(200);
    expect((await readerBrowser.get(`/s/${w.spaceId}/~/compare?from=${before}&to=${after}`)).status).toBe(200);
    const count = async () => {
      const lists = await Promise.all(["open", "draft"].map((status) => w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests?status=${status}&limit=100`)));
      return lists.reduce((n, l) => n + (l.body.items as unknown[]).length, 0);
    };
    const crs = await count();
    const refused = await readerBrowser.post(path, { _csrf: csrfOf(seen.text), intent: "restore" });
    expect(refused.status).toBe(403);
    expect(await count()).toBe(crs);
    // Without the CSRF token, even the editor is refused.
    expect((await alice.post(path, { intent: "restore" })).status).toBe(403);
  });

  test("signed out, the history leads to sign-in; another organization's user finds nothing", async () => {
    const anonymous = new Browser(sys.url);
    const res = await anonymous.get(history());
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/app/sign-in?return=${encodeURIComponent(history())}`);
    expect((await anonymous.get(`/s/${w.spaceId}/~/revisions/${before}`)).status).toBe(303);
    for (const path of [history(), `/s/${w.spaceId}/~/revisions/${before}`, `/s/${w.spaceId}/~/revisions/${before}/welcome`, `/s/${w.spaceId}/~/compare?from=${before}&to=${after}`]) {
      const theirs = await bob.get(path);
      expect(theirs.status).toBe(404);
      expect(theirs.text).not.toContain("handbook");
    }
    const restore = await bob.post(`/s/${w.spaceId}/~/revisions/${before}/welcome`, { _csrf: csrfOf((await bob.get("/app")).text), intent: "restore" });
    expect(restore.status).toBe(404);
    // A revision of bob's own space is not this space's.
    const bobSpace = await createSpace(w.bob.api, w.bobOrgId, { title: "Bob's" });
    const bobRevision = await (async () => (await w.bob.api.get(`/v1/spaces/${bobSpace.id}`)).body.revision as string)();
    expect((await alice.get(`/s/${w.spaceId}/~/revisions/${bobRevision}`)).status).toBe(404);
    expect((await alice.get(`/s/${w.spaceId}/~/compare?from=${bobRevision}&to=${after}`)).status).toBe(404);
  });

  test("bad revision ids are not found, never a 5xx; a bad compare form is a 400 naming the field", async () => {
    for (const bad of ["nope", "x".repeat(65), "a%20b", "%E2%9C%93", "%2E%2E", `${before}/no-such-page`]) {
      const res = await alice.get(`/s/${w.spaceId}/~/revisions/${bad}`);
      expect(res.status).toBe(404);
    }
    expect((await alice.get(`${history()}?at=nope`)).status).toBe(404);
    const badAt = await alice.get(`${history()}?at=${encodeURIComponent("<x>")}`);
    expect(badAt.status).toBe(400);
    expect(badAt.text).toContain("&#39;at&#39;");
    const cases: Array<[string, string]> = [
      ["", "&#39;from&#39; is missing"],
      [`?from=${before}`, "&#39;to&#39; is missing"],
      [`?from=${encodeURIComponent("a b")}&to=${after}`, "&#39;from&#39; must be a revision id"],
      [`?from=${before}&to=${"y".repeat(65)}`, "&#39;to&#39; must be a revision id"],
      [`?from=${before}&to=${after}&page=${encodeURIComponent("../x")}`, "&#39;page&#39; must be a page id"],
    ];
    for (const [query, message] of cases) {
      const res = await alice.get(`/s/${w.spaceId}/~/compare${query}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
    }
    expect((await alice.get(`/s/${w.spaceId}/~/compare?from=nope&to=${after}`)).status).toBe(404);
    expect((await alice.get(`/s/${w.spaceId}/~/compare?from=${before}&to=${after}&page=nope`)).status).toBe(404);
    // A POST anywhere else in the history is not found.
    const csrf = csrfOf((await alice.get(history())).text);
    expect((await alice.post(history(), { _csrf: csrf })).status).toBe(404);
    expect((await alice.post(`/s/${w.spaceId}/~/revisions/${before}/welcome`, { _csrf: csrf, intent: "other" })).status).toBe(404);
  });
});
