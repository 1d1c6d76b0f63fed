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
});
