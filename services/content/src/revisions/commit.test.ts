import { ConflictError } from "@docshelf/errors";
import { openStore, type Store } from "@docshelf/store";
import { collections, type DocumentDoc, type RevisionDoc, type SpaceDoc } from "../models";
import { commitChanges, moveSpace, type RevisionStore } from "./commit";

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
});
