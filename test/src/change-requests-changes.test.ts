// getChangeRequestChanges through HTTP, in every process mode: what a change request changed against its
// base (pages created, edited, deleted, files), `limit`, access, isolation and bad input.
import { addMember, createOrg, createSpace, createUser, expectComponent, expectErrorBody, expectSchema, pageIdByTitle, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

/**
 * GitBook's `page_edited` attributes are a oneOf of document, group and link attributes that do not
 * exclude each other, so no edit of a document page can pass the oneOf (as in the revisions suite):
 * edits are checked against the attributes of their page's type and the changed page schema, the rest
 * of the body as a whole.
 */
function expectChanges(body: any): void {
  const edits = body.changes.filter((c: any) => c.type === "page_edited");
  expectSchema("getChangeRequestChanges", 200, { ...body, changes: body.changes.filter((c: any) => c.type !== "page_edited") }, { latest: true });
  for (const edit of edits) {
    expect(Object.keys(edit).sort()).toEqual(["attributes", "page", "type"]);
    expectComponent("ChangedRevisionPage", edit.page);
    expectComponent(edit.page.type === "group" ? "RevisionPageGroupChangeAttributes" : "RevisionPageDocumentChangeAttributes", edit.attributes);
  }
}

describe.each(MODES)("change request semantic changes over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let cr: { id: string; number: number };
  let url: string;

  const pageId = (title: string, at = `/v1/spaces/${spaceId}/content/pages`) => pageIdByTitle(owner.api, at, title);

  beforeAll(async () => {
    sys = await start(mode);
    [owner, editor, reader, guest, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(sys.admin)));
    const orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, guest.email, null);
    // The outsider has an organization of their own (with a space), not this one.
    const otherOrg = (await createOrg(outsider.api)).id;
    await createSpace(outsider.api, otherOrg, { title: "Theirs" });
    spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Changes" });
    expect(created.status).toBe(201);
    cr = created.body;
    url = `/v1/spaces/${spaceId}/change-requests/${cr.id}/changes`;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a new change request has no changes; edits show as GitBook's semantic changes against the base", async () => {
    const empty = await reader.api.get(url);
    expect(empty.status).toBe(200);
    expectSchema("getChangeRequestChanges", 200, empty.body, { latest: true });
    expect(empty.body).toEqual({ changes: [], more: 0 });

    const content = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
    const quickstart = await pageId("Quickstart", `${content}/pages`);
    const configuration = await pageId("Configuration", `${content}/pages`);
    const edited = await editor.api.post(content, {
      changes: [
        { operation: "insert_page", title: "Release notes", document: { markdown: "# Release notes\n\nWhat is new." } },
        { operation: "update_page", page: quickstart, title: "Quick start" },
        { operation: "delete_page", page: configuration },
      ],
    });
    expect(edited.status).toBe(200);

    const res = await reader.api.get(url);
    expect(res.status).toBe(200);
    expectChanges(res.body);
    const byType = (type: string) => res.body.changes.filter((c: { type: string }) => c.type === type);
    expect(byType("page_created").map((c: any) => c.page.title)).toEqual(["Release notes"]);
    expect(byType("page_edited")).toEqual([expect.objectContaining({ page: expect.objectContaining({ id: quickstart, title: "Quick start" }), attributes: expect.objectContaining({ title: { before: "Quickstart", after: "Quick start" } }) })]);
    expect(byType("page_deleted").map((c: any) => c.page.id)).toEqual([configuration]);
    expect(res.body.more).toBe(0);

    // Main is untouched: its own latest revision answers none of these.
    const main = await owner.api.get(`/v1/spaces/${spaceId}`);
    const mainChanges = await owner.api.get(`/v1/spaces/${spaceId}/revisions/${main.body.revision}/changes`);
    expect(mainChanges.body.changes.some((c: any) => c.page?.title === "Release notes")).toBe(false);
  });

  test("`limit` keeps the first changes (default 10, 1–1000) and `more` counts the rest", async () => {
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Many" });
    const many = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    const changes = Array.from({ length: 12 }, (_, i) => ({ operation: "insert_page", title: `Page ${i + 1}`, document: { markdown: `Body ${i + 1}` } }));
    expect((await editor.api.post(`${many}/content`, { changes })).status).toBe(200);
    const byDefault = await reader.api.get(`${many}/changes`);
    expect(byDefault.status).toBe(200);
    expectSchema("getChangeRequestChanges", 200, byDefault.body, { latest: true });
    expect(byDefault.body.changes).toHaveLength(10);
    expect(byDefault.body.more).toBe(2);
    const two = await reader.api.get(`${many}/changes?limit=2`);
    expect(two.body.changes.map((c: any) => c.page.title)).toEqual(["Page 1", "Page 2"]);
    expect(two.body.more).toBe(10);
    const all = await reader.api.get(`${many}/changes?limit=1000`);
    expect(all.body.changes).toHaveLength(12);
    expect(all.body.more).toBe(0);
    // By number too, as every change request path.
    expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${created.body.number}/changes?limit=1`)).body.more).toBe(11);
  });

  test("after an update from main, the base is main's revision it was updated to", async () => {
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Stale" });
    const stale = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    expect((await editor.api.post(`${stale}/content`, { changes: [{ operation: "insert_page", title: "Mine", document: { markdown: "Mine" } }] })).status).toBe(200);
    // Main moves on (a page added straight to main), then the change request takes it in.
    const other = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Theirs" });
    const theirs = `/v1/spaces/${spaceId}/change-requests/${other.body.id}`;
    expect((await editor.api.post(`${theirs}/content`, { changes: [{ operation: "insert_page", title: "Theirs", document: { markdown: "Theirs" } }] })).status).toBe(200);
    expect((await owner.api.post(`${theirs}/merge`)).status).toBe(200);
    expect((await editor.api.post(`${stale}/update`)).status).toBe(200);
    const res = await reader.api.get(`${stale}/changes`);
    expect(res.status).toBe(200);
    expectChanges(res.body);
    expect(res.body.changes.map((c: any) => [c.type, c.page?.title])).toEqual([["page_created", "Mine"]]);
  });

  test("no token or a bad one is 401", async () => {
    for (const client of [sys.admin.as(undefined), sys.admin.as("not-a-token")]) {
      const res = await client.get(url);
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });

  test("a guest without access to the space, and a caller from another organization, get 404", async () => {
    for (const user of [guest, outsider]) {
      const res = await user.api.get(url);
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    const unknown = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/nosuchchangerequest/changes`);
    expect(unknown.status).toBe(404);
    expectErrorBody(404, unknown.body);
  });

  test("a bad `limit` is 400 naming it", async () => {
    for (const limit of ["0", "1001", "1.5", "many"]) {
      const res = await reader.api.get(`${url}?limit=${limit}`);
      expect([limit, res.status]).toEqual([limit, 400]);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("limit");
    }
  });
});
