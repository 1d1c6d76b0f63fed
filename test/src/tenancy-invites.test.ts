// Issue 36, findings 6 and 7, through HTTP in every process mode. Invitations: an account joins an
// organization only when its owner accepts (GET /v1/user/invites, joinOrganizationWithInvite, or a
// decline), in the API and in the app; `sso: true` marks nobody before that; the answer to an invite is
// the same for an address with an account and one without. Email domains: an organization is listed
// under a domain (getOrganizationsForEmailDomain) only while it holds that domain verified.
import { createOrg, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";
import { unique } from "./sites-serve-fixtures";

interface MyInvite {
  id: string;
  organization: { id: string; title: string };
  role: string | null;
  sso: boolean;
}

describe.each(MODES)("invitations and email domains between organizations over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser; // admin of A
  let bob: TestUser; // admin of B, the attacker
  let carol: TestUser; // a third account
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    sys = await start(mode);
    alice = await createUser(sys.admin, { displayName: "Alice", email: `alice-${unique("a")}@a-corp.test` });
    bob = await createUser(sys.admin, { displayName: "Bob" });
    carol = await createUser(sys.admin, { displayName: "Carol" });
    orgA = (await createOrg(alice.api, "A corp")).id;
    orgB = (await createOrg(bob.api, "B corp")).id;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  const invitesOf = async (user: TestUser): Promise<MyInvite[]> => {
    const res = await user.api.get("/v1/user/invites");
    expect(res.status).toBe(200);
    return res.body.items;
  };
  const memberIds = async (admin: TestUser, orgId: string) =>
    ((await admin.api.get(`/v1/orgs/${orgId}/members?limit=100`)).body.items as Array<{ user: { id: string } }>).map((m) => m.user.id);

  describe("invitations", () => {
    test("B's admin cannot make Alice a member or admin of B, nor an SSO member: she is only invited", async () => {
      const res = await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [{ email: alice.email, role: "admin" }], sso: true });
      expect(res.status).toBe(200);
      expectSchema("inviteUsersToOrganization", 200, res.body);
      expect(res.body).toEqual({ users: [], invited: 1 });
      expect((await alice.api.get(`/v1/orgs/${orgB}`)).status).toBe(404);
      expect(((await alice.api.get("/v1/orgs")).body.items as Array<{ id: string }>).map((o) => o.id)).toEqual([orgA]);
      expect(await memberIds(bob, orgB)).not.toContain(alice.id);
      // Everything B could do to her as a member is refused as if she did not exist.
      expect((await bob.api.get(`/v1/orgs/${orgB}/members/${alice.id}`)).status).toBe(404);
      expect((await bob.api.patch(`/v1/orgs/${orgB}/members/${alice.id}`, { role: "admin" })).status).toBe(404);
      expect((await bob.api.post(`/v1/orgs/${orgB}/members/${alice.id}/sso`, {})).status).toBe(404);
      expect((await bob.api.put(`/v1/orgs/${orgB}/teams`, { title: "Pulled in", members: [alice.id] })).status).toBe(400);
      expect((await alice.api.get(`/v1/orgs/${orgB}`)).status).toBe(404);
      // She sees the invitation, and can tell who sends it.
      const mine = await invitesOf(alice);
      expect(mine).toEqual([expect.objectContaining({ object: "invite", organization: { id: orgB, title: "B corp" }, role: "admin", sso: true })]);
    });

    test("an invite answers the same for an address with an account and one without; B's pending list too", async () => {
      const known = await createUser(sys.admin);
      const unknown = `nobody-${unique("x")}@example.test`;
      const forKnown = await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [known.email], role: "read" });
      const forUnknown = await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [unknown], role: "read" });
      expect([forKnown.status, forUnknown.status]).toEqual([200, 200]);
      expectSchema("inviteUsersToOrganization", 200, forUnknown.body);
      expect(forKnown.body).toEqual(forUnknown.body);
      expect([...forKnown.headers.keys()].sort()).toEqual([...forUnknown.headers.keys()].sort());
      const pending = (await bob.api.get(`/v1/orgs/${orgB}/invites?limit=100`)).body.items as Array<{ email: string; role: string; sso: boolean }>;
      const shape = (email: string) => {
        const found = pending.find((i) => i.email === email.toLowerCase());
        return found && { keys: Object.keys(found).sort(), role: found.role, sso: found.sso };
      };
      expect(shape(known.email)).toBeDefined();
      expect(shape(known.email)).toEqual(shape(unknown));
      // Mixed in one request: still no user named.
      const mixed = await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [carol.email, `none-${unique("y")}@example.test`] });
      expect(mixed.body).toEqual({ users: [], invited: 2 });
    });

    test("the invitee accepts (joinOrganizationWithInvite) or declines; nobody else can do either", async () => {
      const dora = await createUser(sys.admin, { displayName: "Dora" });
      expect((await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [{ email: dora.email, role: "edit" }], sso: false })).status).toBe(200);
      const [invite] = (await invitesOf(dora)).filter((i) => i.organization.id === orgB);
      expect(invite).toBeDefined();
      // Someone else's invitation does not exist for them: listing, accepting, declining.
      expect((await invitesOf(carol)).map((i) => i.id)).not.toContain(invite.id);
      for (const other of [carol, alice]) {
        const accept = await other.api.post(`/v1/orgs/${orgB}/invites/${invite.id}`, {});
        expect(accept.status).toBe(404);
        expectErrorBody(404, accept.body);
        expect((await other.api.delete(`/v1/orgs/${orgB}/invites/${invite.id}`)).status).toBe(404);
      }
      // The id under another organization is unknown, even to that organization's admin.
      expect((await alice.api.delete(`/v1/orgs/${orgA}/invites/${invite.id}`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get("/v1/user/invites")).status).toBe(401);
      expect((await sys.admin.as(undefined).delete(`/v1/orgs/${orgB}/invites/${invite.id}`)).status).toBe(401);
      expect(await memberIds(bob, orgB)).not.toContain(dora.id);

      // Declined: gone for both sides, no membership.
      expect((await dora.api.delete(`/v1/orgs/${orgB}/invites/${invite.id}`)).status).toBe(204);
      expect((await invitesOf(dora)).map((i) => i.id)).not.toContain(invite.id);
      expect(((await bob.api.get(`/v1/orgs/${orgB}/invites?limit=100`)).body.items as Array<{ id: string }>).map((i) => i.id)).not.toContain(invite.id);
      expect((await dora.api.post(`/v1/orgs/${orgB}/invites/${invite.id}`, {})).status).toBe(404);

      // Invited again and accepted: a member with the invitation's role.
      expect((await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [{ email: dora.email, role: "edit" }] })).status).toBe(200);
      const [again] = (await invitesOf(dora)).filter((i) => i.organization.id === orgB);
      const joined = await dora.api.post(`/v1/orgs/${orgB}/invites/${again.id}`, {});
      expect(joined.status).toBe(200);
      expectSchema("joinOrganizationWithInvite", 200, joined.body);
      expect((await bob.api.get(`/v1/orgs/${orgB}/members/${dora.id}`)).body).toMatchObject({ role: "edit", sso: false });
      expect((await invitesOf(dora)).filter((i) => i.organization.id === orgB)).toEqual([]);
      // An admin may revoke a pending invitation.
      expect((await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [carol.email] })).status).toBe(200);
      const carols = (await invitesOf(carol)).filter((i) => i.organization.id === orgB);
      expect(carols).toHaveLength(1);
      const member = await createUser(sys.admin);
      expect((await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [member.email], role: "edit" })).status).toBe(200);
      const memberInvite = (await invitesOf(member)).find((i) => i.organization.id === orgB)!;
      expect((await member.api.post(`/v1/orgs/${orgB}/invites/${memberInvite.id}`, {})).status).toBe(200);
      // A member below admin cannot revoke someone else's invitation (it does not exist for them).
      expect((await member.api.delete(`/v1/orgs/${orgB}/invites/${carols[0].id}`)).status).toBe(404);
      expect((await bob.api.delete(`/v1/orgs/${orgB}/invites/${carols[0].id}`)).status).toBe(204);
      expect((await invitesOf(carol)).filter((i) => i.organization.id === orgB)).toEqual([]);
    });

    test("an invitation with sso: true marks the invitee an SSO member only once accepted", async () => {
      const erin = await createUser(sys.admin);
      expect((await alice.api.post(`/v1/orgs/${orgA}/invites`, { emails: [erin.email], role: "read", sso: true })).status).toBe(200);
      expect((await alice.api.get(`/v1/orgs/${orgA}/members/${erin.id}`)).status).toBe(404);
      const [invite] = (await invitesOf(erin)).filter((i) => i.organization.id === orgA);
      expect(invite.sso).toBe(true);
      expect((await erin.api.post(`/v1/orgs/${orgA}/invites/${invite.id}`, {})).status).toBe(200);
      expect((await alice.api.get(`/v1/orgs/${orgA}/members/${erin.id}`)).body).toMatchObject({ role: "read", sso: true });
    });

    test("the app lists the viewer's invitations with accept and decline; a form needs its CSRF token; another's invitation is 404", async () => {
      const frank = await createUser(sys.admin, { displayName: "Frank" });
      const title = `Invite <b>${unique("t")}</b>`;
      const inviter = (await createOrg(bob.api, title)).id;
      expect((await bob.api.post(`/v1/orgs/${inviter}/invites`, { emails: [frank.email], role: "comment" })).status).toBe(200);
      expect((await bob.api.post(`/v1/orgs/${orgB}/invites`, { emails: [frank.email], role: "read" })).status).toBe(200);
      const browser = new Browser(sys.url);
      await signIn(browser, frank.token);
      const home = await browser.get("/app");
      expect(home.status).toBe(200);
      const section = home.text.slice(home.text.indexOf('<section id="invitations">'));
      expect(section).toContain("Invite &lt;b&gt;");
      expect(section).not.toContain("Invite <b>");
      expect(section).toContain('value="accept-invite"');
      expect(section).toContain('value="decline-invite"');
      const [first, second] = [(await invitesOf(frank)).find((i) => i.organization.id === inviter)!, (await invitesOf(frank)).find((i) => i.organization.id === orgB)!];
      expect(home.text).toContain(`name="invite" value="${first.id}"`);

      // No CSRF token: refused, nothing changes.
      expect((await browser.post("/app", { intent: "accept-invite", organization: inviter, invite: first.id })).status).toBe(403);
      // Another user's session cannot accept Frank's invitation.
      const carols = new Browser(sys.url);
      await signIn(carols, carol.token);
      const carolHome = await carols.get("/app");
      expect((await carols.post("/app", { _csrf: csrfOf(carolHome.text), intent: "accept-invite", organization: inviter, invite: first.id })).status).toBe(404);
      expect((await carol.api.get(`/v1/orgs/${inviter}`)).status).toBe(404);

      const accepted = await browser.post("/app", { _csrf: csrfOf(home.text), intent: "accept-invite", organization: inviter, invite: first.id });
      expect(accepted.status).toBe(303);
      expect(accepted.location).toBe(`/o/${inviter}`);
      expect((await bob.api.get(`/v1/orgs/${inviter}/members/${frank.id}`)).body.role).toBe("comment");
      const declined = await browser.submit("/app", "/app", { intent: "decline-invite", organization: orgB, invite: second.id });
      expect(declined.status).toBe(303);
      expect((await bob.api.get(`/v1/orgs/${orgB}/members/${frank.id}`)).status).toBe(404);
      const after = await browser.get("/app");
      expect(after.text).not.toContain('<section id="invitations">');
      expect(after.text).toContain(`/o/${inviter}`);
    });
  });

  describe("email domains", () => {
    test("an organization is listed under an email domain only while it holds that domain verified", async () => {
      const domain = `${unique("corp")}.test`;
      const colleague = await createUser(sys.admin, { email: `someone@${domain}` });
      const listed = async () => {
        const res = await colleague.api.get(`/v1/email-domains/${domain}/orgs`);
        expect(res.status).toBe(200);
        expectSchema("getOrganizationsForEmailDomain", 200, res.body);
        return (res.body.organizations as Array<{ id: string }>).map((o) => o.id);
      };
      // B declares A's domain (and creates an organization with it): stored, never listed.
      const patched = await bob.api.patch(`/v1/orgs/${orgB}`, { emailDomains: [domain] });
      expect(patched.status).toBe(200);
      expect(patched.body.emailDomains).toEqual([domain]);
      const created = await bob.api.post("/v1/orgs", { title: "Also B", emailDomains: [domain] });
      expect(created.status).toBe(201);
      expect(await listed()).toEqual([]);
      // Even its own members do not see it listed.
      expect((await bob.api.get(`/v1/email-domains/${domain}/orgs`)).body).toEqual({ organizations: [] });
      // A verifies the domain (the instance administrator approves its claim) and declares it: A alone is listed.
      expect((await alice.api.post(`/v1/orgs/${orgA}/domains`, { domain })).status).toBe(201);
      expect(await listed()).toEqual([]);
      expect((await sys.admin.post(`/v1/orgs/${orgA}/domains/${domain}/approve`, {})).status).toBe(200);
      expect(await listed()).toEqual([]);
      expect((await alice.api.patch(`/v1/orgs/${orgA}`, { emailDomains: [domain] })).status).toBe(200);
      expect(await listed()).toEqual([orgA]);
      // B cannot claim nor have approved the domain A holds verified (409).
      expect((await bob.api.post(`/v1/orgs/${orgB}/domains`, { domain })).status).toBe(409);
      expect((await sys.admin.post(`/v1/orgs/${orgB}/domains/${domain}/approve`, {})).status).toBe(409);
      expect(await listed()).toEqual([orgA]);
      // A gives the domain up: no longer listed.
      expect((await alice.api.delete(`/v1/orgs/${orgA}/domains/${domain}`)).status).toBe(204);
      expect(await listed()).toEqual([]);
    });
  });
});
