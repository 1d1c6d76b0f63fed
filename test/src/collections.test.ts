// Collections through HTTP, in every process mode: create, list, read, update, delete, move, transfer.
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("collections over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function collection(body: Record<string, unknown> = {}, org = orgId, api = owner.api): Promise<{ id: string; [k: string]: unknown }> {
    const res = await api.post(`/v1/orgs/${org}/collections`, { title: "Guides", ...body });
    if (res.status !== 201) throw new Error(`create collection: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function member(role: string | null, org = orgId): Promise<TestUser> {
    const user = await createUser(sys.admin);
    await addMember(owner.api, org, user.email, role);
    return user;
  }

  test("creating a collection is 201 with GitBook's shape; a nested one names its parent", async () => {
    const res = await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Handbooks" });
    expect(res.status).toBe(201);
    expectSchema("createCollection", 201, res.body);
    expect(res.body).toMatchObject({ object: "collection", title: "Handbooks", organization: orgId, defaultLevel: "inherit" });
    expect(res.body.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    const child = await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Child", parent: res.body.id });
    expect(child.status).toBe(201);
    expect(child.body.parent).toBe(res.body.id);
    const got = await owner.api.get(`/v1/collections/${child.body.id}`);
    expect(got.status).toBe(200);
    expectSchema("getCollectionById", 200, got.body);
  });

  test.each([
    [{ title: "t".repeat(51) }, "title"],
    [{ title: 7 }, "title"],
    [{ parent: 7 }, "parent"],
    [{ description: "d".repeat(101) }, "description"],
  ])("creating a collection with %j is 400 naming %s", async (body, field) => {
    const res = await owner.api.post(`/v1/orgs/${orgId}/collections`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("a parent that does not exist or belongs to another organization is 404", async () => {
    const other = (await createOrg(owner.api)).id;
    const foreign = await collection({}, other);
    for (const parent of ["nope00000000", foreign.id]) {
      const res = await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "x", parent });
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
  });

  test("collection endpoints need a token (401)", async () => {
    const c = await collection();
    const anon = owner.api.as(undefined);
    for (const res of [
      await anon.get(`/v1/orgs/${orgId}/collections`),
      await anon.post(`/v1/orgs/${orgId}/collections`, { title: "x" }),
      await anon.get(`/v1/collections/${c.id}`),
      await anon.patch(`/v1/collections/${c.id}`, { title: "x" }),
      await anon.delete(`/v1/collections/${c.id}`),
      await anon.post(`/v1/collections/${c.id}/move`, { parent: null }),
      await anon.post(`/v1/collections/${c.id}/transfer`, { organization: orgId }),
    ]) {
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });

  test("role matrix: who may see, create, change and delete collections", async () => {
    const c = await collection();
    const outsider = await createUser(sys.admin);
    const expectations: Array<[string | null | "outsider", { get: number; create: number; patch: number }]> = [
      ["create", { get: 200, create: 201, patch: 403 }],
      ["review", { get: 200, create: 403, patch: 403 }],
      ["edit", { get: 200, create: 403, patch: 403 }],
      ["comment", { get: 200, create: 403, patch: 403 }],
      ["read", { get: 200, create: 403, patch: 403 }],
      [null, { get: 404, create: 403, patch: 404 }],
      ["outsider", { get: 404, create: 404, patch: 404 }],
      // last: an admin's delete removes the collection
      ["admin", { get: 200, create: 201, patch: 200 }],
    ];
    for (const [role, expected] of expectations) {
      const user = role === "outsider" ? outsider : await member(role);
      const got = await user.api.get(`/v1/collections/${c.id}`);
      const created = await user.api.post(`/v1/orgs/${orgId}/collections`, { title: "By role" });
      const patched = await user.api.patch(`/v1/collections/${c.id}`, { description: "touched" });
      expect([role, got.status, created.status, patched.status]).toEqual([role, expected.get, expected.create, expected.patch]);
      if (got.status === 200) expect(got.body.permissions.admin).toBe(role === "admin");
      const deleted = await user.api.delete(`/v1/collections/${c.id}`);
      expect([role, deleted.status]).toEqual([role, role === "admin" ? 204 : patched.status]);
    }
  });

  test("a collection's defaultLevel raises what members get inside it, also in nested collections", async () => {
    const parent = await collection();
    const child = await collection({ parent: parent.id });
    const reader = await member("read");
    expect((await reader.api.get(`/v1/collections/${child.id}`)).body.permissions.admin).toBe(false);
    const res = await owner.api.patch(`/v1/collections/${parent.id}`, { defaultLevel: "admin", title: "Open", description: "For all" });
    expect(res.status).toBe(200);
    expectSchema("updateCollectionById", 200, res.body);
    expect(res.body).toMatchObject({ defaultLevel: "admin", title: "Open", description: "For all" });
    const inherited = await reader.api.get(`/v1/collections/${child.id}`);
    expect(inherited.body.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    expect((await reader.api.patch(`/v1/collections/${child.id}`, { title: "Reader edit" })).status).toBe(200);
    expect((await owner.api.patch(`/v1/collections/${parent.id}`, { defaultLevel: null })).body.defaultLevel).toBeNull();
    expect((await owner.api.patch(`/v1/collections/${parent.id}`, { defaultLevel: "inherit" })).body.defaultLevel).toBe("inherit");
    expect((await reader.api.get(`/v1/collections/${child.id}`)).body.permissions.admin).toBe(false);
  });

  test.each([
    [{ defaultLevel: "owner" }, "defaultLevel"],
    [{ title: "t".repeat(51) }, "title"],
    [{ description: "d".repeat(101) }, "description"],
  ])("PATCH with %j is 400 naming %s and changes nothing", async (body, field) => {
    const c = await collection({ title: "Same" });
    const res = await owner.api.patch(`/v1/collections/${c.id}`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
    expect((await owner.api.get(`/v1/collections/${c.id}`)).body.title).toBe("Same");
  });

  test("the list shows nested collections unless nested=false, and pages", async () => {
    const org = (await createOrg(owner.api)).id;
    const top = await collection({}, org);
    const nested = await collection({ parent: top.id }, org);
    const res = await owner.api.get(`/v1/orgs/${org}/collections`);
    expect(res.status).toBe(200);
    expectSchema("listCollectionsInOrganizationById", 200, res.body);
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([top.id, nested.id]);
    const topOnly = await owner.api.get(`/v1/orgs/${org}/collections?nested=false`);
    expect(topOnly.body.items.map((c: { id: string }) => c.id)).toEqual([top.id]);
    expect((await walkPages(owner.api, `/v1/orgs/${org}/collections`, 1)).length).toBe(2);
    expect((await owner.api.get(`/v1/orgs/${org}/collections?limit=1001`)).status).toBe(400);
    expect((await owner.api.get(`/v1/orgs/${org}/collections?nested=maybe`)).status).toBe(400);
    const outsider = await createUser(sys.admin);
    expect((await outsider.api.get(`/v1/orgs/${org}/collections`)).status).toBe(404);
  });

  test("deleting a collection is 204 and hides it and every collection nested in it", async () => {
    const top = await collection();
    const mid = await collection({ parent: top.id });
    const leaf = await collection({ parent: mid.id });
    const res = await owner.api.delete(`/v1/collections/${top.id}`);
    expect(res.status).toBe(204);
    for (const id of [top.id, mid.id, leaf.id]) expect((await owner.api.get(`/v1/collections/${id}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/collections/${top.id}`)).status).toBe(204);
    expect((await owner.api.delete(`/v1/collections/nope0000000`)).status).toBe(204);
    const listed = await walkPages(owner.api, `/v1/orgs/${orgId}/collections`, 100);
    expect(listed.map((c) => c.id)).not.toContain(leaf.id);
  });

  test("move: to a new parent, back to the top, and before a sibling", async () => {
    const org = (await createOrg(owner.api)).id;
    const a = await collection({ title: "A" }, org);
    const b = await collection({ title: "B" }, org);
    const c = await collection({ title: "C" }, org);
    const moved = await owner.api.post(`/v1/collections/${c.id}/move`, { parent: a.id });
    expect(moved.status).toBe(200);
    expectSchema("moveCollection", 200, moved.body);
    expect(moved.body.parent).toBe(a.id);
    const back = await owner.api.post(`/v1/collections/${c.id}/move`, { parent: null, position: { before: { type: "collection", collection: b.id } } });
    expect(back.status).toBe(200);
    expect(back.body.parent).toBeUndefined();
    const topLevel = await owner.api.get(`/v1/orgs/${org}/collections?nested=false`);
    expect(topLevel.body.items.map((x: { id: string }) => x.id)).toEqual([a.id, c.id, b.id]);
    const after = await owner.api.post(`/v1/collections/${a.id}/move`, { position: { after: { type: "collection", collection: b.id } } });
    expect(after.status).toBe(200);
    const reordered = await owner.api.get(`/v1/orgs/${org}/collections?nested=false`);
    expect(reordered.body.items.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    const again = await owner.api.post(`/v1/collections/${c.id}/move`, { parent: null });
    expect(again.status).toBe(409);
    expectErrorBody(409, again.body);
  });

  test("move refuses a cycle and bad input (400), and a hidden parent (404)", async () => {
    const top = await collection();
    const child = await collection({ parent: top.id });
    for (const [body, field] of [
      [{ parent: child.id }, "parent"],
      [{ parent: top.id }, "parent"],
      [{}, "parent"],
      [{ position: { before: { type: "page", page: "x" } } }, "position"],
      [{ position: { after: { type: "collection" } } }, "position"],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await owner.api.post(`/v1/collections/${top.id}/move`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.error.message).toContain(field);
    }
    const elsewhere = await collection({}, (await createOrg(owner.api)).id);
    expect((await owner.api.post(`/v1/collections/${top.id}/move`, { parent: elsewhere.id })).status).toBe(404);
    const reader = await member("read");
    expect((await reader.api.post(`/v1/collections/${child.id}/move`, { parent: null })).status).toBe(403);
    expect((await owner.api.get(`/v1/collections/${child.id}`)).body.parent).toBe(top.id);
  });

  test("transfer moves a collection and its nested ones to another organization the caller administers", async () => {
    const target = (await createOrg(owner.api)).id;
    const parent = await collection();
    const top = await collection({ parent: parent.id });
    const inner = await collection({ parent: top.id });
    const res = await owner.api.post(`/v1/collections/${top.id}/transfer`, { organization: target });
    expect(res.status).toBe(200);
    expectSchema("transferCollection", 200, res.body);
    expect(res.body.organization).toBe(target);
    expect(res.body.parent).toBeUndefined();
    expect((await owner.api.get(`/v1/collections/${inner.id}`)).body).toMatchObject({ organization: target, parent: top.id });
    const listed = await walkPages(owner.api, `/v1/orgs/${target}/collections`, 100);
    expect(listed.map((c) => c.id).sort()).toEqual([top.id, inner.id].sort());
    const same = await owner.api.post(`/v1/collections/${top.id}/transfer`, { organization: target });
    expect(same.status).toBe(409);
  });

  test("transfer needs admin on the target organization (403) and membership of it (404); organization is required (400)", async () => {
    const c = await collection();
    const someoneElse = await createUser(sys.admin);
    const theirs = (await createOrg(someoneElse.api)).id;
    expect((await owner.api.post(`/v1/collections/${c.id}/transfer`, { organization: theirs })).status).toBe(404);
    await addMember(someoneElse.api, theirs, owner.email, "edit");
    const denied = await owner.api.post(`/v1/collections/${c.id}/transfer`, { organization: theirs });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
    const bad = await owner.api.post(`/v1/collections/${c.id}/transfer`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("organization");
    expect((await owner.api.get(`/v1/collections/${c.id}`)).body.organization).toBe(orgId);
  });
});
