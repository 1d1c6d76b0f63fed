// Translation settings through HTTP, in every process mode. The interface's `translation-settings`
// resource wins over GitBook's later `translation` one, so bodies are checked against the interface.
import { addMember, createOrg, createUser, expectErrorBody, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

/** The interface's Translation settings resource. */
function expectTranslationSettings(body: Record<string, unknown>): void {
  expect(body).toEqual({
    object: "translation-settings",
    id: expect.any(String),
    title: expect.any(String),
    languages: expect.any(Array),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    permissions: { view: expect.any(Boolean), edit: expect.any(Boolean) },
    urls: { location: expect.stringMatching(/^https?:\/\/.+\/v1\/orgs\/.+\/translations\/.+$/) },
  });
  expect(Number.isNaN(Date.parse(body.createdAt as string))).toBe(false);
  expect((body.title as string).length).toBeGreaterThanOrEqual(1);
}

describe.each(MODES)("translation settings over %s", (mode) => {
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

  test("create (201), read, replace and list translation settings", async () => {
    const created = await owner.api.post(`/v1/orgs/${orgId}/translations`, { title: "French", languages: ["fr", "pt-br"] });
    expect(created.status).toBe(201);
    expectTranslationSettings(created.body);
    expect(created.body).toMatchObject({ title: "French", languages: ["fr", "pt-br"], permissions: { view: true, edit: true } });
    const got = await owner.api.get(`/v1/orgs/${orgId}/translations/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const replaced = await owner.api.put(`/v1/orgs/${orgId}/translations/${created.body.id}`, { title: "Français", languages: ["fr"] });
    expect(replaced.status).toBe(200);
    expectTranslationSettings(replaced.body);
    expect(replaced.body).toMatchObject({ title: "Français", languages: ["fr"] });
    const list = await owner.api.get(`/v1/orgs/${orgId}/translations`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: { id: string }) => t.id)).toContain(created.body.id);
    list.body.items.forEach(expectTranslationSettings);
  });

  test.each([
    [{}, "title"],
    [{ title: "" }, "title"],
    [{ title: "t".repeat(101) }, "title"],
    [{ title: "Ok", languages: "fr" }, "languages"],
    [{ title: "Ok", languages: ["not a code"] }, "languages"],
  ])("creating translation settings with %j is 400 naming %s", async (body, field) => {
    const res = await owner.api.post(`/v1/orgs/${orgId}/translations`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("PUT without a title is 400 and changes nothing", async () => {
    const created = (await owner.api.post(`/v1/orgs/${orgId}/translations`, { title: "Kept" })).body;
    const res = await owner.api.put(`/v1/orgs/${orgId}/translations/${created.id}`, { title: "x".repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("title");
    expect((await owner.api.get(`/v1/orgs/${orgId}/translations/${created.id}`)).body.title).toBe("Kept");
  });

  test("members read (edit false), only admins change (403), guests 403, outsiders 404, no token 401", async () => {
    const created = (await owner.api.post(`/v1/orgs/${orgId}/translations`, { title: "German", languages: ["de"] })).body;
    const editor = await createUser(sys.admin);
    const guest = await createUser(sys.admin);
    const outsider = await createUser(sys.admin);
    await addMember(owner.api, orgId, editor.email, "create");
    await addMember(owner.api, orgId, guest.email, null);
    const seen = await editor.api.get(`/v1/orgs/${orgId}/translations/${created.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ view: true, edit: false });
    for (const res of [
      await editor.api.post(`/v1/orgs/${orgId}/translations`, { title: "Nope" }),
      await editor.api.put(`/v1/orgs/${orgId}/translations/${created.id}`, { title: "Nope" }),
      await editor.api.delete(`/v1/orgs/${orgId}/translations/${created.id}`),
      await guest.api.get(`/v1/orgs/${orgId}/translations`),
    ]) {
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    for (const res of [await outsider.api.get(`/v1/orgs/${orgId}/translations`), await outsider.api.get(`/v1/orgs/${orgId}/translations/${created.id}`)]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    const anon = owner.api.as(undefined);
    for (const res of [
      await anon.get(`/v1/orgs/${orgId}/translations`),
      await anon.post(`/v1/orgs/${orgId}/translations`, { title: "x" }),
      await anon.get(`/v1/orgs/${orgId}/translations/${created.id}`),
      await anon.put(`/v1/orgs/${orgId}/translations/${created.id}`, { title: "x" }),
      await anon.delete(`/v1/orgs/${orgId}/translations/${created.id}`),
    ]) {
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
    expect((await owner.api.get(`/v1/orgs/${orgId}/translations/${created.id}`)).body.title).toBe("German");
  });

  test("delete is 204, also when missing; a deleted or unknown id is 404 to read and replace", async () => {
    const created = (await owner.api.post(`/v1/orgs/${orgId}/translations`, { title: "Gone" })).body;
    expect((await owner.api.delete(`/v1/orgs/${orgId}/translations/${created.id}`)).status).toBe(204);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/translations/${created.id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/translations/${created.id}`)).status).toBe(404);
    expect((await owner.api.put(`/v1/orgs/${orgId}/translations/${created.id}`, { title: "Back" })).status).toBe(404);
  });

  test("the list pages and refuses a limit over 1000", async () => {
    const org = (await createOrg(owner.api)).id;
    for (const title of ["One", "Two", "Three"]) await owner.api.post(`/v1/orgs/${org}/translations`, { title });
    expect((await walkPages(owner.api, `/v1/orgs/${org}/translations`, 2)).map((t) => t.title).sort()).toEqual(["One", "Three", "Two"]);
    const res = await owner.api.get(`/v1/orgs/${org}/translations?limit=1001`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("limit");
  });
});
