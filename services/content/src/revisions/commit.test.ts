import { ConflictError } from "@docshelf/errors";
import { openStore, type Store } from "@docshelf/store";
import { collections, type DocumentDoc, type RevisionDoc, type SpaceDoc } from "../models";
import { commitChanges, moveSpace, type RevisionStore } from "./commit";
import { APPLY_TURN_WEIGHT, applyChanges, applyChangesInTurns, type Change } from "./tree";

describe("commitChanges", () => {
  let store: Store;
  let service: RevisionStore & { announced: Array<[string, string]> };
  const base: RevisionDoc = { id: "r0", spaceId: "s1", parents: [], type: "edits", pages: [], files: [], reusableContents: [], variables: {}, createdAt: "2026-01-01T00:00:00.000Z" };
  const space = { id: "s1", organizationId: "o1", title: "", emoji: "", visibility: "private", editMode: "live", defaultLevel: "inherit", position: 0, revision: "r0", comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, createdAt: base.createdAt, updatedAt: base.createdAt } as SpaceDoc;

  beforeEach(async () => {
    store = await openStore("content", { memory: true });
    const announced: Array<[string, string]> = [];
    service = {
      spaces: await store.collection<SpaceDoc>(collections.spaces),
      revisions: await store.collection<RevisionDoc>(collections.revisions),
      documents: await store.collection<DocumentDoc>(collections.documents),
      nowIso: () => "2026-01-02T00:00:00.000Z",
      revisionChanged: async (spaceId, revisionId) => void announced.push([spaceId, revisionId]),
      announced,
    };
    await service.revisions.insert(base);
    await service.spaces.insert(space);
  });
  afterEach(() => store.close());

  const insert = [{ type: "insert_page" as const, title: "Hello", markdown: "Hi" }];

  test("with move: stores the revision and its bodies, moves the space and announces it", async () => {
    const { revision, inserted } = await commitChanges(service, space, base, insert, { move: true });
    expect(revision.parents).toEqual(["r0"]);
    expect(inserted).toHaveLength(1);
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe(revision.id);
    expect(await service.revisions.findOne({ id: revision.id })).toBeTruthy();
    expect(await service.documents.findOne({ id: revision.pages[0].documentId! })).toMatchObject({ markdown: "Hi" });
    expect(service.announced).toEqual([["s1", revision.id]]);
  });

  test("with move, when the space moved first: 409, the new revision removed, nothing announced", async () => {
    await service.spaces.updateOne({ id: "s1" }, { $set: { revision: "elsewhere" } });
    await expect(commitChanges(service, space, base, insert, { move: true })).rejects.toBeInstanceOf(ConflictError);
    expect(await service.revisions.find({ spaceId: "s1" })).toHaveLength(1);
    expect(service.announced).toEqual([]);
  });

  test("without move: a standalone revision, the space stays; amend and git shape what is stored", async () => {
    const { revision } = await commitChanges(service, space, base, insert, {
      move: false,
      git: { oid: "abc", message: "m", createdByService: true },
      amend: (applied) => void (applied.pages[0].hidden = true),
    });
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe("r0");
    expect(await service.revisions.findOne({ id: revision.id })).toMatchObject({ git: { oid: "abc" }, pages: [{ hidden: true }] });
    expect(service.announced).toEqual([]);
  });

  test("moveSpace moves only from the expected revision, and never a deleted space", async () => {
    expect(await moveSpace(service, "s1", "other", "r9")).toBe(false);
    expect(await moveSpace(service, "s1", "r0", "r9")).toBe(true);
    await service.spaces.updateOne({ id: "s1" }, { $set: { deletedAt: "2026-01-03T00:00:00.000Z" } });
    expect(await moveSpace(service, "s1", "r9", "r10")).toBe(false);
    expect(service.announced).toEqual([["s1", "r9"]]);
  });

  /** `n` pages of about `kib` KiB of Markdown each, distinct bodies. */
  const largePages = (n: number, kib: number): Change[] =>
    Array.from({ length: n }, (_, i) => ({ type: "insert_page" as const, title: `P${i}`, markdown: `# P${i}\n\n${`Line ${i}: ${"x".repeat(60)}\n`.repeat(Math.ceil((kib * 1024) / 70))}` }));

  /** `collection` with some of its methods replaced. */
  function replacing<T extends object>(collection: T, methods: Partial<T>): T {
    return new Proxy(collection, {
      get: (target, key) => {
        if (key in methods) return methods[key as keyof T];
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** Counts turns of the event loop (one setImmediate each) until stopped. */
  function turns(): { count(): number; stop(): void } {
    let n = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      n++;
      setImmediate(tick);
    };
    setImmediate(tick);
    return { count: () => n, stop: () => void (running = false) };
  }

  test("a large batch is applied in turns: the event loop runs between its chunks before anything is stored", async () => {
    // 24 pages of 128 KiB: 3 MiB of Markdown parsed and hashed, six turns' worth.
    const changes = largePages(24, 128);
    const ticker = turns();
    let turnsBeforeStoring = -1;
    const documents = service.documents;
    service.documents = replacing(documents, { find: (filter, options) => ((turnsBeforeStoring = turnsBeforeStoring < 0 ? ticker.count() : turnsBeforeStoring), documents.find(filter, options)) });
    const { revision } = await commitChanges(service, space, base, changes, { move: true });
    ticker.stop();
    expect(turnsBeforeStoring).toBeGreaterThanOrEqual(Math.floor((3 * 1024 * 1024) / APPLY_TURN_WEIGHT) - 1);
    expect(revision.pages).toHaveLength(24);
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe(revision.id);
  });

  test("in turns or at once, the same revision content", async () => {
    const changes: Change[] = [...largePages(6, 200), { type: "insert_page", id: "folder", title: "Folder" }, { type: "insert_page", title: "Inner", parent: "folder", markdown: "Inside" }, { type: "set_variables", variables: { a: "1" } }];
    const withIds = changes.map((c, i) => (c.type === "insert_page" && !c.id ? { ...c, id: `p${i}` } : c));
    const atOnce = applyChanges(base, withIds, "2026-01-02T00:00:00.000Z");
    const inTurns = await applyChangesInTurns(base, withIds, "2026-01-02T00:00:00.000Z", 64 * 1024);
    expect(inTurns).toEqual(atOnce);
  });

  test("an invalid change late in a batch applied in turns: nothing stored, the space as before", async () => {
    const changes: Change[] = [...largePages(12, 128), { type: "update_page", page: "missing", title: "x" }];
    await expect(commitChanges(service, space, base, changes, { move: true })).rejects.toThrow(/changes\[12\]\.page/);
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe("r0");
    expect(await service.revisions.find({ spaceId: "s1" })).toHaveLength(1);
    expect(await service.documents.count({})).toBe(0);
    expect(service.announced).toEqual([]);
  });

  test("a store failure midway through the bodies: the commit fails and the space shows nothing of it", async () => {
    const documents = service.documents;
    let stored = 0;
    service.documents = replacing(documents, {
      insert: async (doc) => {
        if (++stored === 5) throw new Error("disk full");
        return documents.insert(doc);
      },
    });
    await expect(commitChanges(service, space, base, largePages(10, 64), { move: true })).rejects.toThrow("disk full");
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe("r0");
    expect(await service.revisions.find({ spaceId: "s1" })).toHaveLength(1);
    expect(service.announced).toEqual([]);
  });

  test("another writer moving the space while a large batch is applied in turns: 409, its revision kept, the new one removed", async () => {
    const changes = largePages(24, 128);
    const committing = commitChanges(service, space, base, changes, { move: true });
    // Between the batch's chunks, another writer's commit lands.
    await new Promise((resolve) => setImmediate(resolve));
    const other = await commitChanges(service, space, base, insert, { move: true });
    await expect(committing).rejects.toBeInstanceOf(ConflictError);
    expect((await service.spaces.findOne({ id: "s1" }))?.revision).toBe(other.revision.id);
    expect((await service.revisions.find({ spaceId: "s1" })).map((r) => r.id).sort()).toEqual(["r0", other.revision.id].sort());
    expect(service.announced).toEqual([["s1", other.revision.id]]);
  });
});
