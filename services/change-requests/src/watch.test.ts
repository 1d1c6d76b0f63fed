// Watching change requests on a broker of its own, with stand-in content and orgs services: only members of the
// space's organization watch (a non-member reading a public space is refused as not found), the author watches
// without choosing to, an explicit choice is kept (automatic watching never overrides it), and `watchers` lists them.
import type { SpaceAccess } from "@docshelf/contracts/content";
import type { User } from "@docshelf/contracts/identity";
import type { Member } from "@docshelf/contracts/orgs";
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { changeRequestsSchema } from "./change-requests.service";
import type { ChangeRequestsService } from "./service-types";
import { autoWatch } from "./watch.actions";

const SPACE = "space1";
const MEMBERS = new Set(["author", "member", "other"]);

const stubs: ServiceSchema[] = [
  {
    name: "content",
    actions: {
      // A public space: everyone reads it, members of org1 edit it.
      spaceAccess: {
        visibility: "public",
        handler: (ctx: Context<{ userId: string }>): SpaceAccess => ({ exists: true, organizationId: "org1", role: MEMBERS.has(ctx.params.userId) ? "edit" : "read", revision: "r0", title: "S", visibility: "public" }),
      },
      setCounts: { visibility: "public", handler: () => null },
    },
  },
  {
    name: "identity",
    actions: {
      getMany: {
        visibility: "public",
        handler: (ctx: Context<{ ids: string[] }>): Record<string, User> => Object.fromEntries(ctx.params.ids.map((id): [string, User] => [id, { object: "user", id, displayName: id, urls: { location: `x/${id}` } }])),
      },
    },
  },
  {
    name: "orgs",
    actions: {
      membersOf: {
        visibility: "public",
        handler: (ctx: Context<{ userIds: string[] }>): Record<string, Member> =>
          Object.fromEntries(ctx.params.userIds.filter((id) => MEMBERS.has(id)).map((id) => [id, { object: "member", id, role: "edit", disabled: false } as Member])),
      },
    },
  },
];

describe("watching change requests", () => {
  let node: ServiceBroker;
  let other: ServiceBroker;
  let service: ChangeRequestsService;
  const as = (userId: string) => ({ meta: { user: { id: userId, instanceAdmin: false } } });
  const call = <T>(userId: string, action: string, params: Record<string, unknown>) => node.call<T, Record<string, unknown>>(`change-requests.${action}`, params, as(userId));

  beforeAll(async () => {
    node = new ServiceBroker({ nodeID: "cr", transporter: "Fake", logger: false });
    other = new ServiceBroker({ nodeID: "stubs", transporter: "Fake", logger: false });
    bindConfig(node, loadConfig({ DATA_DIR: ":memory:" }));
    service = node.createService(changeRequestsSchema() as unknown as ServiceSchema) as unknown as ChangeRequestsService;
    for (const stub of stubs) other.createService(stub);
    await Promise.all([node.start(), other.start()]);
    await node.waitForServices(["content", "identity", "orgs"]);
  });
  afterAll(() => Promise.all([node.stop(), other.stop()]));

  test("the author watches; a member watches and stops; a non-member who may read the public space is refused (404) and never listed", async () => {
    const cr = await call<{ id: string }>("author", "create", { spaceId: SPACE, subject: "Watched" });
    const ref = { spaceId: SPACE, changeRequestId: cr.id };
    const watchers = async () => (await node.call<{ userIds: string[] }, object>("change-requests.watchers", ref)).userIds.sort();
    expect(await call("author", "getWatch", ref)).toEqual({ watching: true, watchers: 1 });
    expect(await call("member", "getWatch", ref)).toEqual({ watching: false, watchers: 1 });
    expect(await call("member", "setWatch", { ...ref, watching: true })).toEqual({ watching: true, watchers: 2 });
    expect(await watchers()).toEqual(["author", "member"]);
    // The outsider reads the change request (a public space), but is not a member: not found, nothing stored.
    await expect(call("outsider", "get", ref)).resolves.toMatchObject({ id: cr.id });
    await expect(call("outsider", "getWatch", ref)).rejects.toMatchObject({ code: 404 });
    await expect(call("outsider", "setWatch", { ...ref, watching: true })).rejects.toMatchObject({ code: 404 });
    expect(await service.watches.count({ userId: "outsider" })).toBe(0);
    expect(await call("member", "setWatch", { ...ref, watching: false })).toEqual({ watching: false, watchers: 1 });
    expect(await call("author", "setWatch", { ...ref, watching: false })).toEqual({ watching: false, watchers: 0 });
    expect(await watchers()).toEqual([]);
    // An unknown change request, or one of another space, has no watchers; a bad field is refused by name.
    expect((await node.call<{ userIds: string[] }, object>("change-requests.watchers", { spaceId: "space2", changeRequestId: cr.id })).userIds).toEqual([]);
    await expect(call("member", "setWatch", { ...ref, watching: "maybe" })).rejects.toMatchObject({ code: 422, data: [expect.objectContaining({ field: "watching" })] });
  });

  test("automatic watching (requested reviewers, reviewers) starts those who never chose, and never overrides an Unwatch", async () => {
    const created = await call<{ id: string }>("author", "create", { spaceId: SPACE, subject: "Auto" });
    const ref = { spaceId: SPACE, changeRequestId: created.id };
    expect(await call("other", "setWatch", { ...ref, watching: false })).toMatchObject({ watching: false });
    const cr = (await service.changeRequests.findOne({ id: created.id }))!;
    await autoWatch(service, cr, ["member", "other", "author"]);
    expect((await node.call<{ userIds: string[] }, object>("change-requests.watchers", ref)).userIds.sort()).toEqual(["author", "member"]);
    // Twice is the same.
    await autoWatch(service, cr, ["member"]);
    expect(await service.watches.count({ changeRequestId: cr.id, userId: "member" })).toBe(1);
  });
});
