// Grants on spaces and collections to teams and members (GitBook's content permissions), through HTTP
// in every process mode: they raise a member's or guest's role on that content only, are listed,
// changed and taken away, leave with a member who leaves the organization, and are refused when bad.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("content permissions over %s", (mode) => {
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

  async function team(orgId: string, members: TestUser[], title = "Writers"): Promise<string> {
    const res = await owner.api.put(`/v1/orgs/${orgId}/teams`, { title, members: members.map((m) => m.id) });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  test("a team's grant on a space lets its guest in with that role, and PATCH and DELETE change and end it", async () => {
    const { orgId, users } = await orgWith([null]);
    const [guest] = users;
    const space = await createSpace(owner.api, orgId);
    const teamId = await team(orgId, [guest]);
    expect((await guest.api.get(`/v1/spaces/${space.id}`)).status).toBe(404);

    const invited = await owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: "edit", teams: [teamId] });
    expect(invited.status).toBe(204);
    const seen = await guest.api.get(`/v1/spaces/${space.id}`);
    expect(seen.status).toBe(200);
    expectSchema("getSpaceById", 200, seen.body);
    expect(seen.body.permissions).toMatchObject({ view: true, edit: true, admin: false });

    const listed = await owner.api.get(`/v1/spaces/${space.id}/permissions/teams`);
    expect(listed.status).toBe(200);
    expectSchema("listTeamPermissionsInSpace", 200, listed.body);
    expect(listed.body.items).toEqual([expect.objectContaining({ permission: "edit", team: expect.objectContaining({ id: teamId, spaces: 1, members: 1 }) })]);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${teamId}`)).body.spaces).toBe(1);

    expect((await owner.api.patch(`/v1/spaces/${space.id}/permissions/teams/${teamId}`, { role: "read" })).status).toBe(204);
    expect((await guest.api.get(`/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ view: true, edit: false });
    const edit = await guest.api.patch(`/v1/spaces/${space.id}`, { title: "Mine now" });
    expect(edit.status).toBe(403);
    expectErrorBody(403, edit.body);

    expect((await owner.api.delete(`/v1/spaces/${space.id}/permissions/teams/${teamId}`)).status).toBe(204);
    expect((await guest.api.get(`/v1/spaces/${space.id}`)).status).toBe(404);
    expect((await owner.api.get(`/v1/orgs/${orgId}/teams/${teamId}`)).body.spaces).toBe(0);
    // Removing a grant that is not there is still 204; changing it is 404.
    expect((await owner.api.delete(`/v1/spaces/${space.id}/permissions/teams/${teamId}`)).status).toBe(204);
    const missing = await owner.api.patch(`/v1/spaces/${space.id}/permissions/teams/${teamId}`, { role: "edit" });
    expect(missing.status).toBe(404);
    expectErrorBody(404, missing.body);
  });

  test("a member's own grant raises their role on one space only, counts in their `spaces`, and goes when they leave", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const [reader] = users;
    const granted = await createSpace(owner.api, orgId);
    const other = await createSpace(owner.api, orgId);
    expect((await owner.api.post(`/v1/spaces/${granted.id}/permissions`, { role: "review", users: [reader.id] })).status).toBe(204);
    expect((await reader.api.get(`/v1/spaces/${granted.id}`)).body.permissions).toMatchObject({ review: true, merge: true, admin: false });
    expect((await reader.api.get(`/v1/spaces/${other.id}`)).body.permissions).toMatchObject({ view: true, review: false });

    const listed = await owner.api.get(`/v1/spaces/${granted.id}/permissions/users`);
    expect(listed.status).toBe(200);
    expectSchema("listUserPermissionsInSpace", 200, listed.body);
    expect(listed.body.items).toEqual([expect.objectContaining({ permission: "review", user: expect.objectContaining({ id: reader.id }) })]);
    const member = await owner.api.get(`/v1/orgs/${orgId}/members/${reader.id}`);
    expectSchema("getMemberInOrganizationById", 200, member.body);
    expect(member.body.spaces).toBe(1);
    const spaces = await owner.api.get(`/v1/orgs/${orgId}/members/${reader.id}/spaces`);
    expect(spaces.body.items.find((i: { space: { id: string } }) => i.space.id === granted.id).permission).toBe("review");

    // Leaving the organization takes the grant away: coming back brings only the new role.
    expect((await reader.api.delete(`/v1/orgs/${orgId}/members/${reader.id}`)).status).toBe(204);
    await addMember(owner.api, orgId, reader.email, "read");
    expect((await reader.api.get(`/v1/spaces/${granted.id}`)).body.permissions).toMatchObject({ view: true, review: false });
    expect((await owner.api.get(`/v1/spaces/${granted.id}/permissions/users`)).body.items).toEqual([]);
  });

  test("a team's grant on a collection reaches the collection and the spaces in it; deleting the team ends it", async () => {
    const { orgId, users } = await orgWith([null]);
    const [guest] = users;
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Guides" })).body;
    const inside = await createSpace(owner.api, orgId, { parent: collection.id });
    const outside = await createSpace(owner.api, orgId);
    const teamId = await team(orgId, [guest]);
    expect((await guest.api.get(`/v1/orgs/${orgId}/collections`)).body.items).toEqual([]);

    expect((await owner.api.post(`/v1/collections/${collection.id}/permissions`, { role: "comment", teams: [teamId] })).status).toBe(204);
    const listed = await guest.api.get(`/v1/orgs/${orgId}/collections`);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([collection.id]);
    const got = await guest.api.get(`/v1/collections/${collection.id}`);
    expect(got.status).toBe(200);
    expectSchema("getCollectionById", 200, got.body);
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await guest.api.get(`/v1/spaces/${outside.id}`)).status).toBe(404);

    const teams = await owner.api.get(`/v1/collections/${collection.id}/permissions/teams`);
    expect(teams.status).toBe(200);
    expectSchema("listTeamPermissionsInCollection", 200, teams.body);
    expect(teams.body.items).toEqual([expect.objectContaining({ permission: "comment", team: expect.objectContaining({ id: teamId }) })]);
    expect((await owner.api.patch(`/v1/collections/${collection.id}/permissions/teams/${teamId}`, { role: "edit" })).status).toBe(204);
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).body.permissions).toMatchObject({ edit: true });

    expect((await owner.api.delete(`/v1/orgs/${orgId}/teams/${teamId}`)).status).toBe(204);
    expect((await guest.api.get(`/v1/spaces/${inside.id}`)).status).toBe(404);
    expect((await guest.api.get(`/v1/collections/${collection.id}`)).status).toBe(404);
    expect((await owner.api.get(`/v1/collections/${collection.id}/permissions/teams`)).body.items).toEqual([]);
  });

  test("a guest granted one space of a collection finds it in the collection's space list, and only it", async () => {
    const { orgId, users } = await orgWith([null]);
    const [guest] = users;
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Shelf" })).body;
    const granted = await createSpace(owner.api, orgId, { parent: collection.id, title: "Granted" });
    await createSpace(owner.api, orgId, { parent: collection.id, title: "Not granted" });
    expect((await guest.api.get(`/v1/collections/${collection.id}/spaces`)).body.items).toEqual([]);
    expect((await owner.api.post(`/v1/spaces/${granted.id}/permissions`, { role: "read", users: [guest.id] })).status).toBe(204);
    const listed = await guest.api.get(`/v1/collections/${collection.id}/spaces`);
    expect(listed.status).toBe(200);
    expectSchema("listSpacesInCollectionById", 200, listed.body);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([granted.id]);
    expect(listed.body.count).toBe(1);
    // And in the organization's list of spaces.
    const inOrg = await guest.api.get(`/v1/orgs/${orgId}/spaces`);
    expect(inOrg.status).toBe(200);
    expectSchema("listSpacesInOrganizationById", 200, inOrg.body);
    expect(inOrg.body.items.map((s: { id: string }) => s.id)).toEqual([granted.id]);
  });

  test("user grants on a collection: invite, list, change, remove", async () => {
    const { orgId, users } = await orgWith([null]);
    const [guest] = users;
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Specs" })).body;
    expect((await owner.api.post(`/v1/collections/${collection.id}/permissions`, { role: "read", users: [guest.id] })).status).toBe(204);
    const listed = await owner.api.get(`/v1/collections/${collection.id}/permissions/users`);
    expectSchema("listUserPermissionsInCollection", 200, listed.body);
    expect(listed.body.items).toEqual([expect.objectContaining({ permission: "read", user: expect.objectContaining({ id: guest.id }) })]);
    expect((await guest.api.get(`/v1/collections/${collection.id}`)).status).toBe(200);
    expect((await owner.api.patch(`/v1/collections/${collection.id}/permissions/users/${guest.id}`, { role: null })).status).toBe(204);
    expect((await guest.api.get(`/v1/collections/${collection.id}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/collections/${collection.id}/permissions/users/${guest.id}`)).status).toBe(204);
  });

  test("without a token 401; below admin 403; outsiders 404; guests cannot list who has access", async () => {
    const { orgId, users } = await orgWith(["edit", null]);
    const [editor, guest] = users;
    const outsider = await createUser(sys.admin);
    const space = await createSpace(owner.api, orgId);
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "C" })).body;
    const body = { role: "read", users: [editor.id] };
    for (const base of [`/v1/spaces/${space.id}`, `/v1/collections/${collection.id}`]) {
      const anon = owner.api.as(undefined);
      for (const res of [
        await anon.post(`${base}/permissions`, body),
        await anon.get(`${base}/permissions/teams`),
        await anon.get(`${base}/permissions/users`),
        await anon.patch(`${base}/permissions/users/${editor.id}`, { role: "read" }),
        await anon.delete(`${base}/permissions/teams/t1`),
      ]) {
        expect(res.status).toBe(401);
        expectErrorBody(401, res.body);
      }
      const denied = await editor.api.post(`${base}/permissions`, body);
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      expect((await editor.api.delete(`${base}/permissions/users/${editor.id}`)).status).toBe(403);
      expect((await editor.api.get(`${base}/permissions/users`)).status).toBe(200);
      for (const res of [await outsider.api.post(`${base}/permissions`, body), await outsider.api.get(`${base}/permissions/teams`)]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
    }
    expect((await owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: "read", users: [guest.id] })).status).toBe(204);
    const guestList = await guest.api.get(`/v1/spaces/${space.id}/permissions/users`);
    expect(guestList.status).toBe(403);
    expectErrorBody(403, guestList.body);
  });

  test.each([
    ["no role", { teams: ["x"] }, "role"],
    ["an unknown role", { role: "owner", users: ["x"] }, "role"],
    ["nobody", { role: "read" }, "teams' or 'users'"],
    ["an empty list", { role: "read", users: [] }, "users"],
    ["a string for a list", { role: "read", users: "someone" }, "users"],
    ["101 users", { role: "read", users: Array.from({ length: 101 }, (_, i) => `u${i}`) }, "users"],
    ["an operator for an id", { role: "read", users: [{ $gt: "" }] }, "users"],
    ["a user who is not a member", { role: "read", users: ["not-a-member"] }, "not members"],
    ["a team that does not exist", { role: "read", teams: ["not-a-team"] }, "not in the organization"],
  ])("inviting with %s is 400 naming it and grants nothing", async (_what, body, field) => {
    const { orgId } = await orgWith([]);
    const space = await createSpace(owner.api, orgId);
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "C" })).body;
    for (const base of [`/v1/spaces/${space.id}`, `/v1/collections/${collection.id}`]) {
      const res = await owner.api.post(`${base}/permissions`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
      expect((await owner.api.get(`${base}/permissions/users`)).body.items).toEqual([]);
      expect((await owner.api.get(`${base}/permissions/teams`)).body.items).toEqual([]);
    }
  });

  test("another organization's team or member cannot be granted (400), and a transferred space leaves its grants behind", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const other = await orgWith(["read"]);
    const otherTeam = await team(other.orgId, other.users);
    const space = await createSpace(owner.api, orgId);
    expect((await owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: "edit", teams: [otherTeam] })).status).toBe(400);
    expect((await owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: "edit", users: [other.users[0].id] })).status).toBe(400);

    expect((await owner.api.post(`/v1/spaces/${space.id}/permissions`, { role: "edit", users: [users[0].id] })).status).toBe(204);
    expect((await owner.api.post(`/v1/spaces/${space.id}/transfer`, { organization: other.orgId })).status).toBe(200);
    expect((await owner.api.get(`/v1/spaces/${space.id}/permissions/users`)).body.items).toEqual([]);
  });

  test("two admins demoting each other at once: exactly one succeeds, the organization keeps an admin", async () => {
    const { orgId, users } = await orgWith(["admin"]);
    const [second] = users;
    const [a, b] = await Promise.all([
      owner.api.patch(`/v1/orgs/${orgId}/members/${second.id}`, { role: "read" }),
      second.api.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: "read" }),
    ]);
    // The loser is refused either as the last admin (409) or, when the winner finished before its
    // request was checked, as no longer an admin (403); never do both succeed.
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    expect(won.status).toBe(200);
    expect([403, 409]).toContain(lost.status);
    expectErrorBody(lost.status, lost.body);
    const admins = await owner.api.get(`/v1/orgs/${orgId}/members?role=admin`);
    expect(admins.body.items).toHaveLength(1);
  });
});
