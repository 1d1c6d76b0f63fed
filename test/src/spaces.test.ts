// Spaces through HTTP, in every process mode: create, list, read, permissions.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("spaces over %s", (mode) => {
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

  test("a new space is 201 and starts with an empty revision", async () => {
    const res = await owner.api.post(`/v1/orgs/${orgId}/spaces`, { title: "Handbook", emoji: "📘" });
    expect(res.status).toBe(201);
    expectSchema("createSpace", 201, res.body);
    expect(res.body).toMatchObject({ object: "space", title: "Handbook", emoji: "📘", organization: orgId, visibility: "private" });
    expect(res.body.permissions).toMatchObject({ view: true, admin: true, edit: true });
    const revision = await owner.api.get(`/v1/spaces/${res.body.id}/content`);
    expect(revision.status).toBe(200);
    expectSchema("getCurrentRevision", 200, revision.body);
    expect(revision.body).toMatchObject({ id: res.body.revision, pages: [], files: [], parents: [] });
  });

  test("GET /v1/spaces/{spaceId} answers GitBook's Space", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Read me" });
    const res = await owner.api.get(`/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expectSchema("getSpaceById", 200, res.body);
    expect(res.body.id).toBe(space.id);
  });

  test.each([
    [{ title: "t".repeat(51) }, "title"],
    [{ emoji: "e".repeat(51) }, "emoji"],
    [{ title: 5 }, "title"],
    [{ editMode: "frozen" }, "editMode"],
  ])("creating a space with %j is 400 naming %s", async (body, field) => {
    const res = await owner.api.post(`/v1/orgs/${orgId}/spaces`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("a reader sees a space with read permissions but cannot create one (403)", async () => {
    const reader = await createUser(sys.admin);
    await addMember(owner.api, orgId, reader.email, "read");
    const space = await createSpace(owner.api, orgId);
    const res = await reader.api.get(`/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expectSchema("getSpaceById", 200, res.body);
    expect(res.body.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
    const denied = await reader.api.post(`/v1/orgs/${orgId}/spaces`, { title: "Nope" });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
  });

  test("a non-member gets 404 for the space, the list and creation", async () => {
    const outsider = await createUser(sys.admin);
    const space = await createSpace(owner.api, orgId);
    for (const res of [
      await outsider.api.get(`/v1/spaces/${space.id}`),
      await outsider.api.get(`/v1/spaces/${space.id}/content`),
      await outsider.api.get(`/v1/orgs/${orgId}/spaces`),
      await outsider.api.post(`/v1/orgs/${orgId}/spaces`, { title: "x" }),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
  });

  test("a space that does not exist is 404", async () => {
    const res = await owner.api.get("/v1/spaces/nope0000000000000000");
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });

  test("the list answers GitBook's envelope and refuses limits out of range", async () => {
    const org = await createOrg(owner.api);
    await createSpace(owner.api, org.id);
    const res = await owner.api.get(`/v1/orgs/${org.id}/spaces`);
    expect(res.status).toBe(200);
    expectSchema("listSpacesInOrganizationById", 200, res.body);
    expect(res.body.count).toBe(1);
    for (const limit of ["1001", "0", "-1", "abc", "1.5"]) {
      const bad = await owner.api.get(`/v1/orgs/${org.id}/spaces?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("limit");
    }
    expect((await owner.api.get(`/v1/orgs/${org.id}/spaces?limit=1000`)).status).toBe(200);
  });

  test("a forged page token is 400", async () => {
    const res = await owner.api.get(`/v1/orgs/${orgId}/spaces?page=${Buffer.from('{"s":"x","v":[],"i":"a"}').toString("base64url")}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("page");
  });

  test("query input shaped as an operator is refused, never used as one", async () => {
    const res = await owner.api.get(`/v1/orgs/${orgId}/spaces?limit[$gt]=0`);
    expect(res.status).toBe(400);
    const nested = await owner.api.get(`/v1/spaces/${encodeURIComponent("[object Object]")}`);
    expect(nested.status).toBe(404);
  });

  test("pagination walks every space exactly once while spaces are being added", async () => {
    const org = await createOrg(owner.api);
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push((await createSpace(owner.api, org.id, { title: `S${i}` })).id);
    const added: string[] = [];
    const items = await walkPages(owner.api, `/v1/orgs/${org.id}/spaces`, 2, async () => {
      added.push((await createSpace(owner.api, org.id, { title: "during" })).id);
    });
    const ids = items.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
    // Spaces added during the walk sort after every page already served, so each one shows up too.
    for (const id of added) expect(ids).toContain(id);
  });

  test("a guest member sees only public or unlisted spaces", async () => {
    const org = await createOrg(owner.api);
    const guest = await createUser(sys.admin);
    await addMember(owner.api, org.id, guest.email, null);
    const hidden = await createSpace(owner.api, org.id);
    expect((await guest.api.get(`/v1/spaces/${hidden.id}`)).status).toBe(404);
    const list = await guest.api.get(`/v1/orgs/${org.id}/spaces`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
  });
});
