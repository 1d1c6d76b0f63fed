// Change requests through HTTP, in every process mode: lifecycle, numbers, content edits and reads, merge and update.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, withBodies, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

const titles = (pages: any[]): string[] => pages.flatMap((p) => [p.title, ...titles(p.pages ?? [])]);

describe.each(MODES)("change requests over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reviewer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, editor, reviewer, reader, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reviewer.email, "review");
    await addMember(owner.api, orgId, reader.email, "read");
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** A space with the getting-started template's pages: Welcome, Quickstart (Installation), Configuration. */
  async function templatedSpace(): Promise<string> {
    const spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
    return spaceId;
  }

  async function createCR(spaceId: string, subject = "Proposal", as: TestUser = editor): Promise<any> {
    const res = await as.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function edit(spaceId: string, cr: string, changes: unknown[], as: TestUser = editor) {
    return as.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes });
  }

  async function pageId(spaceId: string, title: string, cr?: string): Promise<string> {
    const path = cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages` : `/v1/spaces/${spaceId}/content/pages`;
    const res = await owner.api.get(path);
    const find = (pages: any[]): any => pages.flatMap((p) => (p.title === title ? [p] : [find(p.pages ?? [])].filter(Boolean)))[0];
    const page = find(res.body.pages);
    if (!page) throw new Error(`no page "${title}" in ${path}`);
    return page.id;
  }

  async function markdownOf(spaceId: string, page: string, cr?: string): Promise<string> {
    const prefix = cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content` : `/v1/spaces/${spaceId}/content`;
    const res = await owner.api.get(`${prefix}/page/${page}`);
    expect(res.status).toBe(200);
    return res.body.markdown;
  }

  describe("lifecycle", () => {
    let spaceId: string;
    beforeAll(async () => {
      spaceId = await templatedSpace();
    });

    test("creating answers 201 with a draft numbered in the space, on main's current revision", async () => {
      const space = (await owner.api.get(`/v1/spaces/${spaceId}`)).body;
      const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "First" });
      expect(res.status).toBe(201);
      expectSchema("createChangeRequest", 201, res.body);
      expect(res.body).toMatchObject({ object: "change-request", status: "draft", subject: "First", space: spaceId, revision: space.revision, revisionInitial: space.revision, outdated: false, comments: 0 });
      expect(res.body.createdBy).toMatchObject({ object: "user", id: editor.id });
      expect(res.headers.get("location")).toContain(`/v1/spaces/${spaceId}/change-requests/${res.body.id}`);
    });

    test("concurrent creates get distinct, consecutive numbers", async () => {
      const space = await createSpace(owner.api, orgId);
      const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createCR(space.id, `Parallel ${i}`)));
      expect(created.map((cr) => cr.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    });

    test("a change request is found by id and by number; an unknown one is 404", async () => {
      const cr = await createCR(spaceId, "Lookup");
      const byId = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      expect(byId.status).toBe(200);
      expectSchema("getChangeRequestById", 200, byId.body);
      const byNumber = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}`);
      expect(byNumber.body).toEqual(byId.body);
      const missing = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/99999`);
      expect(missing.status).toBe(404);
      expectErrorBody(404, missing.body);
    });

    test("lists filter by status (open by default), creator and contributor, and page", async () => {
      const space = await createSpace(owner.api, orgId);
      const drafts = [await createCR(space.id, "D1"), await createCR(space.id, "D2", owner)];
      const opened = await createCR(space.id, "O1");
      expect((await editor.api.patch(`/v1/spaces/${space.id}/change-requests/${opened.id}`, { status: "open" })).status).toBe(200);
      const open = await reader.api.get(`/v1/spaces/${space.id}/change-requests`);
      expect(open.status).toBe(200);
      expectSchema("listChangeRequestsForSpace", 200, open.body);
      expect(open.body.items.map((c: any) => c.id)).toEqual([opened.id]);
      const draft = await reader.api.get(`/v1/spaces/${space.id}/change-requests?status=draft`);
      expect(draft.body.items.map((c: any) => c.subject)).toEqual(["D2", "D1"]);
      const byOwner = await reader.api.get(`/v1/spaces/${space.id}/change-requests?status=draft&creator=${owner.id}`);
      expect(byOwner.body.items.map((c: any) => c.id)).toEqual([drafts[1].id]);
      const byContributor = await reader.api.get(`/v1/spaces/${space.id}/change-requests?status=draft&contributor=${editor.id}`);
      expect(byContributor.body.items.map((c: any) => c.id)).toEqual([drafts[0].id]);
      const walked = await walkPages(reader.api, `/v1/spaces/${space.id}/change-requests?status=draft`, 1);
      expect(walked.map((c: any) => c.number)).toEqual([2, 1]);
      const bad = await reader.api.get(`/v1/spaces/${space.id}/change-requests?status=nope`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("status");
    });

    test("PATCH changes the subject and moves draft ⇄ open; the author archives and reopens", async () => {
      const cr = await createCR(spaceId, "Moves");
      const path = `/v1/spaces/${spaceId}/change-requests/${cr.number}`;
      const renamed = await editor.api.patch(path, { subject: "Renamed" });
      expect(renamed.status).toBe(200);
      expectSchema("updateChangeRequestById", 200, renamed.body);
      expect(renamed.body.subject).toBe("Renamed");
      for (const status of ["open", "draft", "archived", "open"]) {
        const moved = await editor.api.patch(path, { status });
        expect(moved.status).toBe(200);
        expect(moved.body.status).toBe(status);
      }
    });

    test("archiving someone else's change request is 403 unless admin; setting merged by PATCH is 400", async () => {
      const cr = await createCR(spaceId, "Not yours", owner);
      const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      const denied = await editor.api.patch(path, { status: "archived" });
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      const merged = await owner.api.patch(path, { status: "merged" });
      expect(merged.status).toBe(400);
      expect(merged.body.error.message).toContain("status");
      const mine = await createCR(spaceId, "By editor");
      expect((await owner.api.patch(`/v1/spaces/${spaceId}/change-requests/${mine.id}`, { status: "archived" })).status).toBe(200);
    });

    test("a merged change request refuses status moves with 409", async () => {
      const cr = await createCR(spaceId, "Merge me");
      expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const res = await owner.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: "open" });
      expect(res.status).toBe(409);
      expectErrorBody(409, res.body);
      expect(res.body.error.message).toContain("merged");
    });

    test("readers may not create (403), outsiders see nothing (404), no token is 401, bad input is 400", async () => {
      const cr = await createCR(spaceId, "Guarded");
      const denied = await reader.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "x" });
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      expect((await reader.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { subject: "x" })).status).toBe(403);
      for (const path of [`/v1/spaces/${spaceId}/change-requests`, `/v1/spaces/${spaceId}/change-requests/${cr.id}`, `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`]) {
        const hidden = await outsider.api.get(path);
        expect(hidden.status).toBe(404);
        expectErrorBody(404, hidden.body);
        expect((await sys.admin.as(undefined).get(path)).status).toBe(401);
      }
      const bad = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 42 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("subject");
      const long = await editor.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { subject: "x".repeat(101) });
      expect(long.status).toBe(400);
    });

    test("the space's counts follow creates and status moves", async () => {
      const space = await createSpace(owner.api, orgId);
      const a = await createCR(space.id, "A");
      await createCR(space.id, "B");
      await editor.api.patch(`/v1/spaces/${space.id}/change-requests/${a.id}`, { status: "open" });
      let body = (await owner.api.get(`/v1/spaces/${space.id}`)).body;
      expect(body).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
      await owner.api.post(`/v1/spaces/${space.id}/change-requests/${a.id}/merge`);
      body = (await owner.api.get(`/v1/spaces/${space.id}`)).body;
      expect(body).toMatchObject({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 1 });
    });
  });

  describe("content", () => {
    let spaceId: string;
    beforeAll(async () => {
      spaceId = await templatedSpace();
    });

    test("edits make a new revision of the change request that main does not see", async () => {
      const cr = await createCR(spaceId, "Add a page");
      const res = await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "---\ntitle: From front matter\n---\nBody text.\n" }, title: "Ignored" }]);
      expect(res.status).toBe(200);
      expectSchema("updateChangeRequestContent", 200, res.body);
      expect(res.body.revision).not.toBe(cr.revision);
      const crPages = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`);
      expect(crPages.status).toBe(200);
      expectSchema("listPagesInChangeRequest", 200, withBodies(crPages.body));
      expect(titles(crPages.body.pages)).toContain("From front matter");
      const mainPages = await reader.api.get(`/v1/spaces/${spaceId}/content/pages`);
      expect(titles(mainPages.body.pages)).not.toContain("From front matter");
      const id = await pageId(spaceId, "From front matter", cr.id);
      const page = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content/page/${id}`);
      expect(page.status).toBe(200);
      expectSchema("getPageInChangeRequestById", 200, page.body);
      expect(page.body.markdown).toBe("Body text.\n");
      expect((await reader.api.get(`/v1/spaces/${spaceId}/content/page/${id}`)).status).toBe(404);
    });

    test("edits sent at once by two writers all land, one on top of the other, none refused for the other's", async () => {
      const cr = await createCR(spaceId, "Two writers at once");
      // Five edits in flight together: each reads the change request, then moves it; all but one find it moved.
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: `Page ${n} body.\n` }, title: `Concurrent ${n}` }], n % 2 ? owner : editor),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const pages = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`);
      expect(titles(pages.body.pages).filter((t) => t.startsWith("Concurrent ")).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `Concurrent ${n}`));
      // An edit of a change request that is no longer open is still refused.
      expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const late = await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "Late.\n" }, title: "Late" }]);
      expect(late.status).toBe(409);
    });

    test("a leading heading gives the title; update, move and delete apply in order; compat=false lists pages", async () => {
      const cr = await createCR(spaceId, "Several");
      const welcome = await pageId(spaceId, "Welcome");
      const config = await pageId(spaceId, "Configuration");
      const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
          { operation: "insert_page", document: { markdown: "# Heading title\n\nText" }, title: "Not this" },
          { operation: "update_page", page: welcome, document: { markdown: "New welcome" }, title: "Hello" },
          { operation: "update_page", page: config, into: welcome },
          { operation: "delete_page", page: await pageId(spaceId, "Installation") },
        ],
      });
      expect(res.status).toBe(200);
      expectSchema("updateChangeRequestContent", 200, res.body);
      expect(res.body.changes.map((c: any) => c.object)).toEqual(["created_page", "updated_page", "updated_page", "deleted_page"]);
      const revision = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`);
      expect(revision.status).toBe(200);
      expectSchema("getRevisionOfChangeRequestById", 200, withBodies(revision.body));
      expect(revision.body.id).toBe(res.body.changeRequest.revision);
      const hello = revision.body.pages.find((p: any) => p.id === welcome);
      expect(hello.title).toBe("Hello");
      expect(hello.pages.map((p: any) => p.id)).toEqual([config]);
      expect(titles(revision.body.pages)).toContain("Heading title");
      expect(titles(revision.body.pages)).not.toContain("Installation");
      expect(await markdownOf(spaceId, welcome, cr.id)).toBe("New welcome");
      const byPath = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/path/${hello.path}/configuration`);
      expect(byPath.status).toBe(200);
      expect(byPath.body.id).toBe(config);
    });

    test("a batch with one bad change is 400 naming it and changes nothing", async () => {
      const cr = await createCR(spaceId, "Atomic");
      const res = await edit(spaceId, cr.id, [
        { operation: "insert_page", document: { markdown: "# Kept?" } },
        { operation: "update_page", page: "no-such-page", title: "x" },
      ]);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("changes[1].page");
      const after = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;
      expect(after.revision).toBe(cr.revision);
      const malformed = await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "x" } }, { operation: "explode" }]);
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toContain("changes[1].operation");
    });

    test("insert_page with type group adds a page group at the top level that pages go into and a merge keeps; bad input is 400 naming the field, a reader 403, an outsider 404, no token 401", async () => {
      // A space of its own: the merge at the end changes its main.
      const spaceId = await templatedSpace();
      const cr = await createCR(spaceId, "Groups");
      const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
      const added = await editor.api.post(`${path}?compat=false`, {
        changes: [
          { operation: "insert_page", type: "group", title: "Guides", document: {}, ref: "guides", at: 0 },
          { operation: "insert_page", type: "document", title: "Setup", document: { markdown: "Install it." } },
        ],
      });
      expect(added.status).toBe(200);
      const groupId = added.body.changes[0].page.id as string;
      expect((await edit(spaceId, cr.id, [{ operation: "update_page", page: await pageId(spaceId, "Setup", cr.id), into: groupId }])).status).toBe(200);
      const pages = await reader.api.get(`${path}/pages`);
      expect(pages.status).toBe(200);
      expectSchema("listPagesInChangeRequest", 200, withBodies(pages.body));
      const group = pages.body.pages[0];
      expect(group).toMatchObject({ id: groupId, kind: "group", type: "group", title: "Guides", path: "guides" });
      expect(group.pages.map((p: any) => [p.title, p.type])).toEqual([["Setup", "document"]]);

      // What is not a group's: a type GitBook has no page kind for, a parent, content; moving the group under a page.
      const before = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision;
      const refusals: Array<[unknown, string]> = [
        [{ operation: "insert_page", type: "folder", title: "F", document: {} }, "changes[0].type"],
        [{ operation: "insert_page", type: "group", title: "G", into: groupId, document: {} }, "changes[0].into"],
        [{ operation: "insert_page", type: "group", title: "G", document: { markdown: "Some text" } }, "changes[0].document"],
        [{ operation: "update_page", page: groupId, into: await pageId(spaceId, "Setup", cr.id) }, "changes[0].parent"],
      ];
      for (const [change, field] of refusals) {
        const res = await edit(spaceId, cr.id, [change]);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(before);
      // Who may: a reader is refused, an outsider finds nothing, no token is 401; nothing was written.
      const group2 = [{ operation: "insert_page", type: "group", title: "Theirs", document: {} }];
      const denied = await edit(spaceId, cr.id, group2, reader);
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      const hidden = await edit(spaceId, cr.id, group2, outsider);
      expect(hidden.status).toBe(404);
      expectErrorBody(404, hidden.body);
      expect((await sys.admin.as(undefined).post(path, { changes: group2 })).status).toBe(401);
      expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(before);

      // Merged, main has the group with its page.
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const main = (await reader.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
      expect(main[0]).toMatchObject({ id: groupId, kind: "group", type: "group", title: "Guides" });
      expect(main[0].pages.map((p: any) => p.title)).toEqual(["Setup"]);
    });

    test("1 to 50 changes are accepted; 0 or 51 are 400", async () => {
      const cr = await createCR(spaceId, "Bulk");
      const insert = (i: number) => ({ operation: "insert_page", document: { markdown: `# Bulk ${i}` } });
      expect((await edit(spaceId, cr.id, [])).status).toBe(400);
      const tooMany = await edit(spaceId, cr.id, Array.from({ length: 51 }, (_, i) => insert(i)));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.message).toContain("changes");
      expect((await edit(spaceId, cr.id, Array.from({ length: 50 }, (_, i) => insert(i)))).status).toBe(200);
      const pages = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`)).body.pages;
      expect(titles(pages).filter((t) => t.startsWith("Bulk "))).toHaveLength(50);
    });

    test("files inserted in a change request are listed there with backlinks; revert_page restores a page", async () => {
      const cr = await createCR(spaceId, "Files and revert");
      const welcome = await pageId(spaceId, "Welcome");
      const before = await markdownOf(spaceId, welcome);
      const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
          { operation: "insert_files", files: [{ name: "note.txt", contentType: "text/plain", base64: Buffer.from("hello").toString("base64") }] },
          { operation: "update_page", page: welcome, document: { markdown: "Changed ![n](.gitbook/assets/note.txt)" } },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.insertedFiles).toHaveLength(1);
      const fileId = res.body.insertedFiles[0].id;
      const files = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files`);
      expect(files.status).toBe(200);
      expectSchema("listFilesInChangeRequestById", 200, files.body);
      expect(files.body.items.map((f: any) => f.name)).toContain("note.txt");
      const file = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/${fileId}`);
      expect(file.status).toBe(200);
      expectSchema("getFileInChangeRequestById", 200, file.body);
      expect((await reader.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}`)).status).toBe(404);
      const backlinks = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/${fileId}/backlinks`);
      expect(backlinks.status).toBe(200);
      expectSchema("listChangeRequestFileBacklinks", 200, withBodies(backlinks.body));
      expect(backlinks.body.items.map((b: any) => b.page.id)).toEqual([welcome]);
      const links = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${welcome}/links`);
      expect(links.status).toBe(200);
      expectSchema("listPageLinksInChangeRequest", 200, withBodies(links.body));
      const reverted = await edit(spaceId, cr.id, [{ operation: "revert_page", page: welcome }]);
      expect(reverted.status).toBe(200);
      expect(await markdownOf(spaceId, welcome, cr.id)).toBe(before);
      const url = await edit(spaceId, cr.id, [{ operation: "insert_files", files: [{ name: "x.png", url: "https://example.com/x.png" }] }]);
      expect(url.status).toBe(400);
      expect(url.body.error.message).toContain("changes[0].files[0].url");
    });

    test("importing into a change request checks role and source before fetching anything", async () => {
      const cr = await createCR(spaceId, "Import");
      const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/import`;
      expect((await reader.api.post(path, { source: "website", url: "https://example.com/" })).status).toBe(403);
      const unsupported = await editor.api.post(path, { source: "docx", url: "https://example.com/a.docx" });
      expect(unsupported.status).toBe(400);
      expect(unsupported.body.error.message).toContain("source");
      const privateAddress = await editor.api.post(path, { source: "website", url: "http://127.0.0.1:9/" });
      expect(privateAddress.status).toBe(400);
      expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(cr.revision);
    });

    test("readers may not edit (403); archived change requests refuse edits (409)", async () => {
      const cr = await createCR(spaceId, "Guarded edit");
      expect((await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "x" } }], reader)).status).toBe(403);
      await editor.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: "archived" });
      const res = await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "x" } }]);
      expect(res.status).toBe(409);
    });
  });

  describe("merge and update from main", () => {
    test("merging brings the change request's pages into main and sets revisionMerged", async () => {
      const spaceId = await templatedSpace();
      const cr = await createCR(spaceId, "Merge");
      await edit(spaceId, cr.id, [{ operation: "insert_page", document: { markdown: "# Merged page\n\nHi" } }]);
      const res = await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      expect(res.status).toBe(200);
      expectSchema("mergeChangeRequest", 200, res.body);
      expect(res.body.result).toBe("merge");
      const space = (await owner.api.get(`/v1/spaces/${spaceId}`)).body;
      expect(space.revision).toBe(res.body.revision);
      expect(titles((await owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages)).toContain("Merged page");
      const after = (await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;
      expect(after).toMatchObject({ status: "merged", revisionMerged: res.body.revision, outdated: false });
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(409);
    });

    test("pages deleted and moved in the change request are deleted and moved in main by the merge", async () => {
      const spaceId = await templatedSpace();
      const quickstart = await pageId(spaceId, "Quickstart");
      const config = await pageId(spaceId, "Configuration");
      const cr = await createCR(spaceId, "Restructure");
      await edit(spaceId, cr.id, [{ operation: "delete_page", page: quickstart }, { operation: "update_page", page: config, at: 0 }]);
      const other = await createCR(spaceId, "Unrelated");
      await edit(spaceId, other.id, [{ operation: "insert_page", document: { markdown: "# Appendix" } }]);
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${other.id}/merge`)).status).toBe(200);
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const pages = (await owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
      expect(pages.map((p: any) => p.title)).toEqual(["Configuration", "Welcome", "Appendix"]);
    });

    test("editors may not merge (403)", async () => {
      const spaceId = await templatedSpace();
      const cr = await createCR(spaceId);
      const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    });

    test("non-conflicting changes on both sides merge; the later change request was outdated", async () => {
      const spaceId = await templatedSpace();
      const welcome = await pageId(spaceId, "Welcome");
      const config = await pageId(spaceId, "Configuration");
      const first = await createCR(spaceId, "First");
      const second = await createCR(spaceId, "Second");
      await edit(spaceId, first.id, [{ operation: "update_page", page: welcome, document: { markdown: "Welcome v2" } }]);
      await edit(spaceId, second.id, [{ operation: "update_page", page: config, document: { markdown: "Config v2" } }]);
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${first.id}/merge`)).status).toBe(200);
      expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${second.id}`)).body.outdated).toBe(true);
      const merged = await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${second.id}/merge`);
      expect(merged.status).toBe(200);
      expect(await markdownOf(spaceId, welcome)).toBe("Welcome v2");
      expect(await markdownOf(spaceId, config)).toBe("Config v2");
    });

    test("a conflicting merge answers 409 listing the page and leaves main and the change request as they were", async () => {
      const spaceId = await templatedSpace();
      const welcome = await pageId(spaceId, "Welcome");
      const first = await createCR(spaceId, "Ours");
      const second = await createCR(spaceId, "Theirs");
      await edit(spaceId, first.id, [{ operation: "update_page", page: welcome, document: { markdown: "Version A" } }]);
      await edit(spaceId, second.id, [{ operation: "update_page", page: welcome, document: { markdown: "Version B" } }]);
      expect((await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${first.id}/merge`)).status).toBe(200);
      const mainBefore = (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
      const res = await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${second.id}/merge`);
      expect(res.status).toBe(409);
      expectErrorBody(409, res.body);
      expect(res.body.error.message).toContain("Welcome");
      expect(res.body.error.message).toContain(welcome);
      expect((await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(mainBefore);
      expect(await markdownOf(spaceId, welcome)).toBe("Version A");
      expect((await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${second.id}`)).body.status).toBe("draft");
      const update = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${second.id}/update`);
      expect(update.status).toBe(409);
      expect(update.body.error.message).toContain("Welcome");
    });

    test("updating from main takes main's changes, records the ancestor and clears outdated", async () => {
      const spaceId = await templatedSpace();
      const welcome = await pageId(spaceId, "Welcome");
      const config = await pageId(spaceId, "Configuration");
      const first = await createCR(spaceId, "Lands first");
      const second = await createCR(spaceId, "Follows");
      await edit(spaceId, first.id, [{ operation: "update_page", page: welcome, document: { markdown: "From main" } }]);
      await edit(spaceId, second.id, [{ operation: "update_page", page: config, document: { markdown: "From the change request" } }]);
      await reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${first.id}/merge`);
      const main = (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
      const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${second.id}/update`);
      expect(res.status).toBe(200);
      expectSchema("updateChangeRequest", 200, res.body);
      expect(res.body.result).toBe("update");
      const after = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${second.id}`)).body;
      expect(after).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: main, outdated: false });
      expect(await markdownOf(spaceId, welcome, second.id)).toBe("From main");
      expect(await markdownOf(spaceId, config, second.id)).toBe("From the change request");
      expect(await markdownOf(spaceId, config)).not.toBe("From the change request");
      const again = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${second.id}/update`);
      expect(again.body).toEqual({ revision: res.body.revision, result: "update" });
    });

    test("two merges racing both land: neither change is lost", async () => {
      const spaceId = await templatedSpace();
      const welcome = await pageId(spaceId, "Welcome");
      const config = await pageId(spaceId, "Configuration");
      const a = await createCR(spaceId, "A");
      const b = await createCR(spaceId, "B");
      await edit(spaceId, a.id, [{ operation: "update_page", page: welcome, document: { markdown: "A" } }]);
      await edit(spaceId, b.id, [{ operation: "update_page", page: config, document: { markdown: "B" } }]);
      const results = await Promise.all([a, b].map((cr) => reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)));
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(await markdownOf(spaceId, welcome)).toBe("A");
      expect(await markdownOf(spaceId, config)).toBe("B");
    });

    test("twelve change requests merged at the same moment all land, each as its own revision", async () => {
      const spaceId = await templatedSpace();
      const pages = (await owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string }>;
      const crs = await Promise.all(Array.from({ length: 12 }, (_, i) => createCR(spaceId, `Together ${i}`)));
      // Each edits a page of its own: the first ones the template's, the rest new pages.
      for (const [i, cr] of crs.entries()) {
        const change = i < pages.length
          ? { operation: "update_page", page: pages[i].id, document: { markdown: `Together ${i}` } }
          : { operation: "insert_page", title: `Together ${i}`, document: { markdown: `Together ${i}` } };
        await edit(spaceId, cr.id, [change]);
      }
      const results = await Promise.all(crs.map((cr) => reviewer.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      const merged = await Promise.all(crs.map(async (cr) => (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body));
      expect(merged.every((cr) => cr.status === "merged")).toBe(true);
      expect(new Set(merged.map((cr) => cr.revisionMerged)).size).toBe(12);
      const markdown = JSON.stringify((await owner.api.get(`/v1/spaces/${spaceId}/content`)).body);
      for (let i = 0; i < pages.length && i < 12; i++) expect(await markdownOf(spaceId, pages[i].id)).toBe(`Together ${i}`);
      for (let i = pages.length; i < 12; i++) expect(markdown).toContain(`Together ${i}`);
    });
  });
});
