// SAML sign-in support: SSO memberships, default teams, and organizations that require SSO.
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Caller, Membership } from "@docshelf/access";
import type { User } from "@docshelf/contracts/identity";
import { ssoAdmits } from "./membership-rules";
import { orgsSchema } from "./orgs.service";

const identityStub: ServiceSchema = {
  name: "identity",
  actions: {
    getMany: {
      visibility: "public",
      handler(ctx: Context<{ ids: string[] }>): Record<string, User> {
        return Object.fromEntries(ctx.params.ids.map((id): [string, User] => [id, { object: "user", id, displayName: `User ${id}`, email: `${id}@example.com`, urls: { location: "x" } }]));
      },
    },
    findByEmails: {
      visibility: "public",
      handler(ctx: Context<{ emails: string[] }>) {
        return ctx.params.emails.map((email) => ({ id: email.split("@")[0], email }));
      },
    },
  },
};

describe("ssoAdmits", () => {
  test.each([
    [false, false, "read", true],
    [true, true, "read", true],
    [true, false, "read", false],
    [true, false, null, false],
    [true, false, "admin", true],
  ] as const)("org sso=%s, member sso=%s with role %s is admitted: %s", (orgSso, memberSso, role, admitted) => {
    expect(ssoAdmits({ sso: orgSso }, { sso: memberSso, role })).toBe(admitted);
  });
});

describe("orgs SSO actions", () => {
  let broker: ServiceBroker;
  const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } satisfies Caller } });
  /** The admin invites `user` (whose email is user@example.com), who then accepts their pending invitation. */
  const inviteAndAccept = async (organizationId: string, user: string, role: string, admin: string) => {
    await broker.call("orgs.invite", { organizationId, emails: [`${user}@example.com`], role }, as(admin));
    const mine = await broker.call<{ items: Array<{ id: string; organization: { id: string } }> }, Record<string, unknown>>("orgs.listMyInvites", {}, as(user));
    const invite = mine.items.find((i) => i.organization.id === organizationId);
    await broker.call("orgs.joinWithLinkInvite", { organizationId, inviteId: invite?.id }, as(user));
  };
  const role = (organizationId: string, userId: string) => broker.call<Membership, Record<string, unknown>>("orgs.memberRole", { organizationId, userId });

  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: ":memory:" }));
    broker.createService(orgsSchema() as unknown as ServiceSchema);
    broker.createService(identityStub);
    await broker.start();
  });
  afterAll(() => broker.stop());

  async function orgWithTeam(adminId: string) {
    const org = await broker.call<{ id: string }, Record<string, unknown>>("orgs.create", { title: "SSO org" }, as(adminId));
    const team = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createTeam", { organizationId: org.id, title: "Engineers" }, as(adminId));
    return { orgId: org.id, teamId: team.id };
  }

  test("joinBySso makes a new SSO member with the given role and puts them in the team", async () => {
    const { orgId, teamId } = await orgWithTeam("sso-admin-1");
    const joined = await broker.call("orgs.joinBySso", { organizationId: orgId, userId: "newcomer", role: "edit", teamId });
    expect(joined).toEqual({ member: true, role: "edit" });
    const member = await broker.call<{ sso: boolean; role: string }, Record<string, unknown>>("orgs.getMember", { organizationId: orgId, userId: "newcomer" }, as("sso-admin-1"));
    expect(member).toMatchObject({ sso: true, role: "edit" });
    const teams = await broker.call<Record<string, { members: number }>, Record<string, unknown>>("orgs.teamsById", { organizationId: orgId, teamIds: [teamId, "nope"] });
    expect(Object.keys(teams)).toEqual([teamId]);
    expect(teams[teamId].members).toBe(1);
    // Signing in again changes nothing.
    expect(await broker.call("orgs.joinBySso", { organizationId: orgId, userId: "newcomer", role: "read", teamId })).toEqual({ member: true, role: "edit" });
  });

  test("joinBySso keeps an existing member's role and marks them SSO", async () => {
    const { orgId } = await orgWithTeam("sso-admin-2");
    expect(await broker.call("orgs.joinBySso", { organizationId: orgId, userId: "sso-admin-2", role: "read" })).toEqual({ member: true, role: "admin" });
    const member = await broker.call<{ sso: boolean }, Record<string, unknown>>("orgs.getMember", { organizationId: orgId, userId: "sso-admin-2" }, as("sso-admin-2"));
    expect(member.sso).toBe(true);
  });

  test("teamsById leaves out teams of other organizations", async () => {
    const a = await orgWithTeam("sso-admin-3");
    const b = await orgWithTeam("sso-admin-4");
    expect(await broker.call("orgs.teamsById", { organizationId: a.orgId, teamIds: [b.teamId] })).toEqual({});
  });

  test("an organization with sso on hides itself from members who did not come through SSO, not from SSO members or admins", async () => {
    const { orgId } = await orgWithTeam("sso-admin-5");
    await inviteAndAccept(orgId, "plain", "edit", "sso-admin-5");
    await broker.call("orgs.joinBySso", { organizationId: orgId, userId: "federated", role: "read" });
    expect((await role(orgId, "plain")).member).toBe(true);

    await broker.call("orgs.update", { organizationId: orgId, sso: true }, as("sso-admin-5"));
    expect(await role(orgId, "plain")).toEqual({ exists: true, member: false, role: null });
    await expect(broker.call("orgs.get", { organizationId: orgId }, as("plain"))).rejects.toMatchObject({ code: 404 });
    const listed = await broker.call<{ items: Array<{ id: string }> }, Record<string, unknown>>("orgs.list", {}, as("plain"));
    expect(listed.items.map((o) => o.id)).not.toContain(orgId);
    expect(await role(orgId, "federated")).toEqual({ exists: true, member: true, role: "read", userId: "federated", teams: [] });
    expect((await role(orgId, "sso-admin-5")).member).toBe(true);

    const collection = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createCollection", { organizationId: orgId, title: "Handbook" }, as("sso-admin-5"));
    await expect(broker.call("orgs.getCollection", { collectionId: collection.id }, as("plain"))).rejects.toMatchObject({ code: 404 });
    await expect(broker.call("orgs.getCollection", { collectionId: collection.id }, as("federated"))).resolves.toMatchObject({ id: collection.id });

    // Signing in through SSO lets the plain member back in.
    await broker.call("orgs.joinBySso", { organizationId: orgId, userId: "plain", role: "read" });
    expect(await role(orgId, "plain")).toMatchObject({ exists: true, member: true, role: "edit", userId: "plain" });
    await expect(broker.call("orgs.getCollection", { collectionId: collection.id }, as("plain"))).resolves.toMatchObject({ id: collection.id });
  });

  test("joinBySso answers member false for an organization that does not exist", async () => {
    expect(await broker.call("orgs.joinBySso", { organizationId: "missing", userId: "x", role: "read" })).toEqual({ member: false, role: null });
  });
});
