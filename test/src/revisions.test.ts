// A space's revisions read as GitBook's current API has them: pages, one page (and its JSON document),
// files and one file of a given revision, and a page document by id; an old revision keeps its content.
import { addMember, createOrg, createSpace, createUser, expectComponent, expectErrorBody, expectSchema, withBodies, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

/** The text of a JSON document's leaves, joined. */
function textOf(node: any): string {
  if (node?.object === "text") return (node.leaves ?? []).map((l: any) => l.text).join("");
  return [...(node?.nodes ?? []), ...(node?.fragments ?? [])].map(textOf).join(" ");
}

describe.each(MODES)("revisions over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  /** The revision after the template, before any edit. */
  let oldRevision: string;
  let newRevision: string;
  let page: any;
  let file: any;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, reader, outsider] = await Promise.all([1, 2, 3].map(() => createUser(sys.admin)));
    const orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
    await createOrg(outsider.api);
    spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
    oldRevision = (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
    page = (await owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages.find((p: any) => p.type === "document");
    file = (await owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items[0];
    // Later edits: the page's body changes, the file goes, a page is added.
    const edited = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, {
      changes: [
        { type: "update_page", page: page.id, markdown: "# Rewritten\n\nNew **body** only." },
        { type: "delete_file", file: file.id },
        { type: "insert_page", markdown: "# Added later\n\nLater." },
      ],
    });
    expect(edited.status).toBe(201);
    newRevision = (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
    expect(newRevision).not.toBe(oldRevision);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const rev = (revisionId: string, rest = "") => `/v1/spaces/${spaceId}/revisions/${revisionId}${rest}`;

  test("listPagesInRevisionById answers the revision's tree, valid for GitBook; the old one keeps its pages", async () => {
    const old = await reader.api.get(rev(oldRevision, "/pages"));
    expect(old.status).toBe(200);
    expectSchema("listPagesInRevisionById", 200, withBodies(old.body), { latest: true });
    const current = await reader.api.get(rev(newRevision, "/pages"));
    expect(current.status).toBe(200);
    expectSchema("listPagesInRevisionById", 200, withBodies(current.body), { latest: true });
    const titles = (body: any) => body.pages.map((p: any) => p.title);
    expect(titles(current.body)).toContain("Added later");
    expect(titles(old.body)).not.toContain("Added later");
    expect(current.body.pages.length).toBe(old.body.pages.length + 1);
  });

  test("getPageInRevisionById answers the page as it was in that revision, as Markdown or as a document", async () => {
    const old = await reader.api.get(rev(oldRevision, `/page/${page.id}`));
    expect(old.status).toBe(200);
    expectSchema("getPageInRevisionById", 200, old.body, { latest: true });
    expect(old.body.id).toBe(page.id);
    expect(old.body.markdown).not.toContain("Rewritten");
    expect(old.body.markdown.length).toBeGreaterThan(0);
    const current = await reader.api.get(rev(newRevision, `/page/${page.id}`));
    expect(current.body.markdown).toContain("New **body** only.");
    const asDocument = await reader.api.get(rev(oldRevision, `/page/${page.id}?format=document`));
    expect(asDocument.status).toBe(200);
    expectSchema("getPageInRevisionById", 200, asDocument.body, { latest: true });
    expectComponent("JSONDocument", asDocument.body.document);
    expect(asDocument.body.markdown).toBeUndefined();
    expect(textOf(asDocument.body.document)).not.toContain("Rewritten");
  });

  test("getPageDocumentInRevisionById answers the page's JSON document in each revision", async () => {
    const old = await reader.api.get(rev(oldRevision, `/page/${page.id}/document`));
    expect(old.status).toBe(200);
    expectSchema("getPageDocumentInRevisionById", 200, old.body, { latest: true });
    expect(old.body.object).toBe("document");
    expect(textOf(old.body)).not.toContain("Rewritten");
    const current = await reader.api.get(rev(newRevision, `/page/${page.id}/document`));
    expect(current.status).toBe(200);
    expectSchema("getPageDocumentInRevisionById", 200, current.body, { latest: true });
    expect(textOf(current.body)).toContain("New body only.");
    // The same body from the page read in document format.
    const viaPage = await reader.api.get(rev(newRevision, `/page/${page.id}?format=document`));
    expect(current.body).toEqual(viaPage.body.document);
  });

  test("listFilesInRevisionById and getFileInRevisionById: the old revision still has the file deleted later", async () => {
    const old = await reader.api.get(rev(oldRevision, "/files"));
    expect(old.status).toBe(200);
    expectSchema("listFilesInRevisionById", 200, old.body, { latest: true });
    expect(old.body.items.map((f: any) => f.id)).toEqual([file.id]);
    const current = await reader.api.get(rev(newRevision, "/files"));
    expect(current.status).toBe(200);
    expectSchema("listFilesInRevisionById", 200, current.body, { latest: true });
    expect(current.body.items).toEqual([]);
    const one = await reader.api.get(rev(oldRevision, `/files/${file.id}`));
    expect(one.status).toBe(200);
    expectSchema("getFileInRevisionById", 200, one.body, { latest: true });
    expect(one.body).toMatchObject({ id: file.id, name: file.name, size: file.size });
    const gone = await reader.api.get(rev(newRevision, `/files/${file.id}`));
    expect(gone.status).toBe(404);
    expectErrorBody(404, gone.body);
  });

  test("getDocumentById answers a page's document by its id, also one only an old revision uses", async () => {
    const oldPage = (await reader.api.get(rev(oldRevision, `/page/${page.id}`))).body;
    const newPage = (await reader.api.get(rev(newRevision, `/page/${page.id}`))).body;
    expect(oldPage.documentId).toBeTruthy();
    expect(newPage.documentId).not.toBe(oldPage.documentId);
    for (const [documentId, revisionId] of [
      [newPage.documentId, newRevision],
      [oldPage.documentId, oldRevision],
    ]) {
      const res = await reader.api.get(`/v1/spaces/${spaceId}/documents/${documentId}`);
      expect(res.status).toBe(200);
      expectSchema("getDocumentById", 200, res.body, { latest: true });
      expect(res.body).toEqual((await reader.api.get(rev(revisionId, `/page/${page.id}/document`))).body);
    }
  });

  describe("getRevisionSemanticChanges", () => {
    /**
     * GitBook's `page_edited` attributes are a oneOf of document, group and link attributes that do not
     * exclude each other (no required or forbidden properties), so an edit of a document page matches
     * two of them and no body with one can pass the oneOf. Those changes are checked against the
     * document (or group) attributes and the changed page schemas; the rest of the body as a whole.
     */
    const expectChanges = (body: any) => {
      const edits = body.changes.filter((c: any) => c.type === "page_edited");
      expectSchema("getRevisionSemanticChanges", 200, { ...body, changes: body.changes.filter((c: any) => c.type !== "page_edited") }, { latest: true });
      for (const edit of edits) {
        expect(Object.keys(edit).sort()).toEqual(["attributes", "page", "type"]);
        expectComponent("ChangedRevisionPage", edit.page);
        expectComponent(edit.page.type === "group" ? "RevisionPageGroupChangeAttributes" : "RevisionPageDocumentChangeAttributes", edit.attributes);
      }
    };
    const changesOf = async (revisionId: string, query = "") => {
      const res = await reader.api.get(rev(revisionId, `/changes${query}`));
      expect(res.status).toBe(200);
      expectChanges(res.body);
      return res.body;
    };

    test("an edit revision lists the page edited, the page created and the file deleted", async () => {
      const body = await changesOf(newRevision);
      expect(body.more).toBe(0);
      const byType = (type: string) => body.changes.filter((c: any) => c.type === type);
      expect(byType("page_created").map((c: any) => c.page.title)).toEqual(["Added later"]);
      const edited = byType("page_edited");
      expect(edited).toHaveLength(1);
      expect(edited[0].page.id).toBe(page.id);
      const documentIds = [(await reader.api.get(rev(oldRevision, `/page/${page.id}`))).body.documentId, (await reader.api.get(rev(newRevision, `/page/${page.id}`))).body.documentId];
      expect(edited[0].attributes.document).toEqual({ before: documentIds[0], after: documentIds[1] });
      expect(byType("file_deleted").map((c: any) => c.file.id)).toEqual([file.id]);
      expect(byType("page_deleted")).toEqual([]);
      expect(byType("page_moved")).toEqual([]);
    });

    test("the first content revision lists every page and file created; limit keeps the first and counts the rest", async () => {
      const body = await changesOf(oldRevision);
      const pages = (await reader.api.get(rev(oldRevision, "/pages"))).body.pages;
      const count = (list: any[]): number => list.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
      expect(body.changes.filter((c: any) => c.type === "page_created")).toHaveLength(count(pages));
      expect(body.changes.filter((c: any) => c.type === "file_created").map((c: any) => c.file.id)).toEqual([file.id]);
      const limited = await changesOf(oldRevision, "?limit=1");
      expect(limited.changes).toEqual(body.changes.slice(0, 1));
      expect(limited.more).toBe(body.changes.length - 1);
    });

    test("moves, deletions and variables are listed with before and after", async () => {
      const space = (await createSpace(owner.api, (await owner.api.get(`/v1/spaces/${spaceId}`)).body.organization, { title: "Moves" })).body;
      const made = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [
          { type: "insert_page", id: "movA0000000000000000", markdown: "# A\n\na" },
          { type: "insert_page", id: "movB0000000000000000", markdown: "# B\n\nb" },
          { type: "insert_page", id: "movC0000000000000000", markdown: "# C\n\nc" },
          { type: "set_variables", variables: { product: "Docshelf", old: "x" } },
        ],
      });
      expect(made.status).toBe(201);
      const moved = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [
          { type: "update_page", page: "movB0000000000000000", parent: "movA0000000000000000" },
          { type: "delete_page", page: "movC0000000000000000" },
          { type: "set_variables", variables: { product: "Shelf" } },
        ],
      });
      expect(moved.status).toBe(201);
      const revisionId = (await owner.api.get(`/v1/spaces/${space.id}`)).body.revision;
      const res = await reader.api.get(`/v1/spaces/${space.id}/revisions/${revisionId}/changes`);
      expect(res.status).toBe(200);
      expectChanges(res.body);
      const changes = res.body.changes;
      expect(changes.find((c: any) => c.type === "page_moved")).toMatchObject({ page: { id: "movB0000000000000000", title: "B" }, parent: { after: { id: "movA0000000000000000", title: "A" } } });
      expect(changes.find((c: any) => c.type === "page_moved").parent.before).toBeUndefined();
      expect(changes.find((c: any) => c.type === "page_deleted")).toMatchObject({ page: { id: "movC0000000000000000", title: "C" } });
      expect(changes.find((c: any) => c.type === "variables_edited").variables).toEqual({ product: { before: "Docshelf", after: "Shelf" } });
      expect(changes.filter((c: any) => c.type === "page_created" || c.type === "page_edited")).toEqual([]);
    });
  });

  test("unknown revisions, pages, files and documents are 404", async () => {
    const missing = [
      rev("nope", "/pages"),
      rev("nope", `/page/${page.id}`),
      rev("nope", `/page/${page.id}/document`),
      rev("nope", "/files"),
      rev("nope", `/files/${file.id}`),
      rev("nope", "/changes"),
      rev(newRevision, "/page/nope"),
      rev(newRevision, "/page/nope/document"),
      rev(newRevision, "/files/nope"),
      `/v1/spaces/${spaceId}/documents/nope`,
      `/v1/spaces/nope/revisions/${newRevision}/pages`,
    ];
    for (const path of missing) {
      const res = await owner.api.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expectErrorBody(404, res.body);
    }
  });

  test("a revision of another space is 404 and so is a document that only another space uses", async () => {
    const other = (await createSpace(owner.api, (await owner.api.get(`/v1/spaces/${spaceId}`)).body.organization, { title: "Other" })).body;
    expect((await owner.api.get(`/v1/spaces/${other.id}/revisions/${newRevision}/pages`)).status).toBe(404);
    const documentId = (await reader.api.get(rev(newRevision, `/page/${page.id}`))).body.documentId;
    const res = await owner.api.get(`/v1/spaces/${other.id}/documents/${documentId}`);
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });

  test("401 without or with a bad token; 404 for a caller from another organization", async () => {
    const paths = [
      rev(oldRevision, "/pages"),
      rev(oldRevision, `/page/${page.id}`),
      rev(oldRevision, `/page/${page.id}/document`),
      rev(oldRevision, "/files"),
      rev(oldRevision, `/files/${file.id}`),
      rev(oldRevision, "/changes"),
      `/v1/spaces/${spaceId}/documents/${(await reader.api.get(rev(oldRevision, `/page/${page.id}`))).body.documentId}`,
    ];
    for (const path of paths) {
      for (const token of [undefined, "not-a-real-token"]) {
        const res = await sys.admin.as(token).get(path);
        expect([path, token, res.status]).toEqual([path, token, 401]);
        expectErrorBody(401, res.body);
      }
      const hidden = await outsider.api.get(path);
      expect([path, hidden.status]).toEqual([path, 404]);
      expectErrorBody(404, hidden.body);
      expect([path, (await reader.api.get(path)).status]).toEqual([path, 200]);
    }
  });

  test("bad input is 400 naming the parameter", async () => {
    const cases: Array<[string, string]> = [
      [rev(oldRevision, `/page/${page.id}?format=html`), "format"],
      [rev(oldRevision, `/page/${page.id}?evaluated=perhaps`), "evaluated"],
      [rev(oldRevision, `/page/${page.id}/document?evaluated=perhaps`), "evaluated"],
      [rev(oldRevision, "/pages?metadata=perhaps"), "metadata"],
      [rev(oldRevision, "/files?limit=0"), "limit"],
      [rev(oldRevision, `/files/${file.id}?computed=perhaps`), "computed"],
      [rev("r".repeat(65), "/pages"), "revisionId"],
      [rev(oldRevision, "/changes?limit=0"), "limit"],
      [rev(oldRevision, "/changes?limit=many"), "limit"],
      [`/v1/spaces/${spaceId}/documents/${"d".repeat(65)}`, "documentId"],
    ];
    for (const [path, field] of cases) {
      const res = await reader.api.get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    }
  });
});
