// content.revisionLog on a broker of its own, with a stand-in orgs service: the walk along first parents
// (order, limit, a merge's first parent, the end of a duplicated space's own history), its 404s, the
// caller's access checked as getRevision checks it, and revisions stored before their heads existed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Membership, RoleOrGuest } from "@docshelf/access";
import type { RevisionLogEntry } from "@docshelf/contracts/content";
import { contentSchema } from "./content.service";
import type { ContentService } from "./service-types";

const ORG = "org00000000000000001";
const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } } });

let broker: ServiceBroker;
let dir: string;
let call: <T = unknown>(name: string, params: object, opts?: object) => Promise<T>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "content-log-"));
  broker = new ServiceBroker({ logger: false });
  bindConfig(broker, loadConfig({ DATA_DIR: dir }));
  const roles = new Map<string, RoleOrGuest>([
    [`${ORG}:owner`, "admin"],
    [`${ORG}:reader`, "read"],
    [`${ORG}:guest`, null],
  ]);
  broker.createService({
    name: "orgs",
    actions: {
      memberRole: (ctx: { params: { organizationId: string; userId: string } }): Membership => {
        const key = `${ctx.params.organizationId}:${ctx.params.userId}`;
        return roles.has(key) ? { exists: true, member: true, role: roles.get(key) ?? null } : { exists: true, member: false, role: null };
      },
    },
  });
  broker.createService(contentSchema() as unknown as ServiceSchema);
  await broker.start();
  call = <T,>(name: string, params: object, opts?: object) => broker.call<T, object>(name, params, opts);
});

afterEach(async () => {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

const createSpace = () => call<{ id: string; revision: string }>("content.createSpace", { organizationId: ORG, title: "S" }, as("owner"));

/** Moves the space from `from` by inserting a page; the new revision's id. */
async function edit(spaceId: string, from: string, title: string, move = true): Promise<string> {
  return (await call<{ revision: string }>("content.applyChanges", { spaceId, revisionId: from, move, changes: [{ type: "insert_page", title }] })).revision;
}

/** The space's first revision and `n` edits on it: the revision ids oldest first. */
async function spaceWithEdits(n: number): Promise<{ spaceId: string; chain: string[] }> {
  const space = await createSpace();
  const chain = [space.revision];
  for (let i = 0; i < n; i++) chain.push(await edit(space.id, chain[chain.length - 1], `P${i}`));
  return { spaceId: space.id, chain };
}

const log = (params: object, user = "owner") => call<RevisionLogEntry[]>("content.revisionLog", params, as(user));

test("walks first parents from the current revision, newest first, as getRevision tells them", async () => {
  const { spaceId, chain } = await spaceWithEdits(4);
  const entries = await log({ spaceId });
  expect(entries.map((e) => e.id)).toEqual([...chain].reverse());
  for (const entry of entries) {
    const whole = await call<{ id: string; parents: string[]; createdAt: string }>("content.getRevision", { spaceId, revisionId: entry.id, metadata: false }, as("owner"));
    expect(entry).toEqual({ id: whole.id, createdAt: whole.createdAt, parents: whole.parents, type: "edits" });
    expect(Object.keys(entry)).not.toContain("pages");
  }
  expect(entries[entries.length - 1].parents).toEqual([]);
});

test("limit bounds the walk; revisionId starts it further back; the limit is 1 to 100", async () => {
  const { spaceId, chain } = await spaceWithEdits(5);
  expect((await log({ spaceId, limit: 2 })).map((e) => e.id)).toEqual([chain[5], chain[4]]);
  expect((await log({ spaceId, limit: 1 })).map((e) => e.id)).toEqual([chain[5]]);
  expect((await log({ spaceId, revisionId: chain[2], limit: 2 })).map((e) => e.id)).toEqual([chain[2], chain[1]]);
  expect((await log({ spaceId, revisionId: chain[2] })).map((e) => e.id)).toEqual([chain[2], chain[1], chain[0]]);
  expect((await log({ spaceId, limit: 100 })).length).toBe(6);
  for (const limit of [0, 101, 2.5, "3"]) await expect(log({ spaceId, limit })).rejects.toMatchObject({ code: 422, data: [expect.objectContaining({ field: "limit" })] });
});

test("the default limit is 20", async () => {
  const { spaceId, chain } = await spaceWithEdits(22);
  expect((await log({ spaceId })).map((e) => e.id)).toEqual([...chain].reverse().slice(0, 20));
});

test("a merge revision's log goes on through its first parent (main), not the change request's side", async () => {
  const space = await createSpace();
  const base = await edit(space.id, space.revision, "Base");
  const side = await edit(space.id, base, "On the change request", false);
  const main = await edit(space.id, base, "On main");
  const tree = await call<{ pages: unknown[]; files: unknown[]; reusableContents: unknown[]; variables: Record<string, string> }>(
    "content.getRevision",
    { spaceId: space.id, revisionId: main, metadata: false },
    as("owner"),
  );
  const merged = await call<{ revision: string }>("content.storeRevision", { spaceId: space.id, parents: [main, side], pages: [], files: [], reusableContents: [], variables: {} });
  expect(tree.pages.length).toBeGreaterThan(0);
  await call("content.commitRevision", { spaceId: space.id, expectedRevisionId: main, revisionId: merged.revision });
  const entries = await log({ spaceId: space.id });
  expect(entries.map((e) => e.id)).toEqual([merged.revision, main, base, space.revision]);
  expect(entries[0].parents).toEqual([main, side]);
  // The change request's side is reachable by starting there.
  expect((await log({ spaceId: space.id, revisionId: side })).map((e) => e.id)).toEqual([side, base, space.revision]);
});

test("a revision of another space, or none, is a 404; a duplicated space's log ends at its own first revision", async () => {
  const a = await spaceWithEdits(2);
  const b = await spaceWithEdits(1);
  await expect(log({ spaceId: a.spaceId, revisionId: b.chain[1] })).rejects.toMatchObject({ code: 404 });
  await expect(call("content.getRevision", { spaceId: a.spaceId, revisionId: b.chain[1] }, as("owner"))).rejects.toMatchObject({ code: 404 });
  await expect(log({ spaceId: a.spaceId, revisionId: "nope" })).rejects.toMatchObject({ code: 404 });
  await expect(log({ spaceId: "nope" })).rejects.toMatchObject({ code: 404 });
  const copy = await call<{ id: string; revision: string }>("content.duplicateSpace", { spaceId: a.spaceId }, as("owner"));
  const entries = await log({ spaceId: copy.id });
  expect(entries.map((e) => e.id)).toEqual([copy.revision]);
  expect(entries[0].parents).toEqual([a.chain[2]]);
});

test("the caller's access is checked as getRevision checks it", async () => {
  const { spaceId, chain } = await spaceWithEdits(1);
  // An organization member who may read the space reads its log.
  expect((await log({ spaceId }, "reader")).map((e) => e.id)).toEqual([chain[1], chain[0]]);
  // Someone outside the organization: the space is not found, by either action.
  await expect(log({ spaceId }, "stranger")).rejects.toMatchObject({ code: 404 });
  await expect(call("content.getRevision", { spaceId, revisionId: chain[1] }, as("stranger"))).rejects.toMatchObject({ code: 404 });
  await expect(log({ spaceId, revisionId: chain[0] }, "stranger")).rejects.toMatchObject({ code: 404 });
  // A member of the organization without a role on the space is refused the same way by both.
  const refused = await call("content.getRevision", { spaceId, revisionId: chain[1] }, as("guest")).then(
    () => 200,
    (err: { code: number }) => err.code,
  );
  const logged = await log({ spaceId }, "guest").then(
    () => 200,
    (err: { code: number }) => err.code,
  );
  expect(refused).toBe(404);
  expect(logged).toBe(refused);
  // Deleted spaces are not found either.
  await call("content.deleteSpace", { spaceId }, as("owner"));
  await expect(log({ spaceId })).rejects.toMatchObject({ code: 404 });
});

test("revisions stored before their heads existed are walked all the same, and their heads stored then", async () => {
  const { spaceId, chain } = await spaceWithEdits(3);
  const service = broker.getLocalService("content") as unknown as ContentService;
  expect(await service.revisionHeads.count({ spaceId })).toBe(4);
  await service.revisionHeads.deleteMany({ spaceId });
  expect((await log({ spaceId })).map((e) => e.id)).toEqual([...chain].reverse());
  expect(await service.revisionHeads.count({ spaceId })).toBe(4);
  // A removed revision takes its head with it.
  await service.revisions.deleteOne({ id: chain[3] });
  expect(await service.revisionHeads.findOne({ id: chain[3] })).toBeNull();
  await service.revisions.deleteMany({ spaceId });
  expect(await service.revisionHeads.count({ spaceId })).toBe(0);
});
