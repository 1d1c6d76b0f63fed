// Part of the store contract (index.ts) — Filters: every operator the store offers, and request input that looks like one.
import { BadRequestError } from "@docshelf/errors";
import { op, type Filter, type Primitive } from "../filter";
import { hostile, ids, sortedIds, type Harness } from "./harness";

export function filtersContract(h: Harness): void {
  const { fresh, seed } = h;
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

    test("equality and op.in on a field holding an array match the documents whose array holds the value, also through an index", async () => {
      const c = await fresh([{ fields: ["contributors"] }]);
      const [a, b, cc] = await seed(c, [{ contributors: ["u1", "u2"], space: "s" }, { contributors: ["u2"], space: "s" }, { contributors: "u3", space: "t" }]);
      expect(ids(await c.find({ contributors: "u2" }))).toEqual([a.id, b.id]);
      expect(ids(await c.find({ contributors: "u1", space: "s" }))).toEqual([a.id]);
      expect(ids(await c.find({ contributors: "u3" }))).toEqual([cc.id]);
      expect(await c.count({ contributors: op.in(["u1", "u3"]) })).toBe(2);
      expect(await c.count({ contributors: "nobody" })).toBe(0);
      // A field that becomes an array through an update.
      await c.updateOne({ id: cc.id }, { $push: { tags: "x" } });
      await c.updateOne({ id: b.id }, { $set: { tags: ["x", "y"] } });
      expect(ids(await c.find({ tags: "x" }))).toEqual([b.id, cc.id]);
      expect(ids(await c.find({ tags: "y" }))).toEqual([b.id]);
    });

    test("a filter naming documents by id (one, or op.in of several) with equalities on other fields matches only those equal on all", async () => {
      // FerretDB 1.x looks such a filter up id by id and checks the rest itself (mongo.ts, idLookups): the same answers.
      const c = await fresh();
      const [a, b, cc] = await seed(c, [
        { org: "o1", role: "admin", n: 1, tags: ["x", "y"] },
        { org: "o1", role: "read", n: 2, tags: ["y"] },
        { org: "o2", role: "read", n: 1, tags: "x" },
      ]);
      expect(ids(await c.find({ id: a.id, org: "o1" }))).toEqual([a.id]);
      expect(await c.find({ id: a.id, org: "o2" })).toEqual([]);
      expect(await c.findOne({ id: a.id, org: "o2" })).toBeNull();
      expect(await c.findOne({ id: b.id, org: "o1", n: 2 })).toEqual(b);
      expect(await c.count({ id: a.id, n: 1 })).toBe(1);
      expect(await c.count({ id: a.id, n: "1" })).toBe(0);
      const all = op.in([cc.id, a.id, b.id, "no-such-id", a.id]);
      expect(ids(await c.find({ id: all, role: "read" }))).toEqual(sortedIds([b, cc]));
      expect(ids(await c.find({ id: all, role: "read" }, { sort: [["id", -1]] }))).toEqual(sortedIds([b, cc]).reverse());
      expect(ids(await c.find({ id: all }, { limit: 2 }))).toEqual(sortedIds([a, b, cc]).slice(0, 2));
      expect(sortedIds(await c.find({ id: all, tags: "x" }))).toEqual(sortedIds([a, cc]));
      expect(await c.count({ id: all, org: "o1", tags: "y" })).toBe(2);
      expect(await c.count({ id: op.in([]) })).toBe(0);
      // Updates: a document that names the id but differs on another field is not touched.
      expect(await c.updateOne({ id: a.id, org: "o2" }, { $set: { role: "owner" } })).toBeNull();
      expect((await c.findOne({ id: a.id }))?.role).toBe("admin");
      expect((await c.updateOne({ id: a.id, org: "o1" }, { $set: { role: "owner" } }))?.role).toBe("owner");
      const updated = await c.updateOne({ id: op.in([a.id, cc.id]), org: "o2" }, { $inc: { n: 1 } });
      expect(updated?.id).toBe(cc.id);
      expect((await c.findOne({ id: cc.id }))?.n).toBe(2);
      expect(await c.updateOne({ id: op.in([a.id, b.id]), org: "o3" }, { $set: { role: "x" } })).toBeNull();
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
}
