// The change-requests service on a broker of its own, with a stand-in content service on another node
// (Fake transporter): merges read and store trees as streams, and every merge is announced at least once.
import type { SpaceAccess } from "@docshelf/contracts/content";
import type { User } from "@docshelf/contracts/identity";
import type { MergeRules } from "@docshelf/contracts/orgs";
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { changeRequestsSchema } from "./change-requests.service";
import { jsonStream, readJson } from "@docshelf/runtime";
import type { TreeContent, TreePage } from "./merge";
import type { MergedMessage } from "./merged-channel";
import type { ChangeRequestsService } from "./service-types";

const SPACE = "space1";
const pageOf = (id: string, title: string, documentId = `doc-${id}`): TreePage => ({ id, title, documentId, pages: [] });
const treeOf = (...pages: TreePage[]): TreeContent => ({ pages, files: [], reusableContents: [], variables: {} });

/** The stand-in content's state; tests change it. */
const world = {
  main: "r0",
  revisions: new Map<string, TreeContent>(),
  stored: [] as Array<{ parents: string[]; content: TreeContent; streamed: boolean }>,
  counts: [] as number[],
  merged: [] as MergedMessage[],
};

const contentStub: ServiceSchema = {
  name: "content",
  actions: {
    spaceAccess: {
      visibility: "public",
      handler: (): SpaceAccess => ({ exists: true, organizationId: "org1", role: "admin", revision: world.main, title: "S", visibility: "private" }),
    },
    revisionTrees: {
      visibility: "public",
      handler(ctx: Context<{ revisionIds: string[]; stream?: boolean }>) {
        const trees = ctx.params.revisionIds.map((id) => ({ id, ...world.revisions.get(id)! }));
        return ctx.params.stream ? jsonStream(trees) : trees;
      },
    },
    storeRevision: {
      visibility: "public",
      async handler(ctx: Context<{ parents: string[] } & Partial<TreeContent>>) {
        const streamed = !!ctx.stream;
        const content = streamed ? await readJson<TreeContent>(ctx.stream as unknown as NodeJS.ReadableStream) : (ctx.params as TreeContent);
        const id = `stored-${world.stored.length + 1}`;
        world.stored.push({ parents: ctx.params.parents, content, streamed });
        world.revisions.set(id, content);
        return { revision: id };
      },
    },
    commitRevision: {
      visibility: "public",
      handler(ctx: Context<{ expectedRevisionId: string; revisionId: string }>) {
        if (world.main !== ctx.params.expectedRevisionId) throw Object.assign(new Error("moved"), { code: 409 });
        world.main = ctx.params.revisionId;
        return { revision: world.main };
      },
    },
    setCounts: {
      visibility: "public",
      handler: (ctx: Context<{ changeRequests: number }>) => void world.counts.push(ctx.params.changeRequests),
    },
  },
  events: {
    "change-requests.merged": {
      handler: (ctx: Context<MergedMessage>) => void world.merged.push(ctx.params),
    },
  },
};

const identityStub: ServiceSchema = {
  name: "identity",
  actions: {
    getMany: {
      visibility: "public",
      handler: (ctx: Context<{ ids: string[] }>): Record<string, User> => Object.fromEntries(ctx.params.ids.map((id): [string, User] => [id, { object: "user", id, displayName: id, urls: { location: `x/${id}` } }])),
    },
  },
};

const orgsStub: ServiceSchema = {
  name: "orgs",
  actions: { mergeRulesOf: { visibility: "public", handler: (): MergeRules => ({ type: "none" }) } },
};

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("change-requests service", () => {
  let node: ServiceBroker;
  let other: ServiceBroker;
  let service: ChangeRequestsService;
  const meta = { meta: { user: { id: "u1", instanceAdmin: false } } };
  const call = <T>(action: string, params: Record<string, unknown>) => node.call<T, Record<string, unknown>>(`change-requests.${action}`, params, meta);

  beforeAll(async () => {
    node = new ServiceBroker({ nodeID: "cr", transporter: "Fake", logger: false });
    other = new ServiceBroker({ nodeID: "content", transporter: "Fake", logger: false });
    bindConfig(node, loadConfig({ DATA_DIR: ":memory:" }));
    service = node.createService(changeRequestsSchema() as unknown as ServiceSchema) as unknown as ChangeRequestsService;
    other.createService(contentStub);
    other.createService(identityStub);
    other.createService(orgsStub);
    await Promise.all([node.start(), other.start()]);
    await node.waitForServices(["content", "identity", "orgs"]);
  });
  afterAll(() => Promise.all([node.stop(), other.stop()]));

  /** A change request on main "r0" (pages a, b) whose content is "r1" (a renamed, c added), with main moved to "m1" (b renamed). */
  async function divergedChangeRequest(): Promise<{ id: string }> {
    world.revisions.set("r0", treeOf(pageOf("a", "A"), pageOf("b", "B")));
    world.revisions.set("r1", treeOf(pageOf("a", "A in the change request"), pageOf("b", "B"), pageOf("c", "C")));
    world.revisions.set("m1", treeOf(pageOf("a", "A"), pageOf("b", "B on main")));
    world.main = "r0";
    const cr = await call<{ id: string }>("create", { spaceId: SPACE, subject: "Diverged" });
    await service.changeRequests.updateOne({ id: cr.id }, { $set: { revision: "r1" } });
    world.main = "m1";
    return cr;
  }

  test("concurrent creates in one space get distinct numbers in turn; the space's counts follow them", async () => {
    const space = "s-numbered";
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => call<{ number: number }>("create", { spaceId: space, subject: `n${i}` })));
    expect(created.map((cr) => cr.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A space whose counter (earlier versions) is ahead of its change requests goes on from the counter.
    await service.counters.insert({ id: "s-counted", last: 41 });
    expect((await call<{ number: number }>("create", { spaceId: "s-counted" })).number).toBe(42);
    expect((await call<{ number: number }>("create", { spaceId: "s-counted" })).number).toBe(43);
    // Counts go in the background, each mark deleted once its count was sent.
    await service.countSync.idle();
    world.counts = [];
    await call("create", { spaceId: space });
    await service.countSync.idle();
    expect(world.counts.at(-1)).toBe(9);
    expect(await service.countMarks.count({})).toBe(0);
  });

  test("a merge reads the three trees and stores the result as streams, then announces it once", async () => {
    const cr = await divergedChangeRequest();
    world.stored = [];
    world.merged = [];
    const answer = await call<{ revision: string; result: string }>("merge", { spaceId: SPACE, changeRequestId: cr.id });
    expect(answer).toEqual({ revision: "stored-1", result: "merge" });
    expect(world.stored).toHaveLength(1);
    expect(world.stored[0].streamed).toBe(true);
    expect(world.stored[0].parents).toEqual(["m1", "r1"]);
    expect(world.stored[0].content.pages.map((p) => p.title)).toEqual(["A in the change request", "B on main", "C"]);
    expect(world.main).toBe("stored-1");
    await until(() => world.merged.length === 1);
    expect(world.merged[0]).toEqual({ spaceId: SPACE, changeRequestId: cr.id, number: expect.any(Number), subject: "Diverged", revision: "stored-1" });
    const doc = await service.changeRequests.findOne({ id: cr.id });
    expect(doc).toMatchObject({ status: "merged", revisionMerged: "stored-1" });
    expect(doc?.announcePending).toBeUndefined();
    // Nothing is pending, so a sweep (even much later) sends nothing again.
    service.clockOffsetMs += 60_000;
    expect(await service.sweepAnnouncements()).toBe(0);
  });

  test("a merge whose announcement fails still answers; the sweep announces it after the grace period", async () => {
    const cr = await divergedChangeRequest();
    world.merged = [];
    const published: MergedMessage[] = [];
    let failures = 1;
    service.mergedChannel = {
      async publish(message) {
        if (failures-- > 0) throw new Error("JetStream is away");
        published.push(message);
      },
      stop: async () => undefined,
    };
    try {
      const answer = await call<{ revision: string; result: string }>("merge", { spaceId: SPACE, changeRequestId: cr.id });
      expect(answer.result).toBe("merge");
      expect((await service.changeRequests.findOne({ id: cr.id }))?.announcePending).toBe(true);
      // Within the grace period the merge's own request may still be announcing it: the sweep leaves it.
      expect(await service.sweepAnnouncements()).toBe(0);
      service.clockOffsetMs += 31_000;
      expect(await service.sweepAnnouncements()).toBe(1);
      expect(published.map((m) => m.changeRequestId)).toEqual([cr.id]);
      expect((await service.changeRequests.findOne({ id: cr.id }))?.announcePending).toBeUndefined();
      // At least once: the broadcast went out with the failed attempt and again with the sweep.
      await until(() => world.merged.length === 2);
      expect(world.merged.every((m) => m.changeRequestId === cr.id && m.revision === answer.revision)).toBe(true);
    } finally {
      service.mergedChannel = undefined;
    }
  });
  test("reads keep content's access answer on this node until content's announcement crosses over to it", async () => {
    world.main = "r0";
    world.revisions.set("r0", treeOf(pageOf("a", "A")));
    const cr = await call<{ id: string }>("create", { spaceId: SPACE, subject: "Kept" });
    await other.broadcast("content.space.access.changed", { spaceId: SPACE, organizationId: "org1" });
    expect((await call<{ outdated: boolean }>("get", { spaceId: SPACE, changeRequestId: cr.id })).outdated).toBe(false);
    // Main moved without an announcement (content never does this): the read still uses the kept answer.
    world.main = "m2";
    expect((await call<{ outdated: boolean }>("get", { spaceId: SPACE, changeRequestId: cr.id })).outdated).toBe(false);
    // Content's announcement, sent from its node over the transporter, drops it here.
    await other.broadcast("content.space.access.changed", { spaceId: SPACE, organizationId: "org1" });
    expect((await call<{ outdated: boolean }>("get", { spaceId: SPACE, changeRequestId: cr.id })).outdated).toBe(true);
    const listed = await call<{ items: Array<{ id: string; outdated: boolean }> }>("list", { spaceId: SPACE, status: "draft" });
    expect(listed.items.find((item) => item.id === cr.id)?.outdated).toBe(true);
    // A member change of the space's organization drops it too.
    world.main = "r0";
    await other.broadcast("orgs.members.changed", { organizationId: "org1" });
    expect((await call<{ outdated: boolean }>("get", { spaceId: SPACE, changeRequestId: cr.id })).outdated).toBe(false);
  });
});
