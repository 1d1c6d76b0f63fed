// Administration operations from GitBook's current API through HTTP, in every process mode: invite links,
// team members and users.
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("administration over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrg: string;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, member, guest, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    otherOrg = (await createOrg(outsider.api)).id;
    await addMember(owner.api, orgId, member.email, "create");
    await addMember(owner.api, orgId, guest.email, null);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("invite links", () => {
    test("admins list and read the links, newest first, and can revoke one found that way", async () => {
      const made: string[] = [];
      for (const role of ["read", "edit", "comment"]) {
        const res = await owner.api.post(`/v1/orgs/${orgId}/link-invites`, { role });
        expect(res.status).toBe(201);
        made.push(res.body.id);
      }
      const list = await owner.api.get(`/v1/orgs/${orgId}/link-invites`);
      expect(list.status).toBe(200);
      expectSchema("listOrganizationInviteLinks", 200, list.body);
      expect(list.body.items.map((l: any) => l.id)).toEqual([...made].reverse());
      expect(list.body.items.map((l: any) => l.role)).toEqual(["comment", "edit", "read"]);
      const paged = await owner.api.get(`/v1/orgs/${orgId}/link-invites?limit=2`);
      expect(paged.body.items).toHaveLength(2);
      const rest = await owner.api.get(`/v1/orgs/${orgId}/link-invites?limit=2&page=${encodeURIComponent(paged.body.next.page)}`);
      expect(rest.body.items.map((l: any) => l.id)).toEqual([made[0]]);

      const one = await owner.api.get(`/v1/orgs/${orgId}/link-invites/${made[1]}`);
      expect(one.status).toBe(200);
      expectSchema("getOrganizationInviteLink", 200, one.body);
      expect(one.body).toEqual({ object: "invite", id: made[1], role: "edit", redundant: false });

      // A link found through the list is revoked: it no longer lets anyone join.
      expect((await owner.api.delete(`/v1/orgs/${orgId}/link-invites/${made[1]}`)).status).toBe(204);
      expect((await owner.api.get(`/v1/orgs/${orgId}/link-invites/${made[1]}`)).status).toBe(404);
      const joiner = await createUser(sys.admin);
      expect((await joiner.api.post(`/v1/orgs/${orgId}/invites/${made[1]}`)).status).toBe(404);
      expect((await owner.api.get(`/v1/orgs/${orgId}/link-invites`)).body.count).toBe(2);
    });

    test("members below admin 403, other organizations 404, unknown ids 404, bad input 400", async () => {
      const link = (await owner.api.post(`/v1/orgs/${orgId}/link-invites`, { role: "read" })).body;
      for (const path of [`/v1/orgs/${orgId}/link-invites`, `/v1/orgs/${orgId}/link-invites/${link.id}`]) {
        for (const as of [member, guest]) {
          const res = await as.api.get(path);
          expect(res.status).toBe(403);
          expectErrorBody(403, res.body);
        }
        const other = await outsider.api.get(path);
        expect(other.status).toBe(404);
        expectErrorBody(404, other.body);
        expect((await sys.admin.as(undefined).get(path)).status).toBe(401);
      }
      // Another organization's link is not found through this one.
      const foreign = (await outsider.api.post(`/v1/orgs/${otherOrg}/link-invites`, { role: "read" })).body;
      expect((await owner.api.get(`/v1/orgs/${orgId}/link-invites/${foreign.id}`)).status).toBe(404);
      expect((await owner.api.get(`/v1/orgs/${orgId}/link-invites`)).body.items.map((l: any) => l.id)).not.toContain(foreign.id);
      const bad = await owner.api.get(`/v1/orgs/${orgId}/link-invites?limit=0`);
      expect(bad.status).toBe(400);
      expectErrorBody(400, bad.body);
      expect(bad.body.error.message).toContain("limit");
      const badPage = await owner.api.get(`/v1/orgs/${orgId}/link-invites?page=nonsense`);
      expect(badPage.status).toBe(400);
      expect(badPage.body.error.message).toContain("page");
    });

    test("admins change a link's role with `role` or `level` (null: guests); joins from then on get it, earlier joiners keep theirs", async () => {
      const link = (await owner.api.post(`/v1/orgs/${orgId}/link-invites`, { role: "read" })).body;
      const path = `/v1/orgs/${orgId}/link-invites/${link.id}`;
      const joinAs = async (): Promise<TestUser> => {
        const user = await createUser(sys.admin);
        expect((await user.api.post(`/v1/orgs/${orgId}/invites/${link.id}`, {})).status).toBe(200);
        return user;
      };
      const roleOf = async (user: TestUser) => (await owner.api.get(`/v1/orgs/${orgId}/members/${user.id}`)).body.role;
      const early = await joinAs();

      const changed = await owner.api.patch(path, { role: "edit" });
      expect(changed.status).toBe(200);
      expectSchema("updateOrganizationInviteById", 200, changed.body);
      expect(changed.body).toEqual({ object: "invite", id: link.id, role: "edit", redundant: false });
      expect((await owner.api.get(path)).body.role).toBe("edit");
      expect((await owner.api.get(`/v1/orgs/${orgId}/link-invites`)).body.items.find((l: any) => l.id === link.id).role).toBe("edit");
      expect(await roleOf(await joinAs())).toBe("edit");
      expect(await roleOf(early)).toBe("read");
      // The same role again is the same answer.
      expect((await owner.api.patch(path, { role: "edit" })).body).toEqual(changed.body);

      // `level`, GitBook's name for content links, sets the role of an organization link.
      const leveled = await owner.api.patch(path, { level: "review" });
      expect(leveled.status).toBe(200);
      expectSchema("updateOrganizationInviteById", 200, leveled.body);
      expect(leveled.body.role).toBe("review");
      expect(await roleOf(await joinAs())).toBe("review");

      // null (MemberRoleOrGuest) makes it a link for guests.
      for (const body of [{ role: null }, { level: null }]) {
        const guests = await owner.api.patch(path, body);
        expect(guests.status).toBe(200);
        expectSchema("updateOrganizationInviteById", 200, guests.body);
        expect(guests.body).toEqual({ object: "invite", id: link.id, role: null, redundant: false });
      }
      expect(await roleOf(await joinAs())).toBeNull();

      // An admin may give every role, admin included, as when creating a link.
      expect((await owner.api.patch(path, { role: "admin" })).body.role).toBe("admin");
      expect(await roleOf(await joinAs())).toBe("admin");

      // With invite links off the link can still be changed (only creating one is refused), and stays unusable.
      expect((await owner.api.patch(`/v1/orgs/${orgId}`, { inviteLinks: false })).status).toBe(200);
      try {
        const off = await owner.api.patch(path, { role: "comment" });
        expect(off.status).toBe(200);
        expect(off.body.role).toBe("comment");
        const late = await createUser(sys.admin);
        expect((await late.api.post(`/v1/orgs/${orgId}/invites/${link.id}`, {})).status).toBe(404);
      } finally {
        expect((await owner.api.patch(`/v1/orgs/${orgId}`, { inviteLinks: true })).status).toBe(200);
      }
      expect(await roleOf(await joinAs())).toBe("comment");

      // A deleted link is gone for updates too.
      expect((await owner.api.delete(path)).status).toBe(204);
      const gone = await owner.api.patch(path, { role: "read" });
      expect(gone.status).toBe(404);
      expectErrorBody(404, gone.body);
    });

    test("changing a link: members below admin 403, other organizations 404, no or a bad token 401, bad input 400 naming the field, none of them changing it", async () => {
      const link = (await owner.api.post(`/v1/orgs/${orgId}/link-invites`, { role: "read" })).body;
      const path = `/v1/orgs/${orgId}/link-invites/${link.id}`;
      for (const as of [member, guest]) {
        const res = await as.api.patch(path, { role: "admin" });
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      // An administrator of another organization does not see this one.
      const other = await outsider.api.patch(path, { role: "admin" });
      expect(other.status).toBe(404);
      expectErrorBody(404, other.body);
      for (const client of [sys.admin.as(undefined), sys.admin.as("not-a-token")]) {
        const res = await client.patch(path, { role: "admin" });
        expect(res.status).toBe(401);
        expectErrorBody(401, res.body);
      }
      // Another organization's link, or none, is not found through this one; the foreign link keeps its role.
      const foreign = (await outsider.api.post(`/v1/orgs/${otherOrg}/link-invites`, { role: "read" })).body;
      for (const id of [foreign.id, "nolink0000000000"]) {
        const res = await owner.api.patch(`/v1/orgs/${orgId}/link-invites/${id}`, { role: "admin" });
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      expect((await outsider.api.get(`/v1/orgs/${otherOrg}/link-invites/${foreign.id}`)).body.role).toBe("read");

      for (const [body, fields] of [
        [{}, ["role"]],
        [{ role: "boss" }, ["role"]],
        [{ level: "boss" }, ["level"]],
        [{ role: 5 }, ["role"]],
        [{ role: { $gt: "" } }, ["role"]],
        [{ role: "edit", level: "edit" }, ["role", "level"]],
        [{ role: null, level: "edit" }, ["role", "level"]],
      ] as Array<[Record<string, unknown>, string[]]>) {
        const res = await owner.api.patch(path, body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
        expectErrorBody(400, res.body);
        for (const field of fields) expect(res.body.error.message).toContain(`'${field}'`);
      }
      expect((await owner.api.get(path)).body.role).toBe("read");
      await owner.api.delete(path);
    });
  });

  describe("team members", () => {
    let teamId: string;
    let third: TestUser;
    beforeAll(async () => {
      third = await createUser(sys.admin);
      await addMember(owner.api, orgId, third.email, "read");
      const team = await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: `Writers ${mode}`, members: [member.id] });
      expect(team.status).toBe(201);
      teamId = team.body.id;
    });
    const path = () => `/v1/orgs/${orgId}/teams/${teamId}/members`;

    test("members with a role list a team's members; admins and owners add, re-role and remove them in one request", async () => {
      const list = await third.api.get(path());
      expect(list.status).toBe(200);
      expectSchema("listTeamMembersInOrganizationById", 200, list.body);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0]).toMatchObject({ organization: { id: member.id, role: "create", user: { id: member.id } }, team: { role: "member" }, permissions: { view: true } });

      // By email and by id; the added user becomes an owner through `memberships`.
      const updated = await owner.api.put(path(), { add: [third.email.toUpperCase()], memberships: { [third.email.toUpperCase()]: { role: "owner" } } });
      expect(updated.status).toBe(204);
      expectSchema("updateMembersInOrganizationTeam", 204, updated.body);
      const after = await third.api.get(path());
      expect(after.body.items.map((m: any) => [m.organization.id, m.team.role])).toEqual([
        [member.id, "member"],
        [third.id, "owner"],
      ]);
      // The new owner manages the team: removes the member.
      expect((await third.api.put(path(), { remove: [member.id] })).status).toBe(204);
      expect((await third.api.get(path())).body.items.map((m: any) => m.organization.id)).toEqual([third.id]);
      expect((await owner.api.get(`/v1/orgs/${orgId}/members/${member.id}/teams`)).body.items).toEqual([]);
      // Paged.
      expect((await owner.api.put(path(), { add: [member.id, owner.id] })).status).toBe(204);
      const page = await owner.api.get(`${path()}?limit=2`);
      expect(page.body.items).toHaveLength(2);
      expect((await owner.api.get(`${path()}?limit=2&page=${encodeURIComponent(page.body.next.page)}`)).body.items).toHaveLength(1);
      expect((await owner.api.put(path(), { remove: [member.id, owner.id] })).status).toBe(204);
    });

    test("guests 403 listing, non-owners 403 changing, other organizations 404, bad input 400 naming the field and changing nothing", async () => {
      const asGuest = await guest.api.get(path());
      expect(asGuest.status).toBe(403);
      expectErrorBody(403, asGuest.body);
      const byMember = await member.api.put(path(), { add: [member.id] });
      expect(byMember.status).toBe(403);
      expectErrorBody(403, byMember.body);
      for (const res of [await outsider.api.get(path()), await outsider.api.put(path(), { add: [outsider.id] })]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      expect((await owner.api.get(`/v1/orgs/${orgId}/teams/noteam0000000000/members`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get(path())).status).toBe(401);
      const before = (await owner.api.get(path())).body.items;
      for (const [body, field] of [
        [{ add: [outsider.id] }, "add"],
        [{ add: [member.id], remove: ["nobody@example.com"] }, "remove"],
        [{ add: "x" }, "add"],
        [{ memberships: { [member.id]: { role: "owner" } } }, "memberships"],
        [{ add: [member.id], memberships: { [member.id]: { role: "boss" } } }, "role"],
      ] as const) {
        const res = await owner.api.put(path(), body);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await owner.api.get(path())).body.items).toEqual(before);
    });
  });

  describe("users", () => {
    /** The members a search finds, asked again for up to 2 s until some are found. */
    async function searchFinds(text: string): Promise<string[]> {
      for (let i = 0; ; i++) {
        const ids = (await owner.api.get(`/v1/orgs/${orgId}/members?search=${text}`)).body.items.map((m: any) => m.id);
        if (ids.length || i >= 40) return ids;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    test("a user renames themself and sets a photo; an instance admin changes a user's email; members search the new name at once", async () => {
      const user = await createUser(sys.admin);
      await addMember(owner.api, orgId, user.email, "read");
      const renamed = await user.api.patch(`/v1/users/${user.id}`, { displayName: "Grace Hopper", photoURL: "https://example.com/grace.png" });
      expect(renamed.status).toBe(200);
      expectSchema("updateUserById", 200, renamed.body);
      expect(renamed.body).toMatchObject({ object: "user", id: user.id, displayName: "Grace Hopper", email: user.email, photoURL: "https://example.com/grace.png" });
      expect((await owner.api.get(`/v1/users/${user.id}`)).body.displayName).toBe("Grace Hopper");
      // The member search follows on identity's broadcast (another process when scaled out).
      expect(await searchFinds("hopper")).toEqual([user.id]);
      expect((await user.api.patch(`/v1/users/${user.id}`, { photoURL: null })).body.photoURL).toBeUndefined();

      const email = `moved-${Date.now()}-${mode}@example.com`;
      const moved = await sys.admin.patch(`/v1/users/${user.id}`, { email: email.toUpperCase() });
      expect(moved.status).toBe(200);
      expectSchema("updateUserById", 200, moved.body);
      expect(moved.body.email).toBe(email);
      expect((await user.api.get("/v1/user")).body.email).toBe(email);
      expect(await searchFinds("moved-")).toEqual([user.id]);
    });

    test("only the user or an instance admin changes a user; email only an instance admin; bad input names the field", async () => {
      const user = await createUser(sys.admin);
      const byOther = await member.api.patch(`/v1/users/${user.id}`, { displayName: "Mallory" });
      expect(byOther.status).toBe(403);
      expectErrorBody(403, byOther.body);
      const ownEmail = await user.api.patch(`/v1/users/${user.id}`, { email: "elsewhere@example.com" });
      expect(ownEmail.status).toBe(403);
      expect(ownEmail.body.error.message).toContain("email");
      const missing = await sys.admin.patch(`/v1/users/nosuchuser000000`, { displayName: "X" });
      expect(missing.status).toBe(404);
      expectErrorBody(404, missing.body);
      expect((await sys.admin.as(undefined).patch(`/v1/users/${user.id}`, { displayName: "X" })).status).toBe(401);
      const taken = await sys.admin.patch(`/v1/users/${user.id}`, { email: member.email });
      expect(taken.status).toBe(409);
      expectErrorBody(409, taken.body);
      for (const [body, field] of [
        [{}, "displayName"],
        [{ displayName: "" }, "displayName"],
        [{ displayName: "x".repeat(65) }, "displayName"],
        [{ photoURL: "not a url" }, "photoURL"],
        [{ email: "nope" }, "email"],
      ] as const) {
        const res = await user.api.patch(`/v1/users/${user.id}`, body);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await user.api.get("/v1/user")).body).toMatchObject({ displayName: "Test User", email: user.email });
    });
  });
});
