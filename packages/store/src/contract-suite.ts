// The store contract as a reusable jest suite: every adapter must pass it unchanged.
// Test-only: excluded from the build (tsconfig.build.json) and registered by store.test.ts.
import { BadRequestError, ConflictError } from "@docshelf/errors";
import { cursorOf, normalizeSort } from "./cursor";
import { op, type Filter, type Primitive } from "./filter";
import { newId } from "./ids";
import { sha256Of } from "./blobs";
import type { Collection, Cursor, Doc, IndexSpec, Sort, Store } from "./types";

export interface ContractOptions {
  /** The store keeps its data when closed: `open()` again must see what an earlier store wrote. */
  persistent?: boolean;
}

type Rec = Doc & Record<string, unknown>;

/** Something that came from a request body, shaped to look like a query operator. */
function hostile<T>(value: unknown): T {
  return value as T;
}

function ids(docs: Array<{ id: string }>): string[] {
  return docs.map((d) => d.id);
}

function sortedIds(docs: Array<{ id: string }>): string[] {
  return ids(docs).sort();
}

/** Registers the contract's tests for the store that `open` returns (a fresh or reopened one per call). */
export function runStoreContract(name: string, open: () => Promise<Store>, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    const opened: Store[] = [];
    const used: Array<Collection<Rec>> = [];
    let seq = 0;

    async function openStore(): Promise<Store> {
      const store = await open();
      opened.push(store);
      return store;
    }

    /** A collection name no other test (or earlier run against the same database) uses. */
    function uniqueName(): string {
      seq += 1;
      return `c${seq}x${newId().slice(-6)}`;
    }

    async function fresh(indexes: IndexSpec[] = [], store?: Store, name = uniqueName()): Promise<Collection<Rec>> {
      const s = store ?? (await openStore());
      const collection = await s.collection<Rec>({ name, indexes });
      used.push(collection);
      return collection;
    }

    async function seed(collection: Collection<Rec>, docs: Array<Record<string, unknown>>): Promise<Rec[]> {
      const out: Rec[] = [];
      for (const doc of docs) out.push(await collection.insert({ id: newId(), ...doc } as Rec));
      return out;
    }

    /** Walks `find` page by page with keyset cursors, calling `between` after each full page. */
    async function walk(
      collection: Collection<Rec>,
      filter: Filter,
      sort: Sort,
      pageSize: number,
      between?: (lastSeen: Rec) => Promise<void>,
    ): Promise<Rec[]> {
      const seen: Rec[] = [];
      let after: Cursor | undefined;
      for (let pages = 0; pages < 1000; pages++) {
        const page = await collection.find(filter, { sort, limit: pageSize, after });
        expect(page.length).toBeLessThanOrEqual(pageSize);
        seen.push(...page);
        if (page.length < pageSize) return seen;
        const last = page[page.length - 1];
        after = cursorOf(normalizeSort(sort), last);
        if (between) await between(last);
      }
      throw new Error("the walk did not end");
    }

    afterEach(async () => {
      // Leave nothing behind (a MongoDB database outlives the test run), then close every store.
      for (const collection of used.splice(0)) await collection.deleteMany({}).catch(() => undefined);
      for (const store of opened.splice(0)) if (store.isOpen()) await store.close();
    });

    describe("documents", () => {
      test("an inserted document round-trips with id and without _id", async () => {
        const c = await fresh();
        const id = newId();
        const inserted = await c.insert({ id, name: "Ada", nested: { a: 1, list: [1, "two"] }, flag: false, none: null });
        expect(inserted).toEqual({ id, name: "Ada", nested: { a: 1, list: [1, "two"] }, flag: false, none: null });
        const found = await c.findOne({ id });
        expect(found).toEqual(inserted);
        expect(found).not.toHaveProperty("_id");
        const [listed] = await c.find({ id });
        expect(listed).toEqual(inserted);
        expect(listed).not.toHaveProperty("_id");
      });

      test("findOne returns null when no document matches", async () => {
        const c = await fresh();
        await seed(c, [{ name: "a" }]);
        expect(await c.findOne({ name: "b" })).toBeNull();
        expect(await c.findOne({ id: newId() })).toBeNull();
      });

      test("a read by id alone and a read by id with other fields agree, and both see an update once it answered", async () => {
        const c = await fresh();
        const [a] = await seed(c, [{ name: "a", nested: { n: 1 } }]);
        expect(await c.findOne({ id: a.id, name: "b" })).toBeNull();
        expect(await c.findOne({ id: a.id, name: "a" })).toEqual(a);
        await c.updateOne({ id: a.id }, { $set: { name: "b" } });
        expect(await c.findOne({ id: a.id })).toEqual({ ...a, name: "b" });
        expect(await c.findOne({ id: a.id, name: undefined })).toEqual({ ...a, name: "b" });
        await c.deleteOne({ id: a.id });
        expect(await c.findOne({ id: a.id })).toBeNull();
      });

      test("inserting a second document with the same id throws a 409 ConflictError", async () => {
        const c = await fresh();
        const [a] = await seed(c, [{ name: "a" }]);
        const err = await c.insert({ id: a.id, name: "b" }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(err).toMatchObject({ code: 409 });
        expect(await c.findOne({ id: a.id })).toEqual(a);
      });

      test("changing a document after inserting or reading it does not change what is stored", async () => {
        const c = await fresh();
        const input: Rec = { id: newId(), name: "kept", tags: ["x"] };
        const inserted = await c.insert(input);
        input.name = "changed";
        (input.tags as string[]).push("y");
        inserted.name = "changed too";
        const read = await c.findOne({ id: input.id });
        read!.name = "changed as well";
        (read!.tags as string[]).push("z");
        expect(await c.findOne({ id: input.id })).toEqual({ id: input.id, name: "kept", tags: ["x"] });
      });

      test("a collection opened twice in one store shares its documents", async () => {
        const store = await openStore();
        const name = uniqueName();
        const first = await fresh([], store, name);
        const second = await fresh([], store, name);
        const [doc] = await seed(first, [{ name: "shared" }]);
        expect(await second.findOne({ id: doc.id })).toEqual(doc);
        await second.updateOne({ id: doc.id }, { $set: { name: "changed" } });
        expect(await first.findOne({ id: doc.id })).toEqual({ id: doc.id, name: "changed" });
      });

      test("a closed store says it is not open", async () => {
        const store = await openStore();
        expect(store.isOpen()).toBe(true);
        await store.close();
        expect(store.isOpen()).toBe(false);
      });
    });

    describe("filters", () => {
      test("equality filters on several fields match only documents equal on all of them", async () => {
        const c = await fresh();
        const [, b] = await seed(c, [
          { org: "o1", role: "admin" },
          { org: "o1", role: "read" },
          { org: "o2", role: "read" },
        ]);
        expect(ids(await c.find({ org: "o1", role: "read" }))).toEqual([b.id]);
        expect(await c.findOne({ org: "o1", role: "read" })).toEqual(b);
        expect(await c.count({ org: "o1", role: "read" })).toBe(1);
      });

      test("an empty filter matches every document and an undefined filter value is ignored", async () => {
        const c = await fresh();
        const docs = await seed(c, [{ n: 1 }, { n: 2 }, { n: 3 }]);
        expect(ids(await c.find({}))).toEqual(ids(docs));
        expect(ids(await c.find({ n: undefined }))).toEqual(ids(docs));
        expect(await c.count({})).toBe(3);
      });

      test("equality matches numbers, booleans and dotted paths into nested objects exactly", async () => {
        const c = await fresh();
        const [one, , yes] = await seed(c, [
          { n: 1, b: false, meta: { kind: "page" } },
          { n: 10, b: false, meta: { kind: "group" } },
          { n: 2, b: true, meta: { kind: "page" } },
        ]);
        expect(ids(await c.find({ n: 1 }))).toEqual([one.id]);
        expect(ids(await c.find({ b: true }))).toEqual([yes.id]);
        expect(ids(await c.find({ "meta.kind": "page" }))).toEqual([one.id, yes.id]);
        expect(await c.find({ n: "1" })).toEqual([]);
      });

      test("equality with null matches documents where the field is null or missing", async () => {
        const c = await fresh();
        const [isNull, missing] = await seed(c, [{ owner: null }, {}, { owner: "u1" }]);
        expect(sortedIds(await c.find({ owner: null }))).toEqual(sortedIds([isNull, missing]));
        expect(await c.count({ owner: null })).toBe(2);
      });

      test("comparison operators select by order", async () => {
        const c = await fresh();
        const docs = await seed(c, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
        const byN = (...ns: number[]) => ids(docs.filter((d) => ns.includes(d.n as number)));
        expect(ids(await c.find({ n: op.gt(2) }))).toEqual(byN(3, 4));
        expect(ids(await c.find({ n: op.gte(2) }))).toEqual(byN(2, 3, 4));
        expect(ids(await c.find({ n: op.lt(2) }))).toEqual(byN(1));
        expect(ids(await c.find({ n: op.lte(2) }))).toEqual(byN(1, 2));
        expect(ids(await c.find({ n: op.ne(2) }))).toEqual(byN(1, 3, 4));
      });

      test("op.in and op.nin select by membership in a list", async () => {
        const c = await fresh();
        const [a, b, cc] = await seed(c, [{ v: "a" }, { v: "b" }, { v: "c" }]);
        expect(ids(await c.find({ v: op.in(["a", "c", "zz"]) }))).toEqual([a.id, cc.id]);
        expect(ids(await c.find({ v: op.nin(["a", "c"]) }))).toEqual([b.id]);
        expect(ids(await c.find({ id: op.in([b.id, cc.id]) }))).toEqual([b.id, cc.id]);
        expect(await c.find({ v: op.in([]) })).toEqual([]);
      });

      test("null in op.in and op.nin stands for null or missing", async () => {
        const c = await fresh();
        const [isNull, missing, set] = await seed(c, [{ v: null }, {}, { v: "x" }]);
        expect(sortedIds(await c.find({ v: op.in([null]) }))).toEqual(sortedIds([isNull, missing]));
        expect(sortedIds(await c.find({ v: op.in([null, "x"]) }))).toEqual(sortedIds([isNull, missing, set]));
        expect(ids(await c.find({ v: op.nin([null]) }))).toEqual([set.id]);
      });

      test("op.ne(null) matches only documents where the field is present and not null", async () => {
        const c = await fresh();
        const [, , set] = await seed(c, [{ v: null }, {}, { v: "x" }]);
        expect(ids(await c.find({ v: op.ne(null) }))).toEqual([set.id]);
      });

      test("op.exists tells documents that have a field from those that lack it", async () => {
        const c = await fresh();
        const [deleted, live] = await seed(c, [{ deletedAt: 5 }, { name: "x" }]);
        expect(ids(await c.find({ deletedAt: op.exists(false) }))).toEqual([live.id]);
        expect(ids(await c.find({ deletedAt: op.exists(true) }))).toEqual([deleted.id]);
      });

      test("op.contains matches a substring case-insensitively", async () => {
        const c = await fresh();
        const [a, b] = await seed(c, [{ title: "Hello World" }, { title: "say HELLO there" }, { title: "Goodbye" }, { n: 1 }]);
        expect(ids(await c.find({ title: op.contains("hello") }))).toEqual([a.id, b.id]);
        expect(ids(await c.find({ title: op.contains("WORLD") }))).toEqual([a.id]);
      });

      test("op.contains matches regular-expression characters literally", async () => {
        const c = await fresh();
        const [dot, , plus, paren, star] = await seed(c, [
          { title: "a.c" },
          { title: "abc" },
          { title: "1+1=2" },
          { title: "call f(x" },
          { title: "*.md" },
        ]);
        expect(ids(await c.find({ title: op.contains("a.c") }))).toEqual([dot.id]);
        expect(ids(await c.find({ title: op.contains("1+1") }))).toEqual([plus.id]);
        expect(ids(await c.find({ title: op.contains("f(x") }))).toEqual([paren.id]);
        expect(ids(await c.find({ title: op.contains("*.") }))).toEqual([star.id]);
        expect(await c.find({ title: op.contains(".*") })).toEqual([]);
        expect(await c.find({ title: op.contains("^a") })).toEqual([]);
      });

      const hostileFilters: Array<[string, Filter]> = [
        ["an object value", hostile({ email: { $ne: null } })],
        ["a $regex object value", hostile({ email: { $regex: ".*" } })],
        ["an array value", hostile({ email: ["a@x.test", "b@x.test"] })],
        ["a field named like an operator", hostile({ $where: "return true" })],
        ["a field named __proto__", hostile(JSON.parse('{"__proto__": null}'))],
      ];

      test.each(hostileFilters)("a filter with %s from request input is rejected with 400 and changes nothing", async (_what, filter) => {
        const c = await fresh();
        const docs = await seed(c, [{ email: "a@x.test", n: 1 }, { email: "b@x.test", n: 2 }]);
        const calls: Array<[string, () => Promise<unknown>]> = [
          ["find", () => c.find(filter)],
          ["findOne", () => c.findOne(filter)],
          ["count", () => c.count(filter)],
          ["updateOne", () => c.updateOne(filter, { $set: { n: 99 } })],
          ["deleteOne", () => c.deleteOne(filter)],
          ["deleteMany", () => c.deleteMany(filter)],
        ];
        for (const [method, call] of calls) {
          const err = await call().then(
            (value) => ({ resolved: method, value }),
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(BadRequestError);
          expect(err).toMatchObject({ code: 400 });
        }
        expect(await c.find({})).toEqual(docs);
      });

      test("an op.in list carrying an object from request input is rejected with 400", async () => {
        const c = await fresh();
        await seed(c, [{ email: "a@x.test" }]);
        const err = await c.find({ email: op.in(hostile<Primitive[]>([{ $ne: null }])) }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BadRequestError);
        expect(err).toMatchObject({ code: 400 });
      });
    });

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

    describe("unique indexes", () => {
      test("inserting a duplicate of a unique field throws a 409 ConflictError and stores nothing", async () => {
        const c = await fresh([{ fields: ["email"], unique: true }]);
        await seed(c, [{ email: "a@x.test" }]);
        const err = await c.insert({ id: newId(), email: "a@x.test" }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(err).toMatchObject({ code: 409 });
        expect(await c.count({})).toBe(1);
      });

      test("updating a document to a taken unique value throws a 409 ConflictError and leaves it unchanged", async () => {
        const c = await fresh([{ fields: ["email"], unique: true }]);
        const [, b] = await seed(c, [{ email: "a@x.test" }, { email: "b@x.test" }]);
        const err = await c.updateOne({ id: b.id }, { $set: { email: "a@x.test" } }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(err).toMatchObject({ code: 409 });
        expect(await c.findOne({ id: b.id })).toEqual(b);
      });

      test("a compare-and-swap to a taken unique value throws a 409 ConflictError", async () => {
        const c = await fresh([{ fields: ["slug"], unique: true }]);
        const [, b] = await seed(c, [{ slug: "a" }, { slug: "b" }]);
        const err = await c.compareAndSwap(b.id, "slug", "b", "a").catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(await c.findOne({ id: b.id })).toEqual(b);
      });

      test("a non-unique index allows equal values", async () => {
        const c = await fresh([{ fields: ["org"] }]);
        await seed(c, [{ org: "o" }, { org: "o" }]);
        expect(await c.count({ org: "o" })).toBe(2);
      });

      test("a sparse unique index allows many documents without the field but no duplicates among those with it", async () => {
        const c = await fresh([{ fields: ["hostname"], unique: true, sparse: true }]);
        await seed(c, [{ name: "a" }, { name: "b" }, { name: "c", hostname: "docs.example.com" }]);
        expect(await c.count({})).toBe(3);
        const err = await c.insert({ id: newId(), hostname: "docs.example.com" }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(err).toMatchObject({ code: 409 });
      });

      test("a compound unique index refuses only the same combination of values", async () => {
        const c = await fresh([{ fields: ["organizationId", "userId"], unique: true }]);
        await seed(c, [
          { organizationId: "o1", userId: "u1" },
          { organizationId: "o1", userId: "u2" },
          { organizationId: "o2", userId: "u1" },
        ]);
        expect(await c.count({})).toBe(3);
        const err = await c.insert({ id: newId(), organizationId: "o1", userId: "u1" }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConflictError);
        expect(err).toMatchObject({ code: 409 });
        expect(await c.count({})).toBe(3);
      });

      test("a unique index is kept when the collection is opened again", async () => {
        const store = await openStore();
        const name = uniqueName();
        const first = await fresh([{ fields: ["email"], unique: true }], store, name);
        await seed(first, [{ email: "a@x.test" }]);
        const again = await fresh([{ fields: ["email"], unique: true }], store, name);
        await expect(again.insert({ id: newId(), email: "a@x.test" })).rejects.toBeInstanceOf(ConflictError);
      });
    });

    describe("blobs", () => {
      async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
        return Buffer.concat(chunks);
      }

      test("bytes are stored once under their SHA-256 and read back whole, also across GridFS chunk sizes", async () => {
        const blobs = (await openStore()).blobs(uniqueName());
        const small = Buffer.from(`hello ${newId()}`);
        const large = Buffer.alloc(600 * 1024 + 17, newId()); // more than two 255 KiB GridFS chunks
        const a = await blobs.put(small);
        expect(a).toBe(sha256Of(small));
        expect(await blobs.put(Buffer.from(small))).toBe(a);
        expect(await blobs.has(a)).toBe(true);
        expect((await read(blobs.open(a))).equals(small)).toBe(true);
        const b = await blobs.put(large);
        expect((await read(blobs.open(b))).equals(large)).toBe(true);
        await blobs.remove(a);
        await blobs.remove(b);
      });

      test("has is false for a missing blob and for a name that is not a SHA-256, and remove takes a blob away", async () => {
        const blobs = (await openStore()).blobs(uniqueName());
        expect(await blobs.has("0".repeat(64))).toBe(false);
        expect(await blobs.has("../../etc/passwd")).toBe(false);
        expect(() => blobs.open("../x")).toThrow();
        const sha = await blobs.put(Buffer.from(newId()));
        await blobs.remove(sha);
        expect(await blobs.has(sha)).toBe(false);
        await blobs.remove(sha); // twice is fine
      });

      if (options.persistent) {
        test("a blob one store wrote is read by another store on the same data (a replica, or after a restart)", async () => {
          const name = uniqueName();
          const bytes = Buffer.from(`shared ${newId()}`);
          const sha = await (await openStore()).blobs(name).put(bytes);
          const other = (await openStore()).blobs(name);
          expect(await other.has(sha)).toBe(true);
          expect((await read(other.open(sha))).equals(bytes)).toBe(true);
          await other.remove(sha);
        });
      }
    });

    if (options.persistent) {
      describe("persistence", () => {
        test("documents, updates, deletions and unique indexes survive closing and reopening the store", async () => {
          const name = uniqueName();
          const indexes: IndexSpec[] = [{ fields: ["email"], unique: true }];
          const store = await openStore();
          const c = await fresh(indexes, store, name);
          const [a, b, cc] = await seed(c, [{ email: "a@x.test", n: 1 }, { email: "b@x.test", n: 2 }, { email: "c@x.test", n: 3 }]);
          await c.updateOne({ id: a.id }, { $inc: { n: 10 }, $set: { tags: ["t"] } });
          await c.deleteOne({ id: b.id });
          await store.close();
          expect(store.isOpen()).toBe(false);

          const reopened = await openStore();
          const again = await fresh(indexes, reopened, name);
          expect(await again.find({})).toEqual([{ ...a, n: 11, tags: ["t"] }, cc]);
          await expect(again.insert({ id: newId(), email: "c@x.test" })).rejects.toBeInstanceOf(ConflictError);
          await reopened.close();

          const third = await openStore();
          expect(await (await fresh(indexes, third, name)).count({})).toBe(2);
        });
      });
    }
  });
}
