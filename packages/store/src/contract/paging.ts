// Part of the store contract (index.ts) — Sort, limit, keyset cursors and count.
import { cursorOf, normalizeSort } from "../cursor";
import { op } from "../filter";
import type { Sort } from "../types";
import { ids, sortedIds, type Harness, type Rec } from "./harness";

export function pagingContract(h: Harness): void {
  const { fresh, seed, walk } = h;
  describe("sort, limit and keyset cursors", () => {
    test("without a sort, find returns documents in id order", async () => {
      const c = await fresh();
      const docs = await seed(c, [{ n: 3 }, { n: 1 }, { n: 2 }]);
      expect(ids(await c.find({}))).toEqual(ids(docs).sort());
    });

    test("an ascending sort breaks ties by ascending id", async () => {
      const c = await fresh();
      const [a, b, cc, d] = await seed(c, [{ rank: 2 }, { rank: 1 }, { rank: 2 }, { rank: 1 }]);
      expect(ids(await c.find({}, { sort: [["rank", 1]] }))).toEqual([b.id, d.id, a.id, cc.id]);
    });

    test("a descending sort breaks ties by descending id", async () => {
      const c = await fresh();
      const [a, b, cc, d] = await seed(c, [{ rank: 2 }, { rank: 1 }, { rank: 2 }, { rank: 1 }]);
      expect(ids(await c.find({}, { sort: [["rank", -1]] }))).toEqual([cc.id, a.id, d.id, b.id]);
    });

    test("an explicit id direction in the sort decides the tie-break", async () => {
      const c = await fresh();
      const [a, b, cc, d] = await seed(c, [{ rank: 2 }, { rank: 1 }, { rank: 2 }, { rank: 1 }]);
      expect(ids(await c.find({}, { sort: [["rank", 1], ["id", -1]] }))).toEqual([d.id, b.id, cc.id, a.id]);
      expect(ids(await c.find({}, { sort: [["id", -1]] }))).toEqual([d.id, cc.id, b.id, a.id]);
    });

    test("a sort on two fields orders by the first, then the second, then id", async () => {
      const c = await fresh();
      const [a, b, cc, d] = await seed(c, [
        { g: "x", n: 2 },
        { g: "y", n: 1 },
        { g: "x", n: 1 },
        { g: "x", n: 2 },
      ]);
      expect(ids(await c.find({}, { sort: [["g", 1], ["n", -1]] }))).toEqual([d.id, a.id, cc.id, b.id]);
    });

    test("limit returns the first documents in sort order", async () => {
      const c = await fresh();
      const docs = await seed(c, [{ n: 5 }, { n: 4 }, { n: 3 }, { n: 2 }, { n: 1 }]);
      expect(ids(await c.find({}, { sort: [["n", 1]], limit: 2 }))).toEqual([docs[4].id, docs[3].id]);
      expect(await c.find({}, { limit: 10 })).toHaveLength(5);
    });

    test("a keyset cursor continues just after the document it was made from", async () => {
      const c = await fresh();
      const [a, b, cc, d] = await seed(c, [{ rank: 1 }, { rank: 1 }, { rank: 2 }, { rank: 3 }]);
      const sort: Sort = [["rank", 1]];
      const after = cursorOf(normalizeSort(sort), b);
      expect(ids(await c.find({}, { sort, after }))).toEqual([cc.id, d.id]);
      expect(ids(await c.find({}, { sort, after: cursorOf(normalizeSort(sort), a), limit: 1 }))).toEqual([b.id]);
      expect(await c.find({}, { sort, after: cursorOf(normalizeSort(sort), d) })).toEqual([]);
    });

    test.each([
      ["ascending", [["rank", 1]] as Sort],
      ["descending", [["rank", -1]] as Sort],
      ["by id only", [] as Sort],
      ["on two fields", [["group", 1], ["rank", -1]] as Sort],
    ])("walking pages %s visits every document exactly once, in order", async (_what, sort) => {
      const c = await fresh();
      const docs = await seed(
        c,
        Array.from({ length: 23 }, (_, i) => ({ rank: i % 5, group: i % 2 === 0 ? "even" : "odd" })),
      );
      const all = await c.find({}, { sort });
      expect(sortedIds(all)).toEqual(sortedIds(docs));
      for (const pageSize of [1, 4, 23, 50]) {
        expect(ids(await walk(c, {}, sort, pageSize))).toEqual(ids(all));
      }
    });

    test("walking pages with a filter visits only and every matching document", async () => {
      const c = await fresh();
      const docs = await seed(c, Array.from({ length: 15 }, (_, i) => ({ rank: i % 3, keep: i % 2 === 0 })));
      const walked = await walk(c, { keep: true }, [["rank", 1]], 2);
      expect(sortedIds(walked)).toEqual(sortedIds(docs.filter((d) => d.keep)));
    });

    test("walking pages sorted on a field that some documents lack visits every document exactly once", async () => {
      const c = await fresh();
      const docs = await seed(c, Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? {} : { title: `t${i % 4}` })));
      for (const sort of [[["title", 1]], [["title", -1]]] as Sort[]) {
        const all = await c.find({}, { sort });
        expect(sortedIds(all)).toEqual(sortedIds(docs));
        for (const pageSize of [1, 2, 5]) expect(ids(await walk(c, {}, sort, pageSize))).toEqual(ids(all));
      }
    });

    test("walking pages sorted on a boolean field visits every document exactly once", async () => {
      const c = await fresh();
      const docs = await seed(c, Array.from({ length: 9 }, (_, i) => ({ done: i % 2 === 0 })));
      for (const sort of [[["done", 1]], [["done", -1]]] as Sort[]) {
        const all = await c.find({}, { sort });
        expect(sortedIds(all)).toEqual(sortedIds(docs));
        expect(ids(await walk(c, {}, sort, 2))).toEqual(ids(all));
      }
    });

    test("documents inserted between pages never make another appear twice or be skipped", async () => {
      const c = await fresh();
      const originals = await seed(c, Array.from({ length: 20 }, (_, i) => ({ rank: Math.floor(i / 2) })));
      const behind: string[] = [];
      const ahead: string[] = [];
      const walked = await walk(c, {}, [["rank", 1]], 3, async (last) => {
        // One before the cursor (must not show up), one tied with it but newer and one at the end (must show up once).
        const [before, tied, end] = await seed(c, [{ rank: -1 }, { rank: last.rank }, { rank: 1000 + ahead.length }]);
        behind.push(before.id);
        ahead.push(tied.id, end.id);
      });
      const seen = ids(walked);
      expect(new Set(seen).size).toBe(seen.length);
      for (const doc of originals) expect(seen.filter((id) => id === doc.id)).toHaveLength(1);
      for (const id of ahead) expect(seen).toContain(id);
      for (const id of behind) expect(seen).not.toContain(id);
      const ranks = walked.map((d) => d.rank as number);
      expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    });
  });

  describe("a compound index ordered by its last field", () => {
    test("a group's pages and count agree with an unindexed collection's, across inserts, updates that move documents and deletes", async () => {
      const spec = [{ fields: ["space", "thread", "at"] }, { fields: ["space", "status", "n"] }];
      const indexed = await fresh(spec);
      const plain = await fresh();
      const both = async (doc: Record<string, unknown>) => {
        const [a] = await seed(indexed, [doc]);
        await plain.insert({ ...a });
        return a;
      };
      const made: Rec[] = [];
      for (let i = 0; i < 40; i++) {
        const doc: Record<string, unknown> = { space: i % 3 === 0 ? "s2" : "s1", at: `2026-01-${String(10 + (i % 7)).padStart(2, "0")}`, status: i % 2 ? "open" : "draft", n: i };
        if (i % 4 === 1) doc.thread = `t${i % 3}`;
        else if (i % 4 === 2) doc.thread = null; // null and missing are one value
        if (i % 9 === 5) delete doc.at;
        made.push(await both(doc));
      }
      const check = async () => {
        const filters = [
          { space: "s1", thread: null },
          { space: "s1", thread: "t1" },
          { space: "s2", thread: null },
          { space: "s9", thread: null },
          { space: "s1", status: "open" },
          { space: "s2", status: "draft" },
        ];
        for (const filter of filters) {
          expect(await indexed.count(filter)).toBe(await plain.count(filter));
          for (const sort of [[["at", -1]], [["at", 1]], [["n", -1]], [["n", 1]], [["at", -1], ["id", 1]]] as Sort[]) {
            const want = ids(await plain.find(filter, { sort }));
            expect(ids(await indexed.find(filter, { sort }))).toEqual(want);
            expect(ids(await indexed.find(filter, { sort, limit: 3 }))).toEqual(want.slice(0, 3));
            for (const pageSize of [1, 4]) expect(ids(await walk(indexed, filter, sort, pageSize))).toEqual(want);
          }
        }
      };
      await check();
      for (const doc of made.slice(0, 10)) {
        const change = { $set: { thread: doc.thread ? null : "t1", at: "2026-01-12", status: "open" } };
        await indexed.updateOne({ id: doc.id }, change);
        await plain.updateOne({ id: doc.id }, change);
      }
      for (const doc of made.slice(10, 16)) {
        await indexed.deleteOne({ id: doc.id });
        await plain.deleteOne({ id: doc.id });
      }
      await indexed.deleteMany({ space: "s2", status: "draft" });
      await plain.deleteMany({ space: "s2", status: "draft" });
      await check();
      // A page answered from the index is a copy: changing it changes nothing stored.
      const [first] = await indexed.find({ space: "s1", thread: null }, { sort: [["at", -1]], limit: 1 });
      first.at = "changed";
      expect((await indexed.find({ space: "s1", thread: null }, { sort: [["at", -1]], limit: 1 }))[0].at).not.toBe("changed");
    });

    test("an insert refused by a unique index leaves no trace in a group's pages", async () => {
      const c = await fresh([{ fields: ["space", "at"] }, { fields: ["key"], unique: true }]);
      await seed(c, [{ space: "s", at: "1", key: "a" }]);
      await expect(c.insert({ id: "zz-dup", space: "s", at: "2", key: "a" })).rejects.toThrow();
      expect(ids(await c.find({ space: "s" }, { sort: [["at", -1]] }))).toHaveLength(1);
      expect(await c.count({ space: "s" })).toBe(1);
    });
  });

  describe("count", () => {
    test("count tells how many documents match a filter", async () => {
      const c = await fresh();
      await seed(c, [{ g: "a", n: 1 }, { g: "a", n: 2 }, { g: "b", n: 3 }]);
      expect(await c.count({})).toBe(3);
      expect(await c.count({ g: "a" })).toBe(2);
      expect(await c.count({ n: op.gte(2) })).toBe(2);
      expect(await c.count({ g: "zzz" })).toBe(0);
    });
  });
}
