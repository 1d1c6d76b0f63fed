// The content service on a broker of its own, with a stand-in orgs service: the revision engine's
// internal actions, collection levels and the collection events.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Membership, RoleOrGuest } from "@docshelf/access";
import type { CollectionLevels } from "@docshelf/contracts/orgs";
import { contentSchema } from "./content.service";
import { purgeDeleted } from "./purge";
import type { ContentService } from "./service-types";

interface Fixture {
  broker: ServiceBroker;
  levels: Map<string, { organizationId: string; levels: RoleOrGuest[] }>;
  roles: Map<string, RoleOrGuest>;
  dir: string;
}

const ORG = "org00000000000000001";
const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } } });

async function startContent(withCollections = true, existingDir?: string): Promise<Fixture> {
  const dir = existingDir ?? mkdtempSync(join(tmpdir(), "content-"));
  const broker = new ServiceBroker({ logger: false });
  bindConfig(broker, loadConfig({ DATA_DIR: dir }));
  const levels = new Map<string, { organizationId: string; levels: RoleOrGuest[] }>();
  const roles = new Map<string, RoleOrGuest>();
  const actions: ServiceSchema["actions"] = {
    memberRole: (ctx: { params: { organizationId: string; userId: string } }): Membership => {
      const key = `${ctx.params.organizationId}:${ctx.params.userId}`;
      return roles.has(key) ? { exists: true, member: true, role: roles.get(key) ?? null } : { exists: true, member: false, role: null };
    },
  };
  if (withCollections) {
    actions.collectionLevels = (ctx: { params: { collectionId: string } }): CollectionLevels => {
      const found = levels.get(ctx.params.collectionId);
      return found ? { exists: true, deleted: false, grants: [], ...found } : { exists: false, organizationId: null, deleted: false, levels: [], grants: [] };
    };
  }
  broker.createService({ name: "orgs", actions });
  broker.createService(contentSchema() as unknown as ServiceSchema);
  await broker.start();
  call = <T,>(name: string, params: object, opts?: object) => broker.call<T, object>(name, params, opts);
  return { broker, levels, roles, dir };
}

/** broker.call with its params typed loosely: the tests pass plain objects. */
let call: <T = unknown>(name: string, params: object, opts?: object) => Promise<T>;

async function stop(f: Fixture): Promise<void> {
  await f.broker.stop();
  rmSync(f.dir, { recursive: true, force: true });
}

describe("content service", () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startContent();
    f.roles.set(`${ORG}:owner`, "admin");
    f.roles.set(`${ORG}:reader`, "read");
  });
  afterEach(() => stop(f));

  const createSpace = (fields: Record<string, unknown> = {}) =>
    call<{ id: string; revision: string }>("content.createSpace", { organizationId: ORG, title: "S", ...fields }, as("owner"));

  test("applyChanges moves the space; a second writer from the same parent gets 409 and loses nothing", async () => {
    const space = await createSpace();
    const first = await call<{ revision: string }>("content.applyChanges", { spaceId: space.id, revisionId: space.revision, move: true, changes: [{ type: "insert_page", title: "A" }] });
    await expect(
      call("content.applyChanges", { spaceId: space.id, revisionId: space.revision, move: true, changes: [{ type: "insert_page", title: "B" }] }),
    ).rejects.toMatchObject({ code: 409 });
    const current = await call<{ revision: string }>("content.getSpace", { spaceId: space.id }, as("owner"));
    expect(current.revision).toBe(first.revision);
  });

  test("concurrent writers on the current revision: exactly one wins, the others get 409", async () => {
    const space = await createSpace();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        call("content.applyChanges", { spaceId: space.id, revisionId: space.revision, move: true, changes: [{ type: "insert_page", title: `P${i}` }] }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason.code === 409)).toBe(true);
  });

  test("a change-request style revision leaves the space alone until commitRevision, which is compare-and-swap", async () => {
    const space = await createSpace();
    const draft = await call<{ revision: string; moved: boolean }>("content.applyChanges", { spaceId: space.id, revisionId: space.revision, changes: [{ type: "insert_page", title: "Draft" }] });
    expect(draft.moved).toBe(false);
    expect((await call<{ revision: string }>("content.getSpace", { spaceId: space.id }, as("owner"))).revision).toBe(space.revision);
    const events: unknown[] = [];
    f.broker.createService({ name: "listener", events: { "content.revision.changed": (ctx: { params: unknown }) => void events.push(ctx.params) } });
    await f.broker.waitForServices("listener");
    await call("content.commitRevision", { spaceId: space.id, expectedRevisionId: space.revision, revisionId: draft.revision });
    expect(events).toEqual([{ spaceId: space.id, revisionId: draft.revision }]);
    await expect(call("content.commitRevision", { spaceId: space.id, expectedRevisionId: space.revision, revisionId: draft.revision })).rejects.toMatchObject({ code: 409 });
  });

  test("a collection's default level reaches the spaces in it and is re-read when collections change", async () => {
    f.levels.set("col1", { organizationId: ORG, levels: ["edit"] });
    const space = await createSpace({ parent: "col1" });
    const seen = await call<{ permissions: { edit: boolean } }>("content.getSpace", { spaceId: space.id }, as("reader"));
    expect(seen.permissions.edit).toBe(true);
    f.levels.set("col1", { organizationId: ORG, levels: ["inherit" as unknown as null, "comment"] });
    await f.broker.broadcast("orgs.collections.changed", { organizationId: ORG, collectionId: "col1" });
    const after = await call<{ permissions: { edit: boolean; comment: boolean } }>("content.getSpace", { spaceId: space.id }, as("reader"));
    expect(after.permissions).toMatchObject({ edit: false, comment: true });
  });

  test("a space cannot be created in a collection the orgs service does not know", async () => {
    await expect(createSpace({ parent: "nope" })).rejects.toMatchObject({ code: 400 });
    f.levels.set("other-org", { organizationId: "org2", levels: [] });
    await expect(createSpace({ parent: "other-org" })).rejects.toMatchObject({ code: 400 });
  });

  test("a deleted collection soft-deletes its spaces; a transferred one moves them", async () => {
    f.levels.set("col1", { organizationId: ORG, levels: [] });
    f.levels.set("col2", { organizationId: ORG, levels: [] });
    const inside = await createSpace({ parent: "col1" });
    const moved = await createSpace({ parent: "col2" });
    const outside = await createSpace();
    await f.broker.broadcast("orgs.collection.deleted", { organizationId: ORG, collectionIds: ["col1"], deletedAt: new Date().toISOString() });
    await f.broker.broadcast("orgs.collection.transferred", { fromOrganizationId: ORG, toOrganizationId: "org2", collectionIds: ["col2"] });
    const svc = f.broker.getLocalService("content") as unknown as { spaces: { findOne(q: object): Promise<{ deletedAt?: string; organizationId: string } | null> } };
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline && !(await svc.spaces.findOne({ id: inside.id }))?.deletedAt) await new Promise((r) => setImmediate(r));
    expect((await svc.spaces.findOne({ id: inside.id }))?.deletedAt).toBeDefined();
    while (Date.now() < deadline && (await svc.spaces.findOne({ id: moved.id }))?.organizationId !== "org2") await new Promise((r) => setImmediate(r));
    expect((await svc.spaces.findOne({ id: moved.id }))?.organizationId).toBe("org2");
    expect((await svc.spaces.findOne({ id: outside.id }))?.deletedAt).toBeUndefined();
  });

  test("a space moves into a collection of its organization and is listed there in position order", async () => {
    f.levels.set("col1", { organizationId: ORG, levels: [] });
    const a = await createSpace();
    const b = await createSpace();
    await call("content.moveSpace", { spaceId: a.id, parent: "col1" }, as("owner"));
    await call("content.moveSpace", { spaceId: b.id, parent: "col1", position: { before: { type: "space", space: a.id } } }, as("owner"));
    const listed = await call<{ items: Array<{ id: string; parent: string }>; count: number }>("content.listSpacesInCollection", { collectionId: "col1" }, as("reader"));
    expect(listed.items.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(listed.items[0].parent).toBe("col1");
    await expect(call("content.listSpacesInCollection", { collectionId: "col1" }, as("stranger"))).rejects.toMatchObject({ code: 404 });
    await expect(call("content.listSpacesInCollection", { collectionId: "missing" }, as("owner"))).rejects.toMatchObject({ code: 404 });
    const out = await call<{ parent?: string }>("content.moveSpace", { spaceId: a.id, parent: null }, as("owner"));
    expect(out.parent).toBeUndefined();
  });

  test("moving into a collection of another organization is 400", async () => {
    f.levels.set("foreign", { organizationId: "org2", levels: [] });
    const a = await createSpace();
    await expect(call("content.moveSpace", { spaceId: a.id, parent: "foreign" }, as("owner"))).rejects.toMatchObject({ code: 400 });
  });

  test("setCounts keeps the counts other services own", async () => {
    const space = await createSpace();
    await call("content.setCounts", { spaceId: space.id, comments: 3, changeRequestsOpen: 2 });
    const seen = await call<Record<string, number>>("content.getSpace", { spaceId: space.id }, as("owner"));
    expect(seen).toMatchObject({ comments: 3, changeRequestsOpen: 2, changeRequests: 0 });
    await expect(call("content.setCounts", { spaceId: space.id, comments: -1 })).rejects.toMatchObject({ code: 422 });
  });

  test("the purge keeps documents and file bytes another space still uses, and removes the rest", async () => {
    const shared = Buffer.from("shared bytes").toString("base64");
    const alone = Buffer.from("only here").toString("base64");
    const a = await createSpace();
    await call("content.applyChanges", {
      spaceId: a.id,
      changes: [
        { type: "insert_page", id: "p1", markdown: "shared body" },
        { type: "insert_file", id: "f1", name: "s.txt", contentType: "text/plain", data: shared },
      ],
    });
    const copy = await call<{ id: string }>("content.duplicateSpace", { spaceId: a.id }, as("owner"));
    const b = await createSpace();
    await call("content.applyChanges", { spaceId: b.id, changes: [{ type: "insert_file", id: "f2", name: "o.txt", contentType: "text/plain", data: alone }] });
    await call("content.deleteSpace", { spaceId: a.id }, as("owner"));
    await call("content.deleteSpace", { spaceId: b.id }, as("owner"));
    const svc = f.broker.getLocalService("content") as unknown as ContentService;
    const shaOf = async (spaceId: string) => (await svc.revisions.find({ spaceId })).find((r) => r.files.length)!.files[0].sha256;
    const sharedSha = await shaOf(copy.id);
    const aloneSha = await shaOf(b.id);
    svc.clockOffsetMs = 8 * 24 * 3600 * 1000;
    expect(await purgeDeleted(svc)).toBe(2);
    const page = await call<{ markdown: string }>("content.getPage", { spaceId: copy.id, pageId: "p1" }, as("owner"));
    expect(page.markdown).toBe("shared body");
    expect(await svc.files.has(sharedSha)).toBe(true);
    expect(await svc.files.has(aloneSha)).toBe(false);
  });
});

test("without the orgs collection action, spaces in a collection inherit nothing and still load", async () => {
  const f = await startContent(false);
  f.roles.set(`${ORG}:owner`, "admin");
  try {
    const space = await call<{ id: string }>("content.createSpace", { organizationId: ORG, parent: "col1" }, as("owner"));
    const seen = await call<{ id: string }>("content.getSpace", { spaceId: space.id }, as("owner"));
    expect(seen.id).toBe(space.id);
  } finally {
    await stop(f);
  }
});

test("the purge runs on start, so spaces deleted long ago are removed after a restart", async () => {
  const first = await startContent();
  first.roles.set(`${ORG}:owner`, "admin");
  const space = await first.broker.call<{ id: string }, object>("content.createSpace", { organizationId: ORG }, as("owner"));
  const svc = first.broker.getLocalService("content") as unknown as { spaces: { updateOne(q: object, u: object): Promise<unknown> } };
  await svc.spaces.updateOne({ id: space.id }, { $set: { deletedAt: new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString() } });
  await first.broker.stop();
  const second = await startContent(true, first.dir);
  try {
    const spaces = (second.broker.getLocalService("content") as unknown as { spaces: { findOne(q: object): Promise<unknown> } }).spaces;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await spaces.findOne({ id: space.id }))) await new Promise((r) => setTimeout(r, 20));
    expect(await spaces.findOne({ id: space.id })).toBeNull();
  } finally {
    await stop(second);
  }
});
