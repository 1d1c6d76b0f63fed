// The space lifecycle through HTTP, in every process mode: update, delete, restore, purge, duplicate, move, transfer.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";

const DAY = 24 * 60 * 60 * 1000;

describe.each(MODES)("space lifecycle over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own: it advances the instance's clock
    owner = await createUser(sys.admin);
    editor = await createUser(sys.admin);
    reader = await createUser(sys.admin);
    outsider = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** Moves the content service's clock forward; the purge job runs then unless `purge` is false. */
  async function advanceClock(ms: number, purge = true): Promise<void> {
    const res = await sys.admin.post("/v1/_test/content/clock", { ms, purge });
    expect(res.status).toBe(200);
  }

  describe("PATCH /v1/spaces/{spaceId}", () => {
    test("an admin updates title, emoji, editMode and defaultLevel", async () => {
      const space = await createSpace(owner.api, orgId);
      const res = await owner.api.patch(`/v1/spaces/${space.id}`, { title: "Renamed", emoji: "🚀", editMode: "locked", defaultLevel: "comment" });
      expect(res.status).toBe(200);
      expectSchema("updateSpaceById", 200, res.body);
      expect(res.body).toMatchObject({ title: "Renamed", emoji: "🚀", editMode: "locked", defaultLevel: "comment" });
      expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.title).toBe("Renamed");
    });

    test("a space's defaultLevel gives readers that role on it", async () => {
      const space = await createSpace(owner.api, orgId);
      await owner.api.patch(`/v1/spaces/${space.id}`, { defaultLevel: "edit" });
      const seen = await reader.api.get(`/v1/spaces/${space.id}`);
      expect(seen.body.permissions.edit).toBe(true);
    });

    test("an editor may rename but not lock (403); a reader may not rename (403); outsiders 404; no token 401", async () => {
      const space = await createSpace(owner.api, orgId);
      expect((await editor.api.patch(`/v1/spaces/${space.id}`, { title: "By editor" })).status).toBe(200);
      const lock = await editor.api.patch(`/v1/spaces/${space.id}`, { editMode: "locked" });
      expect(lock.status).toBe(403);
      expectErrorBody(403, lock.body);
      expect((await reader.api.patch(`/v1/spaces/${space.id}`, { title: "x" })).status).toBe(403);
      expect((await outsider.api.patch(`/v1/spaces/${space.id}`, { title: "x" })).status).toBe(404);
      expect((await sys.admin.as(undefined).patch(`/v1/spaces/${space.id}`, { title: "x" })).status).toBe(401);
    });

    test.each([
      [{ title: "t".repeat(51) }, "title"],
      [{ emoji: "e".repeat(51) }, "emoji"],
      [{ editMode: "frozen" }, "editMode"],
      [{ defaultLevel: "owner" }, "defaultLevel"],
      [{ title: 7 }, "title"],
    ])("patching with %j is 400 naming %s", async (body, field) => {
      const space = await createSpace(owner.api, orgId);
      const res = await owner.api.patch(`/v1/spaces/${space.id}`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });
  });

  describe("delete, restore and permanent removal", () => {
    test("a deleted space is 204, then gone from reads and lists; deleting again is 204", async () => {
      const org = await createOrg(owner.api);
      const space = await createSpace(owner.api, org.id);
      const res = await owner.api.delete(`/v1/spaces/${space.id}`);
      expect(res.status).toBe(204);
      expectSchema("deleteSpaceById", 204, res.body);
      expect((await owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(404);
      expect((await owner.api.get(`/v1/spaces/${space.id}/content`)).status).toBe(404);
      expect((await owner.api.get(`/v1/orgs/${org.id}/spaces`)).body.count).toBe(0);
      expect((await owner.api.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
      expect((await owner.api.delete("/v1/spaces/nope0000000000000000")).status).toBe(204);
    });

    test("only an admin deletes: an editor gets 403, an outsider 404, no token 401", async () => {
      const space = await createSpace(owner.api, orgId);
      expect((await editor.api.delete(`/v1/spaces/${space.id}`)).status).toBe(403);
      expect((await outsider.api.delete(`/v1/spaces/${space.id}`)).status).toBe(404);
      expect((await sys.admin.as(undefined).delete(`/v1/spaces/${space.id}`)).status).toBe(401);
      expect((await owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(200);
    });

    test("a space deleted within 7 days is restored with its content", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Keep" });
      await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "faq" });
      await owner.api.delete(`/v1/spaces/${space.id}`);
      await advanceClock(6 * DAY);
      const res = await owner.api.post(`/v1/spaces/${space.id}/restore`);
      expect(res.status).toBe(200);
      expectSchema("restoreSpace", 200, res.body);
      expect(res.body.deletedAt).toBeUndefined();
      expect((await owner.api.get(`/v1/spaces/${space.id}/content/pages`)).body.pages[0].title).toBe("FAQ");
    });

    test("restore by a non-admin is 403, of a missing space 404", async () => {
      const space = await createSpace(owner.api, orgId);
      await owner.api.delete(`/v1/spaces/${space.id}`);
      expect((await editor.api.post(`/v1/spaces/${space.id}/restore`)).status).toBe(403);
      expect((await outsider.api.post(`/v1/spaces/${space.id}/restore`)).status).toBe(404);
      expect((await owner.api.post("/v1/spaces/nope0000000000000000/restore")).status).toBe(404);
    });

    test("after 7 days a deleted space can no longer be restored (400) and is removed for good", async () => {
      const space = await createSpace(owner.api, orgId);
      const kept = await createSpace(owner.api, orgId);
      await owner.api.delete(`/v1/spaces/${space.id}`);
      // Past the window restore is refused; the purge job then removes the space (it runs on start, hourly, and here on demand).
      await advanceClock(7 * DAY + 60_000, false);
      const res = await owner.api.post(`/v1/spaces/${space.id}/restore`);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("can no longer be restored");
      await advanceClock(1);
      const gone = await owner.api.post(`/v1/spaces/${space.id}/restore`);
      expect(gone.status).toBe(404);
      expect((await owner.api.get(`/v1/spaces/${kept.id}`)).status).toBe(200);
    });
  });

  describe("duplicate", () => {
    test("duplicating is 201 with a new space whose revision descends from the source's and shares its pages", async () => {
      const source = await createSpace(owner.api, orgId, { title: "Original", emoji: "📘" });
      await owner.api.post(`/v1/spaces/${source.id}/content/template`, { id: "getting-started" });
      const sourceRevision = (await owner.api.get(`/v1/spaces/${source.id}/content`)).body;
      const res = await owner.api.post(`/v1/spaces/${source.id}/duplicate`);
      expect(res.status).toBe(201);
      expectSchema("duplicateSpace", 201, res.body);
      expect(res.headers.get("location")).toContain(`/v1/spaces/${res.body.id}`);
      expect(res.body).toMatchObject({ title: "Original (copy)", emoji: "📘", organization: orgId });
      const copy = (await owner.api.get(`/v1/spaces/${res.body.id}/content`)).body;
      expect(copy.parents).toEqual([sourceRevision.id]);
      expect(copy.pages.map((p: any) => p.documentId)).toEqual(sourceRevision.pages.map((p: any) => p.documentId));
      const page = await owner.api.get(`/v1/spaces/${res.body.id}/content/page/${copy.pages[0].id}`);
      expect(page.body.markdown).toContain("quickstart");
    });

    test("a reader cannot duplicate (403), an outsider gets 404, no token 401", async () => {
      const space = await createSpace(owner.api, orgId);
      expect((await reader.api.post(`/v1/spaces/${space.id}/duplicate`)).status).toBe(403);
      expect((await outsider.api.post(`/v1/spaces/${space.id}/duplicate`)).status).toBe(404);
      expect((await sys.admin.as(undefined).post(`/v1/spaces/${space.id}/duplicate`)).status).toBe(401);
    });
  });

  describe("move", () => {
    test("positions a space before or after a sibling", async () => {
      const org = await createOrg(owner.api);
      const a = await createSpace(owner.api, org.id, { title: "A" });
      const b = await createSpace(owner.api, org.id, { title: "B" });
      const res = await owner.api.post(`/v1/spaces/${b.id}/move`, { position: { before: { type: "space", space: a.id } } });
      expect(res.status).toBe(200);
      expectSchema("moveSpace", 200, res.body);
      const after = await owner.api.post(`/v1/spaces/${b.id}/move`, { position: { after: { type: "space", space: a.id } } });
      expect(after.status).toBe(200);
    });

    test("moving to a collection that does not exist is 400 naming parent; moving nowhere new is 409", async () => {
      const space = await createSpace(owner.api, orgId);
      const res = await owner.api.post(`/v1/spaces/${space.id}/move`, { parent: "nope0000000000000000" });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("parent");
      const nothing = await owner.api.post(`/v1/spaces/${space.id}/move`, { parent: null });
      expect(nothing.status).toBe(409);
      expectErrorBody(409, nothing.body);
    });

    test.each([
      [{}, "parent"],
      [{ position: { before: { type: "collection", space: "x" } } }, "position"],
      [{ position: { before: { type: "space", space: "x" }, after: { type: "space", space: "y" } } }, "position"],
      [{ position: { after: { type: "space", space: "elsewhere00000000000" } } }, "position"],
    ])("moving with %j is 400 naming %s", async (body, field) => {
      const space = await createSpace(owner.api, orgId);
      const res = await owner.api.post(`/v1/spaces/${space.id}/move`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    });

    test("an editor may not move (403), an outsider gets 404, no token 401", async () => {
      const a = await createSpace(owner.api, orgId);
      const b = await createSpace(owner.api, orgId);
      const body = { position: { before: { type: "space", space: a.id } } };
      expect((await editor.api.post(`/v1/spaces/${b.id}/move`, body)).status).toBe(403);
      expect((await outsider.api.post(`/v1/spaces/${b.id}/move`, body)).status).toBe(404);
      expect((await sys.admin.as(undefined).post(`/v1/spaces/${b.id}/move`, body)).status).toBe(401);
    });
  });

  describe("transfer", () => {
    test("moves the space to another organization the caller administers", async () => {
      const target = await createOrg(owner.api);
      const space = await createSpace(owner.api, orgId);
      const res = await owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: target.id });
      expect(res.status).toBe(200);
      expectSchema("transferSpace", 200, res.body);
      expect(res.body.organization).toBe(target.id);
      expect((await owner.api.get(`/v1/orgs/${target.id}/spaces`)).body.items.map((s: any) => s.id)).toContain(space.id);
      // Members of the old organization lose sight of it.
      expect((await reader.api.get(`/v1/spaces/${space.id}`)).status).toBe(404);
    });

    test("refuses organizations the caller does not administer (403 or 404), the same one (409), bad bodies (400)", async () => {
      const space = await createSpace(owner.api, orgId);
      const foreign = await createOrg(outsider.api);
      expect((await owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: foreign.id })).status).toBe(404);
      const shared = await createOrg(outsider.api);
      await addMember(outsider.api, shared.id, owner.email, "edit");
      expect((await owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: shared.id })).status).toBe(403);
      expect((await owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: orgId })).status).toBe(409);
      const bad = await owner.api.post(`/v1/spaces/${space.id}/transfer`, {});
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("organization");
      expect((await editor.api.post(`/v1/spaces/${space.id}/transfer`, { organization: orgId })).status).toBe(403);
      expect((await sys.admin.as(undefined).post(`/v1/spaces/${space.id}/transfer`, { organization: orgId })).status).toBe(401);
    });
  });

  describe("spaces of a member and of a collection", () => {
    test("a member's spaces list each space with the member's permission", async () => {
      const org = await createOrg(owner.api);
      const member = await createUser(sys.admin);
      await addMember(owner.api, org.id, member.email, "comment");
      const space = await createSpace(owner.api, org.id);
      const res = await owner.api.get(`/v1/orgs/${org.id}/members/${member.id}/spaces`);
      expect(res.status).toBe(200);
      expectSchema("listSpacesForOrganizationMember", 200, res.body);
      expect(res.body.items).toEqual([expect.objectContaining({ permission: "comment", space: expect.objectContaining({ id: space.id }) })]);
      const asc = await owner.api.get(`/v1/orgs/${org.id}/members/${member.id}/spaces?order=asc&limit=1`);
      expect(asc.body.items).toHaveLength(1);
    });

    test("member spaces: bad order or limit 400, non-members 404, unknown member 404, no token 401", async () => {
      const bad = await owner.api.get(`/v1/orgs/${orgId}/members/${reader.id}/spaces?order=sideways`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("order");
      const limit = await owner.api.get(`/v1/orgs/${orgId}/members/${reader.id}/spaces?limit=1001`);
      expect(limit.status).toBe(400);
      expect(limit.body.error.message).toContain("limit");
      expect((await outsider.api.get(`/v1/orgs/${orgId}/members/${reader.id}/spaces`)).status).toBe(404);
      expect((await owner.api.get(`/v1/orgs/${orgId}/members/${outsider.id}/spaces`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get(`/v1/orgs/${orgId}/members/${reader.id}/spaces`)).status).toBe(401);
    });

    test("the spaces of a collection that does not exist are 404; bad limit 400; no token 401", async () => {
      const res = await owner.api.get("/v1/collections/nope0000000000000000/spaces");
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
      const bad = await owner.api.get("/v1/collections/nope0000000000000000/spaces?limit=0");
      expect(bad.status).toBe(400);
      expect((await sys.admin.as(undefined).get("/v1/collections/nope0000000000000000/spaces")).status).toBe(401);
    });
  });

  describe("spaces in collections", () => {
    async function createCollection(fields: Record<string, unknown> = {}): Promise<string> {
      const res = await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Collection", ...fields });
      expect(res.status).toBe(201);
      return res.body.id;
    }

    test("a space created in a collection is listed there, in position order after moves", async () => {
      const collectionId = await createCollection();
      const a = await createSpace(owner.api, orgId, { parent: collectionId, title: "A" });
      const b = await createSpace(owner.api, orgId, { title: "B" });
      const moved = await owner.api.post(`/v1/spaces/${b.id}/move`, { parent: collectionId, position: { before: { type: "space", space: a.id } } });
      expect(moved.status).toBe(200);
      expect(moved.body.parent).toBe(collectionId);
      const res = await reader.api.get(`/v1/collections/${collectionId}/spaces`);
      expect(res.status).toBe(200);
      expectSchema("listSpacesInCollectionById", 200, res.body);
      expect(res.body.items.map((s: any) => s.id)).toEqual([b.id, a.id]);
      expect((await outsider.api.get(`/v1/collections/${collectionId}/spaces`)).status).toBe(404);
    });

    test("a collection's default level reaches its spaces", async () => {
      const collectionId = await createCollection();
      const space = await createSpace(owner.api, orgId, { parent: collectionId });
      expect((await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions.edit).toBe(false);
      expect((await owner.api.patch(`/v1/collections/${collectionId}`, { defaultLevel: "edit" })).status).toBe(200);
      const deadline = Date.now() + 5000;
      let edit = false;
      while (!edit && Date.now() < deadline) edit = (await reader.api.get(`/v1/spaces/${space.id}`)).body.permissions.edit;
      expect(edit).toBe(true);
    });

    test("a space cannot be created in a collection that does not exist (400 naming parent)", async () => {
      const res = await owner.api.post(`/v1/orgs/${orgId}/spaces`, { title: "x", parent: "nope0000000000000000" });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("parent");
    });

    test("deleting a collection deletes its spaces, which can be restored", async () => {
      const collectionId = await createCollection();
      const space = await createSpace(owner.api, orgId, { parent: collectionId });
      expect((await owner.api.delete(`/v1/collections/${collectionId}`)).status).toBe(204);
      const deadline = Date.now() + 5000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) status = (await owner.api.get(`/v1/spaces/${space.id}`)).status;
      expect(status).toBe(404);
      const restored = await owner.api.post(`/v1/spaces/${space.id}/restore`);
      expect(restored.status).toBe(200);
    });
  });

  test("the test clock hook is for the instance administrator only", async () => {
    expect((await owner.api.post("/v1/_test/content/clock", { ms: 1 })).status).toBe(403);
  });
});
