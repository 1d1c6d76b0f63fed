import { mkdtempSync, rmSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BadRequestError } from "@docshelf/errors";
import { runStoreContract } from "./contract";
import { afterQuery, cursorOf, normalizeSort } from "./cursor";
import { op, toQuery, type Filter, type Primitive } from "./filter";
import { newId, newSecret } from "./ids";
import { MongoStore, openStore, SqliteStore } from "./index";
import { MONGO_SCHEMA_VERSION } from "./mongo";

runStoreContract("sqlite in memory", async () => new SqliteStore({}));

describe("sqlite on files", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "docshelf-sqlite-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  runStoreContract("sqlite on files", async () => new SqliteStore({ dir: join(dir, "svc") }), { persistent: true });
});

describe("counts by a compound index with a null field", () => {
  test("a null field counts documents where it is null and where it is missing, and follows every write", async () => {
    const store = new SqliteStore({});
    const c = await store.collection<{ id: string; s: string; cr?: string | null; st: string }>({ name: "comments", indexes: [{ fields: ["s", "cr", "st"] }] });
    const docs = [
      { id: newId(), s: "a", cr: null, st: "open" },
      { id: newId(), s: "a", st: "open" },
      { id: newId(), s: "a", cr: "x", st: "open" },
      { id: newId(), s: "a", cr: null, st: "resolved" },
      { id: newId(), s: "b", cr: null, st: "open" },
    ];
    for (const doc of docs) await c.insert(doc);
    const thread = { s: "a", cr: null, st: "open" };
    expect(await c.count(thread)).toBe(2);
    expect(await c.count({ st: "open", cr: null, s: "a" })).toBe(2);
    expect(await c.count({ s: "a", cr: "x", st: "open" })).toBe(1);
    expect(await c.count({ s: "a", cr: null })).toBe(3);
    await c.updateOne({ id: docs[3].id }, { $set: { st: "open" } });
    expect(await c.count(thread)).toBe(3);
    await c.deleteOne({ id: docs[1].id });
    expect(await c.count(thread)).toBe(2);
    expect(await c.count(thread)).toBe((await c.find(thread)).length);
    await store.close();
  });
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  // Each run uses its own collection prefix so that runs never see each other's documents.
  // mongo-check.js (jest's global setup) asked the server what it is.
  const server = process.env.MONGO_SERVER ?? "unknown server";
  const prefix = `contract${newId().slice(-8)}`;
  runStoreContract(`mongodb (${server})`, () => MongoStore.connect(mongoUrl, prefix), { persistent: true });

  describe(`schema versions on ${server}`, () => {
    test("the migrations are recorded once, and a database of a newer version is refused with the embedded store's message", async () => {
      const service = `versions${newId().slice(-8)}`;
      const first = await MongoStore.connect(mongoUrl, service);
      await first.close();
      const again = await MongoStore.connect(mongoUrl, service);
      const recorded = (again as unknown as { connection: { collection(name: string): { find(q: object): { toArray(): Promise<Array<{ _id: number }>> }; insertOne(doc: object): Promise<unknown>; drop(): Promise<unknown> } } }).connection.collection(`${service}__migrations`);
      expect((await recorded.find({}).toArray()).map((m) => m._id)).toEqual([MONGO_SCHEMA_VERSION]);
      await recorded.insertOne({ _id: MONGO_SCHEMA_VERSION + 1, name: "from the future", appliedAt: "", detail: "" });
      await expect(MongoStore.connect(mongoUrl, service)).rejects.toThrow(`has schema version ${MONGO_SCHEMA_VERSION + 1}, written by a newer docshelf; this version understands up to ${MONGO_SCHEMA_VERSION}`);
      await recorded.drop();
      await again.close();
    });
  });

  describe(`per-document locks on ${server}`, () => {
    const ferret1 = /^FerretDB v?1\./.test(server);
    let store: MongoStore;
    beforeAll(async () => {
      store = await MongoStore.connect(mongoUrl, `locks${newId().slice(-8)}`);
    });
    afterAll(async () => {
      await store.close();
    });

    test(`updates take document locks exactly when the server's own updates are read-modify-write (FerretDB 1.x): ${ferret1 ? "yes" : "no"}`, () => {
      expect(store.server).toBe(server);
      expect(store.documentLocks).toBe(ferret1);
    });

    if (ferret1) {
      test("a lock left by a process that died is broken after its lease, and the update then applies", async () => {
        const c = await store.collection<{ id: string; n: number }>({ name: "leases" });
        const id = newId();
        await c.insert({ id, n: 1 });
        const locks = (store as unknown as { connection: { collection(name: string): { insertOne(doc: object): Promise<unknown> } } }).connection.collection(
          `${(store as unknown as { prefix: string }).prefix}__locks`,
        );
        await locks.insertOne({ _id: `leases:${id}`, token: "dead", expires: Date.now() + 1500 });
        const started = Date.now();
        expect(await c.updateOne({ id }, { $inc: { n: 1 } })).toEqual({ id, n: 2 });
        const waited = Date.now() - started;
        expect(waited).toBeGreaterThanOrEqual(1000);
        expect(waited).toBeLessThan(5000);
      });
    }
  });
} else {
  console.log("store contract: the MongoDB run was skipped because MONGO_URL is not set");
}

describe("openStore", () => {
  test("opens the service's SQLite database under DATA_DIR/<service>", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docshelf-open-"));
    const store = await openStore("filesvc", { dataDir: dir });
    expect(store.kind).toBe("sqlite");
    await (await store.collection({ name: "things" })).insert({ id: newId() });
    await store.close();
    expect(readdirSync(join(dir, "filesvc")).sort()).toEqual(["store.lock", "store.sqlite"]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("opens an in-memory SQLite store when asked for memory or given no data directory", async () => {
    for (const options of [{ memory: true, dataDir: "/nonexistent" }, {}]) {
      const store = await openStore("svc", options);
      expect(store.kind).toBe("sqlite");
      expect(store.isOpen()).toBe(true);
      await store.close();
    }
  });
});

describe("ids", () => {
  test("an id is 20 base62 characters", () => {
    for (let i = 0; i < 100; i++) expect(newId()).toMatch(/^[0-9A-Za-z]{20}$/);
  });

  test("ids are strictly increasing in creation order, many within one millisecond", () => {
    const list = Array.from({ length: 5000 }, () => newId());
    for (let i = 1; i < list.length; i++) expect(list[i] > list[i - 1]).toBe(true);
    expect(new Set(list).size).toBe(list.length);
  });

  test("ids keep increasing while the clock stands still or goes back", () => {
    const now = jest.spyOn(Date, "now");
    try {
      const start = Date.now();
      now.mockReturnValue(start + 60_000);
      const a = newId();
      const b = newId();
      now.mockReturnValue(start - 60_000);
      const c = newId();
      expect(b > a).toBe(true);
      expect(c > b).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  test("secrets are URL-safe and differ each time", () => {
    const a = newSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).not.toBe(a);
    expect(newSecret(16)).toHaveLength(22);
  });
});

describe("toQuery", () => {
  test("plain values become equality on the field, and id becomes _id", () => {
    expect(toQuery({ id: "abc", name: "x", n: 2, flag: false })).toEqual({ _id: "abc", name: "x", n: 2, flag: false });
  });

  test("undefined values are left out", () => {
    expect(toQuery({ a: undefined, b: 1 })).toEqual({ b: 1 });
  });

  test("operators render as the matching query operators", () => {
    expect(toQuery({ a: op.in(["x", "y"]), b: op.nin([1]), c: op.gt(1), d: op.gte(2), e: op.lt(3), f: op.lte(4), g: op.ne("z"), h: op.exists(false) })).toEqual({
      a: { $in: ["x", "y"] },
      b: { $nin: [1] },
      c: { $gt: 1 },
      d: { $gte: 2 },
      e: { $lt: 3 },
      f: { $lte: 4 },
      g: { $ne: "z" },
      h: { $exists: false },
    });
  });

  test("op.contains becomes a case-insensitive regular expression that matches the text literally", () => {
    const query = toQuery({ title: op.contains("a.b*(c)") }) as { title: { $regex: RegExp } };
    const regex = query.title.$regex;
    expect(regex.flags).toContain("i");
    expect(regex.test("xx A.B*(C) yy")).toBe(true);
    expect(regex.test("aXbbb(c)")).toBe(false);
  });

  test("null equality and null in operators also cover missing fields", () => {
    const missing = { v: { $exists: false } };
    expect(toQuery({ v: null })).toEqual({ $and: [{ $or: [{ v: null }, missing] }] });
    expect(toQuery({ v: op.ne(null) })).toEqual({ v: { $ne: null, $exists: true } });
    expect(toQuery({ v: op.nin([null, "a"]) })).toEqual({ v: { $nin: [null, "a"], $exists: true } });
    expect(toQuery({ v: op.in([null, "a"]) })).toEqual({ $and: [{ $or: [{ v: { $in: [null, "a"] } }, missing] }] });
  });

  const rejected: Array<[string, Filter]> = [
    ["an object value", { email: { $ne: null } } as unknown as Filter],
    ["an array value", { email: ["a"] } as unknown as Filter],
    ["a function value", { email: (() => true) as unknown as Primitive }],
    ["a field starting with $", { $where: "1" }],
    ["a field with an empty path segment", { "a..b": 1 }],
    ["a field named __proto__", JSON.parse('{"__proto__": 1}') as Filter],
    ["a nested __proto__ segment", { "a.__proto__": 1 }],
    ["an op.in list with an object", { a: op.in([{ $gt: "" } as unknown as Primitive]) }],
    ["an op.in given a string instead of a list", { a: op.in("abc" as unknown as Primitive[]) }],
    ["an op.gt with an object", { a: op.gt({ $ne: 1 } as unknown as Primitive) }],
  ];
  test.each(rejected)("a filter with %s is a 400 BadRequestError", (_what, filter) => {
    let thrown: unknown;
    try {
      toQuery(filter);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BadRequestError);
    expect(thrown).toMatchObject({ code: 400 });
  });

  test("a filter value cannot become an operator however it was built", () => {
    const fromRequest = JSON.parse('{"role": {"$in": ["admin"]}}') as Filter;
    expect(() => toQuery(fromRequest)).toThrow(BadRequestError);
  });
});

describe("keyset cursors", () => {
  test("normalizeSort appends id with the direction of the last key unless the sort names it", () => {
    expect(normalizeSort(undefined)).toEqual([["id", 1]]);
    expect(normalizeSort([["a", -1]])).toEqual([["a", -1], ["id", -1]]);
    expect(normalizeSort([["id", -1], ["a", 1]])).toEqual([["a", 1], ["id", -1]]);
  });

  test("cursorOf takes the sort values of a document, missing ones as null", () => {
    expect(cursorOf([["a", 1], ["b.c", 1], ["z", 1], ["id", 1]], { id: "x", a: 1, b: { c: "t" } })).toEqual({ values: [1, "t", null], id: "x" });
  });

  test("a cursor that does not fit the sort is a 400 BadRequestError", () => {
    expect(() => afterQuery(normalizeSort([["a", 1]]), { values: [], id: "x" })).toThrow(BadRequestError);
  });
});
