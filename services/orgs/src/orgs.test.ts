// The orgs service on a broker of its own: the internal actions and events other services rely on.
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Caller, Membership } from "@docshelf/access";
import type { User } from "@docshelf/contracts/identity";
import { orgsSchema } from "./orgs.service";

/** A stand-in identity service: every user exists, named after their id. */
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

interface Heard {
  event: string;
  params: Record<string, unknown>;
}

describe("orgs service", () => {
  let broker: ServiceBroker;
  const heard: Heard[] = [];
  const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } satisfies Caller } });
  /** The admin invites `user` (whose email is user@example.com), who then accepts their pending invitation. */
  const inviteAndAccept = async (organizationId: string, user: string, role: string, admin: string) => {
    await broker.call("orgs.invite", { organizationId, emails: [`${user}@example.com`], role }, as(admin));
    const mine = await broker.call<{ items: Array<{ id: string; organization: { id: string } }> }, Record<string, unknown>>("orgs.listMyInvites", {}, as(user));
    const invite = mine.items.find((i) => i.organization.id === organizationId);
    await broker.call("orgs.joinWithLinkInvite", { organizationId, inviteId: invite?.id }, as(user));
  };

  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: ":memory:" }));
    broker.createService(orgsSchema() as unknown as ServiceSchema);
    broker.createService(identityStub);
    const listen = (event: string) => ({
      handler(ctx: Context<Record<string, unknown>>) {
        heard.push({ event, params: ctx.params });
      },
    });
    broker.createService({
      name: "listener",
      events: Object.fromEntries(
        ["orgs.members.changed", "orgs.collections.changed", "orgs.collection.deleted", "orgs.collection.transferred"].map((e) => [e, listen(e)]),
      ),
    });
    await broker.start();
  });
  afterAll(() => broker.stop());

  async function org(adminId: string): Promise<string> {
    const created = await broker.call<{ id: string }, { title: string }>("orgs.create", { title: "Unit org" }, as(adminId));
    return created.id;
  }

  function heardFor(event: string, organizationId: string): number {
    return heard.filter((h) => h.event === event && h.params.organizationId === organizationId).length;
  }

  test("memberRole tells whether the organization exists and the user's role", async () => {
    const orgId = await org("ann");
    expect(await broker.call<Membership, Record<string, unknown>>("orgs.memberRole", { organizationId: orgId, userId: "ann" })).toEqual({ exists: true, member: true, role: "admin", userId: "ann", teams: [] });
    expect(await broker.call<Membership, Record<string, unknown>>("orgs.memberRole", { organizationId: orgId, userId: "bob" })).toEqual({ exists: true, member: false, role: null });
    expect(await broker.call<Membership, Record<string, unknown>>("orgs.memberRole", { organizationId: "none", userId: "ann" })).toEqual({ exists: false, member: false, role: null });
  });

  test("every membership change broadcasts orgs.members.changed", async () => {
    const orgId = await org("cat");
    const before = heardFor("orgs.members.changed", orgId);
    await inviteAndAccept(orgId, "dan", "read", "cat");
    await broker.call("orgs.updateMember", { organizationId: orgId, userId: "dan", role: "edit" }, as("cat"));
    const team = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createTeam", { organizationId: orgId, title: "T", members: ["dan"] }, as("cat"));
    await broker.call("orgs.removeTeamMember", { organizationId: orgId, teamId: team.id, userId: "dan" }, as("cat"));
    await broker.call("orgs.removeMember", { organizationId: orgId, userId: "dan" }, as("cat"));
    expect(heardFor("orgs.members.changed", orgId) - before).toBe(5);
  });

  test("teamIdsOf lists the teams a user belongs to", async () => {
    const orgId = await org("eve");
    await inviteAndAccept(orgId, "fay", "read", "eve");
    const a = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createTeam", { organizationId: orgId, title: "A", members: ["fay"] }, as("eve"));
    await broker.call("orgs.createTeam", { organizationId: orgId, title: "B" }, as("eve"));
    expect(await broker.call("orgs.teamIdsOf", { organizationId: orgId, userId: "fay" })).toEqual([a.id]);
    expect(await broker.call("orgs.teamIdsOf", { organizationId: orgId, userId: "nobody" })).toEqual([]);
  });

  test("collectionLevels answers the chain's levels nearest first, and whether it exists or was deleted", async () => {
    const orgId = await org("gus");
    const top = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createCollection", { organizationId: orgId, title: "Top" }, as("gus"));
    const leaf = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createCollection", { organizationId: orgId, title: "Leaf", parent: top.id }, as("gus"));
    await broker.call("orgs.updateCollection", { collectionId: top.id, defaultLevel: "edit" }, as("gus"));
    expect(heard.some((h) => h.event === "orgs.collections.changed" && h.params.collectionId === top.id)).toBe(true);
    expect(await broker.call("orgs.collectionLevels", { collectionId: leaf.id })).toEqual({ exists: true, organizationId: orgId, deleted: false, levels: [null, "edit"], grants: [{}, {}] });
    expect(await broker.call("orgs.collectionLevels", { collectionId: "missing" })).toEqual({ exists: false, organizationId: null, deleted: false, levels: [], grants: [] });
    await broker.call("orgs.deleteCollection", { collectionId: top.id }, as("gus"));
    const deleted = heard.find((h) => h.event === "orgs.collection.deleted" && h.params.organizationId === orgId);
    expect(deleted?.params).toMatchObject({ collectionIds: [top.id, leaf.id], deletedAt: expect.any(String) });
    expect(await broker.call("orgs.collectionLevels", { collectionId: leaf.id })).toMatchObject({ exists: true, deleted: true });
  });

  test("transfer emits orgs.collection.transferred with every nested collection", async () => {
    const from = await org("hal");
    const to = await org("hal");
    const top = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createCollection", { organizationId: from, title: "Top" }, as("hal"));
    const leaf = await broker.call<{ id: string }, Record<string, unknown>>("orgs.createCollection", { organizationId: from, title: "Leaf", parent: top.id }, as("hal"));
    await broker.call("orgs.transferCollection", { collectionId: top.id, organization: to }, as("hal"));
    const event = heard.find((h) => h.event === "orgs.collection.transferred" && h.params.fromOrganizationId === from);
    expect(event?.params).toEqual({ fromOrganizationId: from, toOrganizationId: to, collectionIds: [top.id, leaf.id] });
    expect(heardFor("orgs.collections.changed", to)).toBeGreaterThan(0);
  });
});
