// Teams through HTTP, in every process mode: create, list, read, rename, delete, membership.
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("teams over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function orgWith(roles: Array<string | null>): Promise<{ orgId: string; users: TestUser[] }> {
    const orgId = (await createOrg(owner.api)).id;
    const users: TestUser[] = [];
    for (const role of roles) {
      const user = await createUser(sys.admin);
      await addMember(owner.api, orgId, user.email, role);
      users.push(user);
    }
    return { orgId, users };
  }

  test("PUT creates a team (201) with its initial members counted", async () => {
    const { orgId, users } = await orgWith(["read", "edit"]);
    const res = await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Docs crew", members: users.map((u) => u.id) });
    expect(res.status).toBe(201);
    expectSchema("createOrganizationTeam", 201, res.body);
    expect(res.body).toMatchObject({ object: "team", title: "Docs crew", members: 2, spaces: 0, permissions: { admin: true, view: true } });
    const got = await users[0].api.get(`/v1/orgs/${orgId}/teams/${res.body.id}`);
    expect(got.status).toBe(200);
    expectSchema("getTeamInOrganizationById", 200, got.body);
    expect(got.body.permissions).toEqual({ admin: false, view: true });
  });

  test.each([
    [{}, "title"],
    [{ title: "" }, "title"],
    [{ title: "t".repeat(65) }, "title"],
    [{ title: "Ok", members: "someone" }, "members"],
    [{ title: "Ok", members: ["not-a-member"] }, "members"],
  ])("creating a team with %j is 400 naming %s and creates nothing", async (body, field) => {
    const { orgId } = await orgWith([]);
    const res = await owner.api.put(`/v1/orgs/${orgId}/teams`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams`)).body.count).toBe(0);
  });

  test("team endpoints need a token (401)", async () => {
    const { orgId } = await orgWith([]);
    const anon = owner.api.as(undefined);
    for (const res of [
      await anon.get(`/v1/orgs/${orgId}/teams`),
      await anon.put(`/v1/orgs/${orgId}/teams`, { title: "x" }),
      await anon.get(`/v1/orgs/${orgId}/teams/t1`),
      await anon.patch(`/v1/orgs/${orgId}/teams/t1`, { title: "x" }),
      await anon.delete(`/v1/orgs/${orgId}/teams/t1`),
      await anon.put(`/v1/orgs/${orgId}/teams/t1/members/${owner.id}`),
      await anon.delete(`/v1/orgs/${orgId}/teams/t1/members/${owner.id}`),
    ]) {
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });

  test("only admins create teams (403); guests cannot list them (403); non-members get 404", async () => {
    const { orgId, users } = await orgWith(["create", null]);
    const outsider = await createUser(sys.admin);
    const denied = await users[0].api.put(`/v1/orgs/${orgId}/teams`, { title: "Mine" });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
    expect((await users[1].api.get(`/v1/orgs/${orgId}/teams`)).status).toBe(403);
    for (const res of [await outsider.api.get(`/v1/orgs/${orgId}/teams`), await outsider.api.put(`/v1/orgs/${orgId}/teams`, { title: "x" })]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
  });

  test("the list filters by title (case-insensitive) and by owner, and pages", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const [member] = users;
    const ids: string[] = [];
    for (const title of ["Alpha writers", "Beta readers", "Gamma Writers"]) ids.push((await owner.api.put(`/v1/orgs/${orgId}/teams`, { title })).body.id);
    const res = await member.api.get(`/v1/orgs/${orgId}/teams?title=WRITERS`);
    expect(res.status).toBe(200);
    expectSchema("listTeamsInOrganizationById", 200, res.body);
    expect(res.body.items.map((t: { title: string }) => t.title).sort()).toEqual(["Alpha writers", "Gamma Writers"]);
    expect((await owner.api.put(`/v1/orgs/${orgId}/teams/${ids[1]}/members/${member.id}`, { role: "owner" })).status).toBe(204);
    const owned = await owner.api.get(`/v1/orgs/${orgId}/teams?owner=${member.id}`);
    expect(owned.body.items.map((t: { id: string }) => t.id)).toEqual([ids[1]]);
    const adminOwns = await owner.api.get(`/v1/orgs/${orgId}/teams?owner=${owner.id}`);
    expect(adminOwns.body.count).toBe(3);
    expect((await walkPages(owner.api, `/v1/orgs/${orgId}/teams`, 2)).map((t) => t.id).sort()).toEqual([...ids].sort());
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams?limit=1001`)).status).toBe(400);
  });

  test("PATCH renames a team; a team owner may, another member may not (403)", async () => {
    const { orgId, users } = await orgWith(["read", "read"]);
    const team = (await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Old" })).body;
    await owner.api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`, { role: "owner" });
    const res = await users[0].api.patch(`/v1/orgs/${orgId}/teams/${team.id}`, { title: "New" });
    expect(res.status).toBe(200);
    expectSchema("updateTeamInOrganizationById", 200, res.body);
    expect(res.body).toMatchObject({ title: "New", permissions: { admin: true } });
    const denied = await users[1].api.patch(`/v1/orgs/${orgId}/teams/${team.id}`, { title: "Nope" });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
    for (const body of [{}, { title: "" }, { title: "x".repeat(65) }]) {
      const bad = await owner.api.patch(`/v1/orgs/${orgId}/teams/${team.id}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("title");
    }
    expect((await owner.api.patch(`/v1/orgs/${orgId}/teams/nope000`, { title: "x" })).status).toBe(404);
  });

  test("a team of another organization is 404", async () => {
    const a = await orgWith([]);
    const b = await orgWith([]);
    const team = (await owner.api.put(`/v1/orgs/${a.orgId}/teams`, { title: "A team" })).body;
    const res = await owner.api.get(`/v1/orgs/${b.orgId}/teams/${team.id}`);
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });

  test("adding and removing team members keeps the members count right", async () => {
    const { orgId, users } = await orgWith(["read", "read"]);
    const team = (await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Counted" })).body;
    for (const u of users) expect((await owner.api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${u.id}`)).status).toBe(204);
    expect((await owner.api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${team.id}`)).body.members).toBe(2);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`)).status).toBe(204);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${team.id}`)).body.members).toBe(1);
    // removing someone from the organization takes them out of its teams
    await owner.api.delete(`/v1/orgs/${orgId}/members/${users[1].id}`);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${team.id}`)).body.members).toBe(0);
    const stranger = await createUser(sys.admin);
    expect((await owner.api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${stranger.id}`)).status).toBe(404);
    const badRole = await owner.api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${owner.id}`, { role: "boss" });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.message).toContain("role");
  });

  test("a plain member cannot add to a team they do not own (403) but may leave one", async () => {
    const { orgId, users } = await orgWith(["edit", "read"]);
    const team = (await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Closed", members: [users[0].id] })).body;
    expect((await users[0].api.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[1].id}`)).status).toBe(403);
    expect((await users[1].api.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`)).status).toBe(403);
    expect((await users[0].api.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${users[0].id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${team.id}`)).body.members).toBe(0);
  });

  test("deleting a team is 204, also when it is missing; only admins may (403)", async () => {
    const { orgId, users } = await orgWith(["create"]);
    const team = (await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Doomed", members: [users[0].id] })).body;
    expect((await users[0].api.delete(`/v1/orgs/${orgId}/teams/${team.id}`)).status).toBe(403);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/teams/${team.id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${team.id}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/teams/${team.id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/orgs/${orgId}/members/${users[0].id}`)).body.teams).toBe(0);
  });
});
