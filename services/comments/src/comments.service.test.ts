// The comments service on a broker of its own, with stand-ins for content, identity, orgs and change requests.
import type { CountSync } from "@docshelf/count-sync";
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { commentsSchema } from "./comments.service";
import type { RoleOrGuest } from "@docshelf/access";
import type { ChangeRequestAccess } from "@docshelf/contracts/change-requests";
import type { PagesMeta, SpaceAccess } from "@docshelf/contracts/content";
import type { User } from "@docshelf/contracts/identity";
import type { Member } from "@docshelf/contracts/orgs";
import type { PageSnapshot } from "./pages";

const SPACE = "space1";
const page = (updatedAt: string, title = "Intro"): PageSnapshot => ({ id: "p1", title, path: "intro", createdAt: "2026-01-01T00:00:00.000Z", updatedAt });

/** What the stand-ins answer; tests change it. */
const world = {
  role: "comment" as RoleOrGuest,
  pages: { p1: page("2026-01-02T00:00:00.000Z") } as Record<string, PageSnapshot>,
  members: new Set<string>(["u1"]),
  spaceCounts: [] as number[],
  crCounts: [] as Array<{ changeRequestId: string; comments: number }>,
};

const stubs: ServiceSchema[] = [
  {
    name: "content",
    actions: {
      spaceAccess: {
        visibility: "public",
        handler: (ctx: Context<{ spaceId: string }>): SpaceAccess =>
          ctx.params.spaceId === SPACE
            ? { exists: true, organizationId: "org1", role: world.role, revision: "rev1", title: "S", visibility: "private" }
            : { exists: false, organizationId: null, role: null, revision: null, title: null, visibility: null },
      },
      pagesMeta: {
        visibility: "public",
        handler: (ctx: Context<{ pageIds: string[] }>): PagesMeta => ({
          revision: "rev1",
          pages: Object.fromEntries(ctx.params.pageIds.filter((id) => world.pages[id]).map((id) => [id, world.pages[id]])),
        }),
      },
      setCounts: {
        visibility: "public",
        handler: (ctx: Context<{ comments: number }>) => void world.spaceCounts.push(ctx.params.comments),
      },
    },
  },
  {
    name: "identity",
    actions: {
      getMany: {
        visibility: "public",
        handler: (ctx: Context<{ ids: string[] }>): Record<string, User> =>
          Object.fromEntries(ctx.params.ids.map((id): [string, User] => [id, { object: "user", id, displayName: `User ${id}`, urls: { location: `x/${id}` } }])),
      },
    },
  },
  {
    name: "orgs",
    actions: {
      membersOf: {
        visibility: "public",
        handler: (ctx: Context<{ userIds: string[] }>): Record<string, Member> =>
          Object.fromEntries(
            ctx.params.userIds
              .filter((id) => world.members.has(id))
              .map((id): [string, Member] => [id, { object: "member", id, role: "comment", user: { object: "user", id, displayName: id, urls: { location: "x" } }, disabled: false, joinedAt: "2026-01-01T00:00:00.000Z", sso: false, spaces: 0, teams: 0 }]),
          ),
      },
    },
  },
  {
    name: "change-requests",
    actions: {
      access: {
        visibility: "public",
        handler: (ctx: Context<{ changeRequestId: string }>): ChangeRequestAccess =>
          ["cr1", "7"].includes(ctx.params.changeRequestId)
            ? { exists: true, id: "cr1", number: 7, status: "open", revision: "crrev", role: world.role }
            : { exists: false, id: null, number: null, status: null, revision: null, role: world.role },
      },
      setComments: {
        visibility: "public",
        handler: (ctx: Context<{ changeRequestId: string; comments: number }>) => void world.crCounts.push({ changeRequestId: ctx.params.changeRequestId, comments: ctx.params.comments }),
      },
    },
  },
];

describe("comments service", () => {
  let broker: ServiceBroker;
  const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } } });
  const call = <T>(action: string, params: Record<string, unknown>, user = "u1") => broker.call<T, Record<string, unknown>>(`comments.${action}`, params, as(user));

  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: ":memory:" }));
    broker.createService(commentsSchema() as unknown as ServiceSchema);
    for (const stub of stubs) broker.createService(stub);
    await broker.start();
  });
  afterAll(() => broker.stop());
  /** Counts follow a post in the background (packages/count-sync): until they were sent. */
  const countsSent = () => (broker.getLocalService("comments") as unknown as { countSync: CountSync }).countSync.idle();

  test("a page comment turns outdated when the page's updatedAt moves, and keeps its snapshot when the page goes", async () => {
    world.pages = { p1: page("2026-01-02T00:00:00.000Z") };
    const posted = await call<{ id: string; target: { page: { outdated: boolean } } }>("post", { spaceId: SPACE, page: "p1", body: { markdown: "x" } });
    expect(posted.target.page.outdated).toBe(false);
    world.pages = { p1: page("2026-01-03T00:00:00.000Z", "Renamed") };
    expect((await call<{ target: { page: unknown } }>("get", { spaceId: SPACE, commentId: posted.id })).target.page).toMatchObject({ title: "Renamed", outdated: true });
    world.pages = {};
    expect((await call<{ target: { page: unknown } }>("get", { spaceId: SPACE, commentId: posted.id })).target.page).toMatchObject({ title: "Intro", outdated: true });
  });

  test("the last count sent after concurrent posts is the number of open comments", async () => {
    const before = (await call<{ count: number }>("list", { spaceId: SPACE, status: "open" })).count;
    world.spaceCounts = [];
    await Promise.all(Array.from({ length: 10 }, () => call("post", { spaceId: SPACE, body: { markdown: "x" } })));
    await countsSent();
    expect(world.spaceCounts.at(-1)).toBe(before + 10);
  });

  test("change request comments use the change request's id and revision and send its count", async () => {
    world.crCounts = [];
    const posted = await call<{ target: { changeRequest: string; revision: string } }>("postInChangeRequest", { spaceId: SPACE, changeRequestId: "7", body: { markdown: "x" } });
    expect(posted.target).toMatchObject({ changeRequest: "cr1", revision: "crrev" });
    await countsSent();
    expect(world.crCounts).toEqual([{ changeRequestId: "cr1", comments: 1 }]);
    await expect(call("listInChangeRequest", { spaceId: SPACE, changeRequestId: "nope" })).rejects.toMatchObject({ code: 404 });
  });

  test("a commenter who is not a member is listed with no role, disabled, joined at their first comment", async () => {
    world.role = "comment";
    const posted = await call<{ postedAt: string }>("postInChangeRequest", { spaceId: SPACE, changeRequestId: "cr1", body: { markdown: "x" } }, "u9");
    const list = await call<{ items: Array<Record<string, unknown>> }>("listCommentersInChangeRequest", { spaceId: SPACE, changeRequestId: "cr1" });
    expect(list.items.map((m) => [m.id, m.role, m.disabled])).toEqual([
      ["u1", "comment", false],
      ["u9", null, true],
    ]);
    expect(list.items[1].joinedAt).toBe(posted.postedAt);
  });

  /** As content does: a change of access is announced before it takes effect for anyone (reads keep answers). */
  async function setRole(role: RoleOrGuest) {
    world.role = role;
    await broker.broadcast("content.space.access.changed", { spaceId: SPACE, organizationId: "org1" });
  }

  test("a reader may not post (403) and someone without a role sees nothing (404)", async () => {
    await setRole("read");
    await expect(call("post", { spaceId: SPACE, body: { markdown: "x" } })).rejects.toMatchObject({ code: 403 });
    await setRole(null);
    await expect(call("list", { spaceId: SPACE })).rejects.toMatchObject({ code: 404 });
    await setRole("comment");
  });

  test("a read keeps the access answer until an event drops it; writes always ask content", async () => {
    await setRole("admin");
    const before = await call<{ items: Array<{ permissions: { delete: boolean } }> }>("list", { spaceId: SPACE, limit: 1 }, "u2");
    expect(before.items[0].permissions.delete).toBe(true);
    // Changed without an announcement (no real path does this): the read still uses the kept answer...
    world.role = "read";
    expect((await call<{ items: Array<{ permissions: { delete: boolean } }> }>("list", { spaceId: SPACE, limit: 1 }, "u2")).items[0].permissions.delete).toBe(true);
    // ...but a write asks content: posting needs the comment role, deleting someone else's comment needs admin.
    await expect(call("post", { spaceId: SPACE, body: { markdown: "x" } }, "u2")).rejects.toMatchObject({ code: 403 });
    const others = await call<{ items: Array<{ id: string; postedBy: { id: string } }> }>("list", { spaceId: SPACE, limit: 1 });
    expect(others.items[0].postedBy.id).not.toBe("u2");
    await expect(call("remove", { spaceId: SPACE, commentId: others.items[0].id }, "u2")).rejects.toMatchObject({ code: 403 });
    // Each event that may change access drops it.
    for (const [event, payload] of [
      ["content.space.access.changed", { spaceId: SPACE, organizationId: "org1" }],
      ["orgs.members.changed", { organizationId: "org1" }],
      ["orgs.principal.removed", { organizationId: "org1", principal: "user", id: "u2" }],
      ["orgs.collections.changed", { organizationId: "org9" }],
      ["orgs.collection.deleted", { organizationId: "org9", collectionIds: ["c1"], deletedAt: "2026-01-01T00:00:00.000Z" }],
      ["orgs.collection.transferred", { fromOrganizationId: "org9", toOrganizationId: "org8", collectionIds: ["c1"] }],
    ] as const) {
      world.role = "admin";
      await broker.broadcast("content.space.access.changed", { spaceId: SPACE, organizationId: "org1" });
      expect((await call<{ items: Array<{ permissions: { delete: boolean } }> }>("list", { spaceId: SPACE, limit: 1 }, "u2")).items[0].permissions.delete).toBe(true);
      world.role = "read";
      await broker.broadcast(event, payload);
      expect([event, (await call<{ items: Array<{ permissions: { delete: boolean } }> }>("list", { spaceId: SPACE, limit: 1 }, "u2")).items[0].permissions.delete]).toEqual([event, false]);
    }
    // Another organization's member change leaves this one's answers kept.
    world.role = "admin";
    await broker.broadcast("orgs.members.changed", { organizationId: "org1" });
    await call("list", { spaceId: SPACE, limit: 1 }, "u2");
    world.role = "read";
    await broker.broadcast("orgs.members.changed", { organizationId: "org2" });
    expect((await call<{ items: Array<{ permissions: { delete: boolean } }> }>("list", { spaceId: SPACE, limit: 1 }, "u2")).items[0].permissions.delete).toBe(true);
    await setRole("comment");
  });

  test("a purged space takes its comments, replies and commenters along", async () => {
    const posted = await call<{ id: string }>("post", { spaceId: SPACE, body: { markdown: "x" } });
    await call("postReply", { spaceId: SPACE, commentId: posted.id, body: { markdown: "r" } });
    // Content removes the space (announced) before it says it purged it.
    await broker.broadcast("content.space.access.changed", { spaceId: SPACE, organizationId: "org1" });
    await broker.broadcast("content.space.purged", { spaceId: SPACE, organizationId: "org1" });
    const deadline = Date.now() + 2000;
    let count = -1;
    while (Date.now() < deadline && count !== 0) count = (await call<{ count: number }>("list", { spaceId: SPACE })).count;
    expect(count).toBe(0);
    expect((await call<{ count: number }>("listCommenters", { spaceId: SPACE })).count).toBe(0);
  });
});
