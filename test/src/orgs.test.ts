// Organizations through HTTP, in every process mode.
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("organizations over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("creating an organization makes the caller its admin (201)", async () => {
    const res = await owner.api.post("/v1/orgs", { title: "Acme Docs", emailDomains: ["acme.test"] });
    expect(res.status).toBe(201);
    expectSchema("createOrganization", 201, res.body);
    expectSchema("getOrganizationById", 200, res.body);
    expect(res.body).toMatchObject({ object: "organization", title: "Acme Docs", emailDomains: ["acme.test"] });
    expect(res.body.permissions.admin).toBe(true);
  });

  test.each([
    [{}, "title"],
    [{ title: "A" }, "title"],
    [{ title: "x".repeat(256) }, "title"],
    [{ title: 42 }, "title"],
    [{ title: "Fine", emailDomains: ["not a domain"] }, "emailDomains"],
  ])("creating an organization with %j is 400 naming %s", async (body, field) => {
    const res = await owner.api.post("/v1/orgs", body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("GET /v1/orgs lists only the caller's organizations", async () => {
    const mine = await createOrg(owner.api);
    const stranger = await createUser(sys.admin);
    const theirs = await createOrg(stranger.api);
    const res = await owner.api.get("/v1/orgs?limit=1000");
    expect(res.status).toBe(200);
    expectSchema("listOrganizationsForAuthenticatedUser", 200, res.body);
    const ids = res.body.items.map((o: { id: string }) => o.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.body.count).toBe(ids.length);
  });

  test("an organization is 404 to a non-member and 200 to a member", async () => {
    const org = await createOrg(owner.api);
    const reader = await createUser(sys.admin);
    expect((await reader.api.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    await addMember(owner.api, org.id, reader.email, "read");
    const res = await reader.api.get(`/v1/orgs/${org.id}`);
    expect(res.status).toBe(200);
    expectSchema("getOrganizationById", 200, res.body);
    expect(res.body.permissions).toMatchObject({ view: true, admin: false, createContent: false });
  });

  test("PATCH sets every field the interface lists", async () => {
    const org = await createOrg(owner.api);
    const hostname = `h${Date.now().toString(36)}`.slice(0, 20);
    const res = await owner.api.patch(`/v1/orgs/${org.id}`, {
      title: "Renamed",
      emailDomains: ["docs.example.com"],
      hostname,
      defaultRole: "edit",
      defaultContent: { type: "site", site: "site123" },
      logo: "https://example.com/logo.png",
      sso: false,
      ai: true,
      inviteLinks: false,
    });
    expect(res.status).toBe(200);
    expectSchema("updateOrganizationById", 200, res.body);
    expect(res.body).toMatchObject({
      title: "Renamed",
      emailDomains: ["docs.example.com"],
      hostname,
      defaultRole: "edit",
      defaultContent: { type: "site", site: "site123" },
      ai: true,
      inviteLinks: false,
      urls: { logo: "https://example.com/logo.png" },
    });
    const cleared = await owner.api.patch(`/v1/orgs/${org.id}`, { defaultContent: null, logo: null, defaultRole: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.defaultContent).toBeUndefined();
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultRole).toBeNull();
    expect((await owner.api.get(`/v1/orgs/${org.id}`)).body.title).toBe("Renamed");
  });

  test.each([
    [{ title: "A" }, "title"],
    [{ title: "x".repeat(256) }, "title"],
    [{ hostname: "ab" }, "hostname"],
    [{ hostname: "x".repeat(33) }, "hostname"],
    [{ hostname: "Has Spaces" }, "hostname"],
    [{ defaultRole: "owner" }, "defaultRole"],
    [{ defaultContent: { type: "space", site: "x" } }, "defaultContent"],
    [{ logo: `https://example.com/${"l".repeat(2040)}` }, "logo"],
    [{ logo: "not a url" }, "logo"],
    [{ sso: "yes" }, "sso"],
    [{ inviteLinks: 1 }, "inviteLinks"],
    [{ emailDomains: "example.com" }, "emailDomains"],
  ])("PATCH with %j is 400 naming %s and changes nothing", async (body, field) => {
    const org = await createOrg(owner.api, "Unchanged");
    const res = await owner.api.patch(`/v1/orgs/${org.id}`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
    expect((await owner.api.get(`/v1/orgs/${org.id}`)).body.title).toBe("Unchanged");
  });

  test("a hostname is unique across the instance (409)", async () => {
    const a = await createOrg(owner.api);
    const b = await createOrg(owner.api);
    const hostname = `u${Date.now().toString(36)}`;
    expect((await owner.api.patch(`/v1/orgs/${a.id}`, { hostname })).status).toBe(200);
    const clash = await owner.api.patch(`/v1/orgs/${b.id}`, { hostname });
    expect(clash.status).toBe(409);
    expectErrorBody(409, clash.body);
  });

  test("PATCH is 403 for a member who is not admin and 404 for a non-member", async () => {
    const org = await createOrg(owner.api);
    const editor = await createUser(sys.admin);
    const outsider = await createUser(sys.admin);
    await addMember(owner.api, org.id, editor.email, "create");
    const denied = await editor.api.patch(`/v1/orgs/${org.id}`, { title: "Mine now" });
    expect(denied.status).toBe(403);
    expectErrorBody(403, denied.body);
    const hidden = await outsider.api.patch(`/v1/orgs/${org.id}`, { title: "Mine now" });
    expect(hidden.status).toBe(404);
    expectErrorBody(404, hidden.body);
  });

  test("an invitation for an email without a user becomes a membership when that user is created", async () => {
    const org = await createOrg(owner.api);
    const email = `later-${Date.now()}@example.com`;
    const invite = await owner.api.post(`/v1/orgs/${org.id}/invites`, { emails: [email], role: "comment" });
    expect(invite.status).toBe(200);
    expectSchema("inviteUsersToOrganization", 200, invite.body);
    const user = await createUser(sys.admin, { email });
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await user.api.get(`/v1/orgs/${org.id}`)).status;
    }
    expect(status).toBe(200);
  });

  test("pagination walks every organization exactly once", async () => {
    const walker = await createUser(sys.admin);
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await createOrg(walker.api)).id);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await walker.api.get(`/v1/orgs?limit=2${page ? `&page=${page}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((o: { id: string }) => o.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen.sort()).toEqual([...created].sort());
  });
  test("invitations take GitBook's per-email roles, the default role, and the sso flag, applied when the invitee accepts", async () => {
    const org = await createOrg(owner.api);
    const a = await createUser(sys.admin);
    const b = await createUser(sys.admin);
    const res = await owner.api.post(`/v1/orgs/${org.id}/invites`, { emails: [a.email, { email: b.email, role: "edit" }], role: "comment", sso: true });
    expect(res.status).toBe(200);
    expectSchema("inviteUsersToOrganization", 200, res.body);
    // Nobody joins before accepting (tenancy-invites.test.ts covers consent and what the answer does not tell).
    expect(res.body).toEqual({ users: [], invited: 2 });
    for (const user of [a, b]) {
      const mine = await user.api.get("/v1/user/invites");
      const invite = mine.body.items.find((i: { organization: { id: string } }) => i.organization.id === org.id);
      expect((await user.api.post(`/v1/orgs/${org.id}/invites/${invite.id}`, {})).status).toBe(200);
    }
    const members = await owner.api.get(`/v1/orgs/${org.id}/members?limit=10`);
    const byId = Object.fromEntries(members.body.items.map((m: { id: string; role: string; sso: boolean }) => [m.id, [m.role, m.sso]]));
    expect(byId[a.id]).toEqual(["comment", true]);
    expect(byId[b.id]).toEqual(["edit", true]);
  });

  test("inviting the organization's own administrator changes nobody's role (an invitation never changes a membership)", async () => {
    const org = await createOrg(owner.api);
    const newcomer = await createUser(sys.admin);
    const res = await owner.api.post(`/v1/orgs/${org.id}/invites`, { emails: [newcomer.email, owner.email], role: "read" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: [], invited: 2 });
    const mine = await owner.api.get("/v1/user/invites");
    const invite = mine.body.items.find((i: { organization: { id: string } }) => i.organization.id === org.id);
    expect((await owner.api.post(`/v1/orgs/${org.id}/invites/${invite.id}`, {})).status).toBe(200);
    expect((await owner.api.get(`/v1/orgs/${org.id}/members/${owner.id}`)).body.role).toBe("admin");
    expect((await newcomer.api.get(`/v1/orgs/${org.id}`)).status).toBe(404);
  });

  test("an invitation without a role gives the organization's defaultRole", async () => {
    const org = await createOrg(owner.api);
    expect((await owner.api.patch(`/v1/orgs/${org.id}`, { defaultRole: "review" })).status).toBe(200);
    const later = await createUser(sys.admin);
    expect((await owner.api.post(`/v1/orgs/${org.id}/invites`, { emails: [later.email] })).status).toBe(200);
    const invite = (await later.api.get("/v1/user/invites")).body.items.find((i: { organization: { id: string } }) => i.organization.id === org.id);
    expect(invite.role).toBe("review");
    expect((await later.api.post(`/v1/orgs/${org.id}/invites/${invite.id}`, {})).status).toBe(200);
    expect((await owner.api.get(`/v1/orgs/${org.id}/members/${later.id}`)).body.role).toBe("review");
  });

  test.each([
    [{}, "emails"],
    [{ emails: [] }, "emails"],
    [{ emails: ["not-an-email"] }, "emails"],
    [{ emails: [{ email: "x@example.com", role: "boss" }] }, "emails"],
    [{ emails: ["x@example.com"], role: "boss" }, "role"],
    [{ emails: ["x@example.com"], sso: "yes" }, "sso"],
  ])("inviting with %j is 400 naming %s", async (body, field) => {
    const org = await createOrg(owner.api);
    const res = await owner.api.post(`/v1/orgs/${org.id}/invites`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("link invites: an admin creates one (201) and deletes it (204, also when missing)", async () => {
    const org = await createOrg(owner.api);
    const res = await owner.api.post(`/v1/orgs/${org.id}/link-invites`, { role: "read" });
    expect(res.status).toBe(201);
    expectSchema("createOrganizationInvite", 201, res.body);
    expect(res.body).toMatchObject({ object: "invite", role: "read", redundant: false });
    const del = await owner.api.delete(`/v1/orgs/${org.id}/link-invites/${res.body.id}`);
    expect(del.status).toBe(204);
    expect((await owner.api.delete(`/v1/orgs/${org.id}/link-invites/${res.body.id}`)).status).toBe(204);
  });

  test("joining through a link invite: the holder becomes a member with its role; members keep theirs; gone or switched off is 404", async () => {
    const org = await createOrg(owner.api);
    const link = (await owner.api.post(`/v1/orgs/${org.id}/link-invites`, { role: "comment" })).body;
    const newcomer = await createUser(sys.admin);
    expect((await newcomer.api.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    const joined = await newcomer.api.post(`/v1/orgs/${org.id}/invites/${link.id}`, {});
    expect(joined.status).toBe(200);
    expectSchema("joinOrganizationWithInvite", 200, joined.body);
    expect((await owner.api.get(`/v1/orgs/${org.id}/members/${newcomer.id}`)).body.role).toBe("comment");
    // Joining again, or as the admin who made it, changes no role.
    expect((await owner.api.post(`/v1/orgs/${org.id}/invites/${link.id}`, {})).status).toBe(200);
    expect((await owner.api.get(`/v1/orgs/${org.id}/members/${owner.id}`)).body.role).toBe("admin");

    const anon = owner.api.as(undefined);
    const noToken = await anon.post(`/v1/orgs/${org.id}/invites/${link.id}`, {});
    expect(noToken.status).toBe(401);
    expectErrorBody(401, noToken.body);
    const late = await createUser(sys.admin);
    const other = await createOrg(owner.api);
    for (const path of [`/v1/orgs/${other.id}/invites/${link.id}`, `/v1/orgs/${org.id}/invites/nope`, `/v1/orgs/${org.id}/invites/%7B%24gt%7D`]) {
      const res = await late.api.post(path, {});
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    await owner.api.patch(`/v1/orgs/${org.id}`, { inviteLinks: false });
    expect((await late.api.post(`/v1/orgs/${org.id}/invites/${link.id}`, {})).status).toBe(404);
    await owner.api.patch(`/v1/orgs/${org.id}`, { inviteLinks: true });
    await owner.api.delete(`/v1/orgs/${org.id}/link-invites/${link.id}`);
    expect((await late.api.post(`/v1/orgs/${org.id}/invites/${link.id}`, {})).status).toBe(404);
    expect((await late.api.get(`/v1/orgs/${org.id}`)).status).toBe(404);
  });

  test("link invites: bad input is 400, non-admins 403, outsiders 404, no token 401, turned off 403", async () => {
    const org = await createOrg(owner.api);
    for (const [body, field] of [
      [{}, "role"],
      [{ role: "boss" }, "role"],
      [{ level: "read", space: "s1" }, "space"],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await owner.api.post(`/v1/orgs/${org.id}/link-invites`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const editor = await createUser(sys.admin);
    await addMember(owner.api, org.id, editor.email, "edit");
    expect((await editor.api.post(`/v1/orgs/${org.id}/link-invites`, { role: "read" })).status).toBe(403);
    expect((await editor.api.delete(`/v1/orgs/${org.id}/link-invites/any`)).status).toBe(403);
    const outsider = await createUser(sys.admin);
    expect((await outsider.api.post(`/v1/orgs/${org.id}/link-invites`, { role: "read" })).status).toBe(404);
    expect((await outsider.api.delete(`/v1/orgs/${org.id}/link-invites/any`)).status).toBe(404);
    const anon = owner.api.as(undefined);
    expect((await anon.post(`/v1/orgs/${org.id}/link-invites`, { role: "read" })).status).toBe(401);
    expect((await anon.delete(`/v1/orgs/${org.id}/link-invites/any`)).status).toBe(401);
    await owner.api.patch(`/v1/orgs/${org.id}`, { inviteLinks: false });
    const off = await owner.api.post(`/v1/orgs/${org.id}/link-invites`, { role: "read" });
    expect(off.status).toBe(403);
    expect(off.body.error.message).toContain("inviteLinks");
  });

  test("email domains: a user of that domain and members see the organization declaring it that verified it", async () => {
    const domain = `d${Date.now().toString(36)}.example.org`;
    const org = await createOrg(owner.api);
    expect((await owner.api.patch(`/v1/orgs/${org.id}`, { emailDomains: [domain] })).status).toBe(200);
    // Listed only once verified (here: approved by the instance administrator); tenancy-invites covers the rest.
    expect((await owner.api.get(`/v1/email-domains/${domain}/orgs`)).body).toEqual({ organizations: [] });
    expect((await owner.api.post(`/v1/orgs/${org.id}/domains`, { domain })).status).toBe(201);
    expect((await sys.admin.post(`/v1/orgs/${org.id}/domains/${domain}/approve`, {})).status).toBe(200);
    const colleague = await createUser(sys.admin, { email: `someone@${domain}` });
    const res = await colleague.api.get(`/v1/email-domains/${domain}/orgs`);
    expect(res.status).toBe(200);
    expectSchema("getOrganizationsForEmailDomain", 200, res.body);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
    expect(res.body.organizations[0].permissions.view).toBe(false);
    const mine = await owner.api.get(`/v1/email-domains/${domain.toUpperCase()}/orgs`);
    expect(mine.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
    const stranger = await createUser(sys.admin);
    expect((await stranger.api.get(`/v1/email-domains/${domain}/orgs`)).body).toEqual({ organizations: [] });
    const bad = await owner.api.get(`/v1/email-domains/not_a_domain/orgs`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("emailDomain");
    expect((await owner.api.as(undefined).get(`/v1/email-domains/${domain}/orgs`)).status).toBe(401);
  });

  test("role matrix on the organization: what each role, a guest and an outsider may do", async () => {
    const org = await createOrg(owner.api);
    const outsider = await createUser(sys.admin);
    type Row = { get: number; patch: number; members: number; teams: number; invite: number; createCollection: number; createSpace: number };
    const rows: Array<[string | null | "outsider", Row]> = [
      ["create", { get: 200, patch: 403, members: 200, teams: 200, invite: 403, createCollection: 201, createSpace: 201 }],
      ["review", { get: 200, patch: 403, members: 200, teams: 200, invite: 403, createCollection: 403, createSpace: 403 }],
      ["edit", { get: 200, patch: 403, members: 200, teams: 200, invite: 403, createCollection: 403, createSpace: 403 }],
      ["comment", { get: 200, patch: 403, members: 200, teams: 200, invite: 403, createCollection: 403, createSpace: 403 }],
      ["read", { get: 200, patch: 403, members: 200, teams: 200, invite: 403, createCollection: 403, createSpace: 403 }],
      [null, { get: 200, patch: 403, members: 403, teams: 403, invite: 403, createCollection: 403, createSpace: 403 }],
      ["outsider", { get: 404, patch: 404, members: 404, teams: 404, invite: 404, createCollection: 404, createSpace: 404 }],
      ["admin", { get: 200, patch: 200, members: 200, teams: 200, invite: 200, createCollection: 201, createSpace: 201 }],
    ];
    for (const [role, expected] of rows) {
      let user = outsider;
      if (role !== "outsider") {
        user = await createUser(sys.admin);
        await addMember(owner.api, org.id, user.email, role);
      }
      const actual = {
        get: (await user.api.get(`/v1/orgs/${org.id}`)).status,
        patch: (await user.api.patch(`/v1/orgs/${org.id}`, { title: "Renamed by role" })).status,
        members: (await user.api.get(`/v1/orgs/${org.id}/members`)).status,
        teams: (await user.api.get(`/v1/orgs/${org.id}/teams`)).status,
        invite: (await user.api.post(`/v1/orgs/${org.id}/invites`, { emails: ["x@example.com"] })).status,
        createCollection: (await user.api.post(`/v1/orgs/${org.id}/collections`, { title: "By role" })).status,
        createSpace: (await user.api.post(`/v1/orgs/${org.id}/spaces`, { title: "By role" })).status,
      };
      expect([role, actual]).toEqual([role, expected]);
    }
  });
});
