import type { Collection, Update } from "@docshelf/store";
import { announcedSpaces, announces, touchedFields } from "./spaces-announced";
import type { SpaceDoc } from "./models";

const space = { id: "s1", organizationId: "o1" } as SpaceDoc;

function fakeSpaces(): Collection<SpaceDoc> {
  return {
    name: "spaces",
    find: async () => [space],
    findOne: async () => space,
    count: async () => 1,
    insert: async (doc) => doc,
    updateOne: async () => space,
    compareAndSwap: async () => true,
    deleteOne: async () => true,
    deleteMany: async () => 2,
  };
}

describe("the spaces collection announces access changes", () => {
  test("fields are read from every update operator, by their top-level name", () => {
    expect(touchedFields({ $set: { title: "x", "grants.user:u1": "read" }, $unset: ["parent"], $inc: { comments: 1 } })).toEqual(["title", "grants", "parent", "comments"]);
  });

  const cases: Array<[Update<SpaceDoc>, boolean]> = [
    [{ $set: { title: "New", updatedAt: "t" } }, false],
    [{ $set: { emoji: "", comments: 3, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 } }, false],
    [{ $set: { gitSync: { repoName: "r", integration: "github", url: "u", updatedAt: "t" } }, $unset: [] }, false],
    [{ $unset: ["gitSync"] }, false],
    [{ $set: { revision: "r2", updatedAt: "t" } }, true],
    [{ $set: { defaultLevel: "admin" } }, true],
    [{ $set: { "grants.team:t1": "edit" } }, true],
    [{ $unset: ["grants.user:u1"] }, true],
    [{ $set: { deletedAt: "t" } }, true],
    [{ $unset: ["deletedAt"] }, true],
    [{ $set: { organizationId: "o2" }, $unset: ["parent", "grants"] }, true],
    [{ $set: { parent: "c1", position: 3 } }, true],
    [{ $set: { visibility: "public" } }, true],
    [{ $set: { editMode: "locked" } }, true],
    // A field added later is announced until it is known not to matter.
    [{ $set: { somethingNew: 1 } }, true],
  ];
  test.each(cases)("%j announces: %s", (update, expected) => {
    expect(announces(update)).toBe(expected);
  });

  test("each write that may change access broadcasts before it returns; reads, inserts and count updates do not", async () => {
    const sent: Array<{ event: string; payload: unknown }> = [];
    let returned = 0;
    const broker = {
      broadcast: async (event: string, payload: unknown) => void sent.push({ event, payload: { ...(payload as object), returnedBefore: returned } }),
      emit: async () => undefined,
    };
    const spaces = announcedSpaces(fakeSpaces(), broker);
    await spaces.find({});
    await spaces.findOne({ id: "s1" });
    await spaces.insert({ ...space, id: "s2" });
    await spaces.updateOne({ id: "s1" }, { $set: { comments: 2 } });
    expect(sent).toEqual([]);
    await spaces.updateOne({ id: "s1" }, { $set: { revision: "r2" } });
    returned++;
    await spaces.compareAndSwap("s1", "revision", "r2", "r3");
    returned++;
    await spaces.compareAndSwap("s1", "title", "a", "b");
    await spaces.deleteOne({ id: "s1" });
    returned++;
    await spaces.deleteMany({ organizationId: "o1" });
    expect(sent).toEqual([
      { event: "content.space.access.changed", payload: { spaceId: "s1", organizationId: "o1", returnedBefore: 0 } },
      { event: "content.space.access.changed", payload: { spaceId: "s1", organizationId: null, returnedBefore: 1 } },
      { event: "content.space.access.changed", payload: { spaceId: "s1", organizationId: null, returnedBefore: 2 } },
      { event: "content.space.access.changed", payload: { spaceId: null, organizationId: null, returnedBefore: 3 } },
    ]);
  });
});
