// Part of the store contract (index.ts) — Writes: updateOne, compareAndSwap and delete.
import { BadRequestError } from "@docshelf/errors";
import { op, type Primitive } from "../filter";
import { newId } from "../ids";
import { hostile, ids, type Harness } from "./harness";

export function writesContract(h: Harness): void {
  const { fresh, seed } = h;
  describe("updateOne", () => {
    test("$set changes fields and returns the updated document", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ name: "old", keep: 1 }]);
      const updated = await c.updateOne({ id: doc.id }, { $set: { name: "new", "meta.kind": "page" } });
      expect(updated).toEqual({ id: doc.id, name: "new", keep: 1, meta: { kind: "page" } });
      expect(await c.findOne({ id: doc.id })).toEqual(updated);
    });

    test("$set never changes a document's id", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ name: "old" }]);
      const updated = await c.updateOne({ id: doc.id }, { $set: { id: "other", name: "new" } });
      expect(updated).toEqual({ id: doc.id, name: "new" });
      expect(await c.findOne({ id: "other" })).toBeNull();
    });

    test("$unset removes fields", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ a: 1, b: 2, c: 3 }]);
      expect(await c.updateOne({ id: doc.id }, { $unset: ["a", "c"] })).toEqual({ id: doc.id, b: 2 });
      expect(await c.count({ a: op.exists(true) })).toBe(0);
    });

    test("$inc adds to numbers and starts a missing field from zero", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ version: 1 }]);
      expect(await c.updateOne({ id: doc.id }, { $inc: { version: 2, views: 1 } })).toEqual({ id: doc.id, version: 3, views: 1 });
      expect(await c.updateOne({ id: doc.id }, { $inc: { version: -1 } })).toMatchObject({ version: 2 });
    });

    test("$push appends to an array and creates a missing one", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ tags: ["a"] }]);
      expect(await c.updateOne({ id: doc.id }, { $push: { tags: "b", events: { at: 1 } } })).toEqual({
        id: doc.id,
        tags: ["a", "b"],
        events: [{ at: 1 }],
      });
    });

    test("$pull removes every occurrence of a value from an array", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ tags: ["a", "b", "a", "c"] }]);
      expect(await c.updateOne({ id: doc.id }, { $pull: { tags: "a" } })).toEqual({ id: doc.id, tags: ["b", "c"] });
    });

    test("several modifiers apply together in one update", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ name: "x", gone: true, n: 1, tags: ["a"] }]);
      const updated = await c.updateOne({ id: doc.id }, { $set: { name: "y" }, $unset: ["gone"], $inc: { n: 1 }, $push: { tags: "b" } });
      expect(updated).toEqual({ id: doc.id, name: "y", n: 2, tags: ["a", "b"] });
    });

    test("concurrent $inc updates of one counter all count, and each sees a distinct value", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ last: 0 }]);
      const seen = await Promise.all(Array.from({ length: 12 }, () => c.updateOne({ id: doc.id }, { $inc: { last: 1 } })));
      expect(seen.map((d) => d?.last).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(await c.findOne({ id: doc.id })).toEqual({ id: doc.id, last: 12 });
    });

    test("concurrent conditional updates on a version field: exactly one of those expecting the same version applies", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ version: 1, state: "a", kind: "x" }]);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => c.updateOne({ kind: "x", version: 1 }, { $set: { state: `w${i}` }, $inc: { version: 1 } })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await c.findOne({ id: doc.id })).toMatchObject({ version: 2 });
    });

    test("updateOne returns null and changes nothing when no document matches", async () => {
      const c = await fresh();
      const docs = await seed(c, [{ name: "a" }]);
      expect(await c.updateOne({ name: "b" }, { $set: { name: "c" } })).toBeNull();
      expect(await c.updateOne({ id: newId() }, { $inc: { n: 1 } })).toBeNull();
      expect(await c.find({})).toEqual(docs);
    });

    test("a conditional update applies once: the second with the same condition matches nothing", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ version: 1, body: "v1" }]);
      const first = await c.updateOne({ id: doc.id, version: 1 }, { $set: { body: "v2" }, $inc: { version: 1 } });
      expect(first).toEqual({ id: doc.id, version: 2, body: "v2" });
      const second = await c.updateOne({ id: doc.id, version: 1 }, { $set: { body: "lost" }, $inc: { version: 1 } });
      expect(second).toBeNull();
      expect(await c.findOne({ id: doc.id })).toEqual(first);
    });

    test("updateOne changes only one document when several match", async () => {
      const c = await fresh();
      await seed(c, [{ g: "a" }, { g: "a" }]);
      expect(await c.updateOne({ g: "a" }, { $set: { g: "b" } })).toMatchObject({ g: "b" });
      expect(await c.count({ g: "a" })).toBe(1);
    });

    test("an update with no change returns the matching document unchanged", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ name: "a" }]);
      expect(await c.updateOne({ id: doc.id }, {})).toEqual(doc);
      expect(await c.updateOne({ id: newId() }, {})).toBeNull();
    });
  });

  describe("compareAndSwap", () => {
    test("a compare-and-swap with the current value sets the new one and says so", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ state: "open" }]);
      expect(await c.compareAndSwap(doc.id, "state", "open", "closed")).toBe(true);
      expect(await c.findOne({ id: doc.id })).toEqual({ id: doc.id, state: "closed" });
    });

    test("a stale compare-and-swap leaves the value unchanged and says so", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ state: "open" }]);
      expect(await c.compareAndSwap(doc.id, "state", "open", "closed")).toBe(true);
      expect(await c.compareAndSwap(doc.id, "state", "open", "reopened")).toBe(false);
      expect(await c.findOne({ id: doc.id })).toEqual({ id: doc.id, state: "closed" });
    });

    test("a compare-and-swap on a missing document is false", async () => {
      const c = await fresh();
      expect(await c.compareAndSwap(newId(), "state", "open", "closed")).toBe(false);
      expect(await c.count({})).toBe(0);
    });

    test("a compare-and-swap that expects null claims a field that is missing, once", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ name: "job" }]);
      expect(await c.compareAndSwap(doc.id, "owner", null, "worker-1")).toBe(true);
      expect(await c.compareAndSwap(doc.id, "owner", null, "worker-2")).toBe(false);
      expect(await c.findOne({ id: doc.id })).toEqual({ id: doc.id, name: "job", owner: "worker-1" });
    });

    test("a compare-and-swap to the value the field already holds succeeds", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ n: 1 }]);
      expect(await c.compareAndSwap(doc.id, "n", 1, 1)).toBe(true);
    });

    test("of concurrent compare-and-swaps expecting the same value exactly one wins", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ holder: "nobody" }]);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => c.compareAndSwap(doc.id, "holder", "nobody", `worker-${i}`)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(await c.findOne({ id: doc.id })).toEqual({ id: doc.id, holder: `worker-${winner}` });
    });

    test("a compare-and-swap with an id or expected value shaped like an operator is rejected with 400", async () => {
      const c = await fresh();
      const [doc] = await seed(c, [{ state: "open" }]);
      const byId = await c.compareAndSwap(hostile<string>({ $ne: null }), "state", "open", "taken").catch((e: unknown) => e);
      expect(byId).toBeInstanceOf(BadRequestError);
      const byValue = await c.compareAndSwap(doc.id, "state", hostile<Primitive>({ $ne: "x" }), "taken").catch((e: unknown) => e);
      expect(byValue).toBeInstanceOf(BadRequestError);
      const byField = await c.compareAndSwap(doc.id, "$where", "open", "taken").catch((e: unknown) => e);
      expect(byField).toBeInstanceOf(BadRequestError);
      expect(await c.findOne({ id: doc.id })).toEqual(doc);
    });
  });

  describe("delete", () => {
    test("deleteOne removes one matching document and tells whether it did", async () => {
      const c = await fresh();
      const [a, b] = await seed(c, [{ g: "x" }, { g: "x" }]);
      expect(await c.deleteOne({ id: a.id })).toBe(true);
      expect(await c.deleteOne({ id: a.id })).toBe(false);
      expect(await c.findOne({ id: a.id })).toBeNull();
      expect(ids(await c.find({}))).toEqual([b.id]);
    });

    test("deleteOne removes only one document when several match", async () => {
      const c = await fresh();
      await seed(c, [{ g: "x" }, { g: "x" }, { g: "x" }]);
      expect(await c.deleteOne({ g: "x" })).toBe(true);
      expect(await c.count({ g: "x" })).toBe(2);
    });

    test("deleteMany removes every matching document and returns how many", async () => {
      const c = await fresh();
      const [, , keep] = await seed(c, [{ g: "x" }, { g: "x" }, { g: "y" }]);
      expect(await c.deleteMany({ g: "x" })).toBe(2);
      expect(await c.deleteMany({ g: "x" })).toBe(0);
      expect(await c.find({})).toEqual([keep]);
    });
  });
}
