// Organization members through HTTP, in every process mode: list, filters, read, role changes, removal, ping, SSO, teams.
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, walkPages, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("members over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin, { displayName: "Owner Person" });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function orgWith(roles: Array<string | null>): Promise<{ orgId: string; users: TestUser[] }> {
    const orgId = (await createOrg(owner.api)).id;
    const users: TestUser[] = [];
    for (const role of roles) {
      const user = await createUser(sys.admin, { displayName: `Member ${role ?? "guest"}` });
      await addMember(owner.api, orgId, user.email, role);
      users.push(user);
    }
    return { orgId, users };
  }

  test("the member list answers GitBook's shape with every member and the creator as admin", async () => {
    const { orgId, users } = await orgWith(["edit", null]);
    const res = await owner.api.get(`/v1/orgs/${orgId}/members`);
    expect(res.status).toBe(200);
    expectSchema("listMembersInOrganizationById", 200, res.body);
    expect(res.body.count).toBe(3);
    const byId = Object.fromEntries(res.body.items.map((m: { id: string; role: string }) => [m.id, m.role]));
    expect(byId).toEqual({ [owner.id]: "admin", [users[0].id]: "edit", [users[1].id]: null });
    const mine = res.body.items.find((m: { id: string }) => m.id === owner.id);
    expect(mine).toMatchObject({ object: "member", user: { id: owner.id, displayName: "Owner Person" }, disabled: false, sso: false, teams: 0 });
  });

  test("the role filter lists only that role, and guest lists members without one", async () => {
    const { orgId, users } = await orgWith(["edit", "edit", null, "read"]);
    const edit = await owner.api.get(`/v1/orgs/${orgId}/members?role=edit`);
    expect(edit.status).toBe(200);
    expect(edit.body.items.map((m: { id: string }) => m.id).sort()).toEqual([users[0].id, users[1].id].sort());
    const guests = await owner.api.get(`/v1/orgs/${orgId}/members?role=guest`);
    expect(guests.body.items.map((m: { id: string }) => m.id)).toEqual([users[2].id]);
  });

  test("search matches display name and email, case-insensitively", async () => {
    const orgId = (await createOrg(owner.api)).id;
    const grace = await createUser(sys.admin, { displayName: "Grace Hopper" });
    const alan = await createUser(sys.admin, { displayName: "Alan Turing", email: `turing-${Date.now()}@machines.test` });
    await addMember(owner.api, orgId, grace.email, "read");
    await addMember(owner.api, orgId, alan.email, "read");
    const byName = await owner.api.get(`/v1/orgs/${orgId}/members?search=HOPPER`);
    expect(byName.body.items.map((m: { id: string }) => m.id)).toEqual([grace.id]);
    const byEmail = await owner.api.get(`/v1/orgs/${orgId}/members?search=machines.test`);
    expect(byEmail.body.items.map((m: { id: string }) => m.id)).toEqual([alan.id]);
  });

  test("sorting by lastSeenAt lists only members who pinged, in the order asked", async () => {
    const { orgId, users } = await orgWith(["read", "read", "read"]);
    for (const u of [users[0], users[2]]) {
      // Two pings in one millisecond would tie; let the clock move on (no fixed sleep).
      const now = Date.now();
      while (Date.now() === now) await new Promise((resolve) => setImmediate(resolve));
      const ping = await u.api.post(`/v1/orgs/${orgId}/ping`);
      expect(ping.status).toBe(200);
      expectSchema("updateOrganizationMemberLastSeenAt", 200, ping.body);
    }
    const desc = await owner.api.get(`/v1/orgs/${orgId}/members?sort=lastSeenAt`);
    expect(desc.status).toBe(200);
    expect(desc.body.items.map((m: { id: string }) => m.id)).toEqual([users[2].id, users[0].id]);
    expect(desc.body.items[0].lastSeenAt).toEqual(expect.any(String));
    const asc = await owner.api.get(`/v1/orgs/${orgId}/members?sort=lastSeenAt&order=asc`);
    expect(asc.body.items.map((m: { id: string }) => m.id)).toEqual([users[0].id, users[2].id]);
  });

  test("joinedAt order defaults to newest first and pagination walks every member once", async () => {
    const { orgId, users } = await orgWith(["read", "read", "read", "read"]);
    const all = await walkPages(owner.api, `/v1/orgs/${orgId}/members`, 2);
    expect(all.map((m) => m.id).sort()).toEqual([owner.id, ...users.map((u) => u.id)].sort());
    const joined = all.map((m) => Date.parse(m.joinedAt));
    expect(joined).toEqual([...joined].sort((a, b) => b - a));
    expect(all[all.length - 1].id).toBe(owner.id);
    const asc = await walkPages(owner.api, `/v1/orgs/${orgId}/members?order=asc`, 3);
    expect(asc.map((m) => m.id).sort()).toEqual(all.map((m) => m.id).sort());
    expect(asc[0].id).toBe(owner.id);
    const ascJoined = asc.map((m) => Date.parse(m.joinedAt));
    expect(ascJoined).toEqual([...ascJoined].sort((a, b) => a - b));
  });

  test.each([
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["role=owner", "role"],
    ["sort=title", "sort"],
    ["order=up", "order"],
    ["a search of 513 characters", "search"],
  ])("listing members with %s is 400 naming %s", async (label, field) => {
    const query = label.startsWith("a search") ? `search=${"s".repeat(513)}` : label;
    const orgId = (await createOrg(owner.api)).id;
    const res = await owner.api.get(`/v1/orgs/${orgId}/members?${query}`);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("member endpoints need a token (401)", async () => {
    const { orgId } = await orgWith([]);
    const anon = owner.api.as(undefined);
    for (const res of [
      await anon.get(`/v1/orgs/${orgId}/members`),
      await anon.get(`/v1/orgs/${orgId}/members/${owner.id}`),
      await anon.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: "read" }),
      await anon.delete(`/v1/orgs/${orgId}/members/${owner.id}`),
      await anon.post(`/v1/orgs/${orgId}/ping`),
      await anon.post(`/v1/orgs/${orgId}/members/${owner.id}/sso`),
      await anon.get(`/v1/orgs/${orgId}/members/${owner.id}/teams`),
    ]) {
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });

  test("a non-member gets 404 and a guest 403 on the member list and a member", async () => {
    const { orgId, users } = await orgWith([null]);
    const outsider = await createUser(sys.admin);
    const [guest] = users;
    for (const [api, status] of [
      [outsider.api, 404],
      [guest.api, 403],
    ] as Array<[ApiClient, number]>) {
      const list = await api.get(`/v1/orgs/${orgId}/members`);
      expect(list.status).toBe(status);
      expectErrorBody(status, list.body);
      const one = await api.get(`/v1/orgs/${orgId}/members/${owner.id}`);
      expect(one.status).toBe(status);
    }
    const self = await guest.api.get(`/v1/orgs/${orgId}/members/${guest.id}`);
    expect(self.status).toBe(200);
    expectSchema("getMemberInOrganizationById", 200, self.body);
  });

  test("GET a member answers the member, and 404 for a user who is not one", async () => {
    const { orgId, users } = await orgWith(["comment"]);
    const res = await owner.api.get(`/v1/orgs/${orgId}/members/${users[0].id}`);
    expect(res.status).toBe(200);
    expectSchema("getMemberInOrganizationById", 200, res.body);
    expect(res.body).toMatchObject({ id: users[0].id, role: "comment", user: { email: users[0].email } });
    const missing = await owner.api.get(`/v1/orgs/${orgId}/members/nobody0000`);
    expect(missing.status).toBe(404);
    expectErrorBody(404, missing.body);
  });

  test("an admin changes a role, to a guest too, and it applies on the very next request", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const [member] = users;
    expect((await member.api.get(`/v1/orgs/${orgId}`)).body.permissions.admin).toBe(false);
    const res = await owner.api.patch(`/v1/orgs/${orgId}/members/${member.id}`, { role: "admin" });
    expect(res.status).toBe(200);
    expectSchema("updateMemberInOrganizationById", 200, res.body);
    expect(res.body.role).toBe("admin");
    expect((await member.api.get(`/v1/orgs/${orgId}`)).body.permissions.admin).toBe(true);
    const guest = await owner.api.patch(`/v1/orgs/${orgId}/members/${member.id}`, { role: null });
    expect(guest.status).toBe(200);
    expect(guest.body.role).toBeNull();
    expect((await member.api.get(`/v1/orgs/${orgId}/members`)).status).toBe(403);
  });

  test.each([[{}], [{ role: "owner" }], [{ role: 3 }]])("PATCH a member with %j is 400 naming role", async (body) => {
    const { orgId, users } = await orgWith(["read"]);
    const res = await owner.api.patch(`/v1/orgs/${orgId}/members/${users[0].id}`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain("role");
    expect((await owner.api.get(`/v1/orgs/${orgId}/members/${users[0].id}`)).body.role).toBe("read");
  });

  test("only an admin changes roles (403), and an unknown member is 404", async () => {
    const { orgId, users } = await orgWith(["create", "read"]);
    const denied = await users[0].api.patch(`/v1/orgs/${orgId}/members/${users[1].id}`, { role: "edit" });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
    const missing = await owner.api.patch(`/v1/orgs/${orgId}/members/nobody0000`, { role: "edit" });
    expect(missing.status).toBe(404);
  });

  test("the last admin can be neither demoted nor removed (409); with a second admin both work", async () => {
    const { orgId, users } = await orgWith(["edit"]);
    const demote = await owner.api.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: "edit" });
    expect(demote.status).toBe(409);
    expectErrorBody(409, demote.body);
    expect(demote.body.error.message).toContain("last administrator");
    const leave = await owner.api.delete(`/v1/orgs/${orgId}/members/${owner.id}`);
    expect(leave.status).toBe(409);
    expect((await owner.api.get(`/v1/orgs/${orgId}`)).status).toBe(200);
    expect((await owner.api.patch(`/v1/orgs/${orgId}/members/${users[0].id}`, { role: "admin" })).status).toBe(200);
    expect((await users[0].api.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: "edit" })).status).toBe(200);
    expect((await users[0].api.get(`/v1/orgs/${orgId}/members/${owner.id}`)).body.role).toBe("edit");
  });

  test("removing a member is 204, takes effect at once, and removing a missing member is 204", async () => {
    const { orgId, users } = await orgWith(["edit", "read"]);
    expect((await users[0].api.get(`/v1/orgs/${orgId}`)).status).toBe(200);
    const res = await owner.api.delete(`/v1/orgs/${orgId}/members/${users[0].id}`);
    expect(res.status).toBe(204);
    expect((await users[0].api.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/members/${users[0].id}`)).status).toBe(204);
    const denied = await users[1].api.delete(`/v1/orgs/${orgId}/members/${owner.id}`);
    expect(denied.status).toBe(403);
    expect((await users[1].api.delete(`/v1/orgs/${orgId}/members/${users[1].id}`)).status).toBe(204);
    expect((await users[1].api.get(`/v1/orgs/${orgId}`)).status).toBe(404);
  });

  test("ping records lastSeenAt; a non-member gets 404", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const before = await owner.api.get(`/v1/orgs/${orgId}/members/${users[0].id}`);
    expect(before.body.lastSeenAt).toBeUndefined();
    const ping = await users[0].api.post(`/v1/orgs/${orgId}/ping`);
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({});
    const after = await owner.api.get(`/v1/orgs/${orgId}/members/${users[0].id}`);
    expect(Date.parse(after.body.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    const outsider = await createUser(sys.admin);
    const hidden = await outsider.api.post(`/v1/orgs/${orgId}/ping`);
    expect(hidden.status).toBe(404);
    expectErrorBody(404, hidden.body);
  });

  test("ping attaches serviceVisitorClaims to the member and answers them on later pings; a malformed one is 400", async () => {
    const { orgId, users } = await orgWith(["read", "read"]);
    const claims = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from('{"beta":true}').toString("base64url")}.c2ln`;
    const attached = await users[0].api.post(`/v1/orgs/${orgId}/ping`, { serviceVisitorClaims: claims });
    expect(attached.status).toBe(200);
    expectSchema("updateOrganizationMemberLastSeenAt", 200, attached.body);
    expect(attached.body).toEqual({ serviceVisitorClaims: claims });
    expect((await users[0].api.post(`/v1/orgs/${orgId}/ping`)).body).toEqual({ serviceVisitorClaims: claims });
    // Claims belong to one member.
    expect((await users[1].api.post(`/v1/orgs/${orgId}/ping`)).body).toEqual({});
    for (const bad of ["not a jwt", "a.b", 42, `${"a".repeat(8192)}.b.c`, { $gt: "" }]) {
      const res = await users[0].api.post(`/v1/orgs/${orgId}/ping`, { serviceVisitorClaims: bad });
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("serviceVisitorClaims");
    }
    expect((await users[0].api.post(`/v1/orgs/${orgId}/ping`)).body).toEqual({ serviceVisitorClaims: claims });
  });

  test("SSO: an admin marks a member as SSO; a user who is no member and never came through its SSO is unknown (404)", async () => {
    const { orgId, users } = await orgWith(["edit"]);
    const marked = await owner.api.post(`/v1/orgs/${orgId}/members/${users[0].id}/sso`);
    expect(marked.status).toBe(200);
    expectSchema("setUserAsSSOMemberForOrganization", 200, marked.body);
    expect(marked.body).toMatchObject({ id: users[0].id, sso: true, role: "edit" });
    const newcomer = await createUser(sys.admin);
    const added = await owner.api.post(`/v1/orgs/${orgId}/members/${newcomer.id}/sso`);
    expect(added.status).toBe(404);
    expectErrorBody(404, added.body);
    expect((await newcomer.api.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    const unknown = await owner.api.post(`/v1/orgs/${orgId}/members/nobody0000/sso`);
    expect(unknown.status).toBe(404);
    const denied = await users[0].api.post(`/v1/orgs/${orgId}/members/${users[0].id}/sso`);
    expect(denied.status).toBe(403);
  });

  test("a member's teams list each team with the member's team role, filtered by title", async () => {
    const { orgId, users } = await orgWith(["read"]);
    const [member] = users;
    const writers = await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Writers", members: [member.id] });
    const editors = await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Editors" });
    expect(writers.status).toBe(201);
    expect((await owner.api.put(`/v1/orgs/${orgId}/teams/${editors.body.id}/members/${member.id}`, { role: "owner" })).status).toBe(204);
    const res = await member.api.get(`/v1/orgs/${orgId}/members/${member.id}/teams`);
    expect(res.status).toBe(200);
    expectSchema("listTeamsForOrganizationMember", 200, res.body);
    const roles = Object.fromEntries(res.body.items.map((i: { team: { title: string }; member: { role: string } }) => [i.team.title, i.member.role]));
    expect(roles).toEqual({ Writers: "member", Editors: "owner" });
    const filtered = await owner.api.get(`/v1/orgs/${orgId}/members/${member.id}/teams?title=wRiT`);
    expect(filtered.body.items.map((i: { team: { title: string } }) => i.team.title)).toEqual(["Writers"]);
    const counted = await owner.api.get(`/v1/orgs/${orgId}/members/${member.id}`);
    expect(counted.body.teams).toBe(2);
    expect((await owner.api.get(`/v1/orgs/${orgId}/members/${member.id}/teams?limit=1001`)).status).toBe(400);
  });
});
