// The SQLite adapter beyond the contract (store.test.ts runs the contract on it): one process per directory,
// durability settings, schema versions, and the import of a nedb directory.
import { spawn } from "node:child_process";
import fs, { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { newId } from "./ids";
import { DataDirLockedError, SCHEMA_VERSION, SqliteStore, StoreTooNewError } from "./sqlite";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "docshelf-sqlite-unit-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
const dirFor = (name: string) => join(root, name);

/** A child process holding a store on `dir` until it is killed; resolves once it holds it. */
function holdInChild(dir: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const script = `
    const { SqliteStore } = require(${JSON.stringify(join(__dirname, "..", "dist", "sqlite.js"))});
    new SqliteStore({ dir: ${JSON.stringify(dir)} });
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d) => (err += String(d)));
    child.stdout.on("data", (d) => {
      if (String(d).includes("held")) resolve({ pid: child.pid!, kill: async () => void (child.kill("SIGKILL"), await exited) });
    });
    void exited.then(() => reject(new Error(`the child exited: ${err}`)));
  });
}

describe("one process per directory", () => {
  test("a second process is refused naming the holder's pid; once the holder is SIGKILLed the directory opens, with no lock to remove by hand", async () => {
    const dir = dirFor("locked");
    const holder = await holdInChild(dir);
    let err: unknown;
    try {
      new SqliteStore({ dir, dataDir: "/data" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toContain(`DATA_DIR /data is in use by another docshelf process (pid ${holder.pid} `);
    expect((err as Error).message).toContain("nothing to remove by hand");
    await holder.kill();
    // The holder file it left names a pid that is gone; the lock itself went with the process.
    expect(existsSync(join(dir, ".lock"))).toBe(true);
    const store = new SqliteStore({ dir });
    expect(JSON.parse(readFileSync(join(dir, ".lock"), "utf8")).pid).toBe(process.pid);
    await store.close();
    expect(existsSync(join(dir, ".lock"))).toBe(false);
  }, 30_000);

  test("the lock does not depend on pids: a holder file naming this very process does not let a second process in", async () => {
    const dir = dirFor("same-pid");
    const holder = await holdInChild(dir);
    // What two containers on one volume see: the holder's recorded pid is the reader's own pid.
    writeFileSync(join(dir, ".lock"), JSON.stringify({ pid: process.pid, host: "other-container", since: "then" }));
    expect(() => new SqliteStore({ dir })).toThrow(DataDirLockedError);
    await holder.kill();
  }, 30_000);

  test("stores of one process on one directory share its database and see each other's writes", async () => {
    const dir = dirFor("shared");
    const a = new SqliteStore({ dir });
    const b = new SqliteStore({ dir });
    const id = newId();
    await (await a.collection({ name: "things" })).insert({ id });
    expect(await (await b.collection({ name: "things" })).findOne({ id })).toEqual({ id });
    await a.close();
    expect(await (await b.collection({ name: "things" })).count({})).toBe(1);
    await b.close();
  });
});

describe("durability settings", () => {
  test("the database is in WAL mode, each acknowledged write was fsynced by the adapter, and a clean close leaves one file", async () => {
    const dir = dirFor("durable");
    const store = new SqliteStore({ dir });
    const things = await store.collection({ name: "things" });
    const before = store.syncCount();
    await things.insert({ id: newId() });
    expect(store.syncCount()).toBe(before + 1);
    const db = (store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    // NORMAL: SQLite does not sync at a commit; the adapter fsyncs the WAL itself before it acknowledges.
    expect(db.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    await store.close();
    expect(readdirSync(dir).filter((f) => f.startsWith("store.sqlite")).sort()).toEqual(["store.sqlite"]);
  });

  test("a write is acknowledged only once the WAL's fsync returned, and the event loop runs meanwhile", async () => {
    const dir = dirFor("fsync-ack");
    const store = new SqliteStore({ dir });
    const things = await store.collection<{ id: string; n: number }>({ name: "things" });
    // The adapter's fsync, held: what a slow disk does.
    const held: Array<{ fd: number; done: (err: NodeJS.ErrnoException | null) => void }> = [];
    const spy = jest.spyOn(fs, "fdatasync").mockImplementation(((fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      held.push({ fd, done });
    }) as typeof fs.fdatasync);
    try {
      let acknowledged = false;
      const first = things.insert({ id: "a", n: 1 }).then(() => (acknowledged = true));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(held).toHaveLength(1);
      expect(acknowledged).toBe(false);
      // Committed (another connection reads it), not yet acknowledged.
      const other = new DatabaseSync(join(dir, "store.sqlite"), { readOnly: true });
      expect(Number((other.prepare(`SELECT count(*) AS n FROM "c:things"`).get() as { n: number }).n)).toBe(1);
      other.close();
      // Writes made while that fsync runs share one commit once it returned, and the next fsync.
      const commits = store.commitCount();
      let laterAcknowledged = 0;
      const later = [things.insert({ id: "b", n: 2 }), things.insert({ id: "c", n: 3 })].map((p) => p.then(() => laterAcknowledged++));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(held).toHaveLength(1);
      held[0].done(null);
      await first;
      expect(acknowledged).toBe(true);
      expect(laterAcknowledged).toBe(0);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(held).toHaveLength(2);
      expect(store.commitCount()).toBe(commits + 1);
      // The file fsynced is the WAL.
      expect(fs.fstatSync(held[1].fd).ino).toBe(fs.statSync(join(dir, "store.sqlite-wal")).ino);
      held[1].done(null);
      await Promise.all(later);
      expect(laterAcknowledged).toBe(2);
    } finally {
      spy.mockRestore();
    }
    await store.close();
  });

  test("a failed fsync rejects the writes it was to acknowledge, and every write after it, naming the log", async () => {
    const store = new SqliteStore({ dir: dirFor("fsync-fails") });
    const things = await store.collection<{ id: string }>({ name: "things" });
    const spy = jest.spyOn(fs, "fdatasync").mockImplementation(((_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      setImmediate(() => done(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })));
    }) as typeof fs.fdatasync);
    try {
      const first = things.insert({ id: "a" });
      await new Promise((r) => setImmediate(r));
      // Made while the failing fsync runs: held for its end, then refused and undone, not left waiting.
      const during = things.insert({ id: "b" });
      await expect(first).rejects.toThrow(/write-ahead log .*store\.sqlite-wal\) could not be synced to disk: EIO/);
      await expect(during).rejects.toThrow(/could not be synced to disk/);
      expect(await things.findOne({ id: "b" })).toBeNull();
    } finally {
      spy.mockRestore();
    }
    await expect(things.insert({ id: "c" })).rejects.toThrow(/could not be synced to disk/);
    // Reads go on.
    expect(await things.count({})).toBeGreaterThanOrEqual(0);
    await store.close();
  });

  test("the writes of one turn of the event loop share one commit; each is acknowledged after it, and a refused one undoes only itself", async () => {
    const dir = dirFor("group-commit");
    const store = new SqliteStore({ dir });
    const things = await store.collection<{ id: string; name: string; n?: number }>({ name: "things", indexes: [{ fields: ["name"], unique: true }] });
    await things.insert({ id: "keep", name: "kept" });
    const before = store.commitCount();
    // 50 writes started together (as concurrent requests would), one of them a unique-index conflict.
    const writes = [
      ...Array.from({ length: 48 }, (_, i) => things.insert({ id: `t${i}`, name: `thing ${i}` })),
      things.insert({ id: "clash", name: "kept" }),
      things.updateOne({ id: "keep" }, { $set: { n: 1 } }),
    ];
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(store.commitCount() - before).toBe(1);
    // Everything acknowledged is on disk: another connection (another process would see the same) reads it all.
    const other = new DatabaseSync(join(dir, "store.sqlite"), { readOnly: true });
    try {
      const count = other.prepare(`SELECT count(*) AS n FROM "c:things"`).get() as { n: number };
      expect(Number(count.n)).toBe(49);
    } finally {
      other.close();
    }
    expect(await things.findOne({ id: "clash" })).toBeNull();
    expect((await things.findOne({ id: "keep" }))?.n).toBe(1);
    // Writes in later turns get commits of their own.
    await things.deleteOne({ id: "t0" });
    await things.deleteMany({ name: "thing 1" });
    expect(store.commitCount() - before).toBe(3);
    await store.close();
  });

  test("each declared index is an index on the document's JSON that queries use", async () => {
    const store = new SqliteStore({ dir: dirFor("indexes") });
    await store.collection({ name: "pages", indexes: [{ fields: ["spaceId", "updatedAt"] }, { fields: ["slug"], unique: true }] });
    const db = (store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id, doc FROM "c:pages" WHERE json_extract(doc, '$.spaceId') = ? ORDER BY json_extract(doc, '$.updatedAt') DESC, id DESC`).all("s") as Array<{ detail: string }>;
    // The whole order comes from the index (id is its last column): no sorting step.
    expect(plan.map((p) => p.detail)).toEqual(["SEARCH c:pages USING INDEX i:pages:spaceId,updatedAt (<expr>=?)"]);
    await store.close();
  });
});

describe("queries on null", () => {
  test("null (null or missing) is read off the index: a count touches no document, a sorted page reads only its own", async () => {
    const store = new SqliteStore({ dir: dirFor("null-index") });
    const comments = await store.collection<{ id: string; spaceId: string; changeRequestId?: string | null; status: string; postedAt: string }>({
      name: "comments",
      indexes: [{ fields: ["spaceId", "changeRequestId", "status"] }, { fields: ["spaceId", "changeRequestId", "postedAt"] }],
    });
    await comments.insert({ id: "a", spaceId: "s", changeRequestId: null, status: "open", postedAt: "1" });
    await comments.insert({ id: "b", spaceId: "s", status: "open", postedAt: "2" });
    await comments.insert({ id: "c", spaceId: "s", changeRequestId: "cr", status: "open", postedAt: "3" });
    expect(await comments.count({ spaceId: "s", changeRequestId: null, status: "open" })).toBe(2);
    expect((await comments.find({ spaceId: "s", changeRequestId: null }, { sort: [["postedAt", -1]], limit: 1 })).map((c) => c.id)).toEqual(["b"]);
    const connection = (store as unknown as { connection: { db: DatabaseSync; statements: Map<string, unknown> } }).connection;
    const plans = [...connection.statements.keys()]
      .filter((sql) => sql.startsWith("SELECT") && sql.includes("changeRequestId"))
      .map((sql) => (connection.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((p) => p.detail).join("; "));
    expect(plans).toEqual([
      "SEARCH c:comments USING COVERING INDEX i:comments:spaceId,changeRequestId,status (<expr>=? AND <expr>=? AND <expr>=?)",
      "SEARCH c:comments USING INDEX i:comments:spaceId,changeRequestId,postedAt (<expr>=? AND <expr>=?)",
    ]);
    await store.close();
  });
});

describe("kept counts", () => {
  type Thing = { id: string; a?: unknown; b?: unknown; n?: number };

  test("a count kept after it was read follows inserts, updates in and out of it, refused writes and deletes, as SQLite counts", async () => {
    const store = new SqliteStore({ dir: dirFor("kept-counts") });
    const things = await store.collection<Thing>({ name: "things", indexes: [{ fields: ["a", "b"] }, { fields: ["n"], unique: true }] });
    const db = (store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    const counted = (where: string) => Number((db.prepare(`SELECT count(*) AS n FROM "c:things" WHERE ${where}`).get() as { n: number }).n);
    // Values of every JSON kind, in and out of the counted ones; some documents without the fields.
    const values: unknown[] = ["x", "y", null, undefined, 1, 0, true, false, { o: "x" }, "1"];
    const filters: Array<[Record<string, string | number | boolean | null>, string]> = [
      [{ a: "x" }, `json_extract(doc, '$.a') = 'x'`],
      [{ a: null }, `json_extract(doc, '$.a') IS NULL`],
      [{ a: "x", b: null }, `json_extract(doc, '$.a') = 'x' AND json_extract(doc, '$.b') IS NULL`],
      [{ a: 1 }, `json_extract(doc, '$.a') = 1`],
      [{ a: true }, `json_type(doc, '$.a') = 'true'`],
      [{ b: "1" }, `json_extract(doc, '$.b') = '1'`],
      [{ id: "t3", a: "y" }, `id = 't3' AND json_extract(doc, '$.a') = 'y'`],
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = () => values[random(values.length)];
    const check = async (step: string) => {
      for (const [filter, where] of filters) expect([step, filter, await things.count(filter)]).toEqual([step, filter, counted(where)]);
    };
    for (let i = 0; i < 12; i++) await things.insert({ id: `t${i}`, a: pick(), b: pick(), n: i });
    await check("inserted");
    for (let step = 0; step < 200; step++) {
      const id = `t${random(16)}`;
      const op = random(10);
      if (op < 3) await things.insert({ id: `u${step}`, a: pick(), b: pick(), n: 100 + step });
      else if (op < 7) await things.updateOne({ id }, random(4) === 0 ? { $unset: ["a"] } : { $set: { a: pick(), b: pick() } });
      else if (op < 8) await expect(things.insert({ id: `v${step}`, a: "x", n: 0 })).rejects.toThrow(/same unique value/);
      else if (op < 9) await things.updateOne({ id }, { $set: { n: 1 } }).catch(() => undefined);
      else await things.deleteOne({ id: `u${step - 1 - random(5)}` });
      // Several writes in one turn share a transaction: counts read between them see each.
      if (step % 25 === 0) await Promise.all([things.insert({ id: `w${step}`, a: "x" }), things.updateOne({ id }, { $set: { a: "x" } }), things.count({ a: "x" })]);
      await check(`step ${step}`);
    }
    await store.close();
  });

  test("counts with anything but equality and null are not kept, and are right", async () => {
    const store = new SqliteStore({});
    const things = await store.collection<Thing>({ name: "things" });
    await things.insert({ id: "a", a: ["x", "y"] });
    expect(await things.count({ a: "x" })).toBe(1);
    await things.insert({ id: "b", a: ["x"] });
    expect(await things.count({ a: "x" })).toBe(2);
    await things.updateOne({ id: "a" }, { $set: { a: ["z"] } });
    expect(await things.count({ a: "x" })).toBe(1);
    await store.close();
  });
});

describe("schema versions", () => {
  test("a new store records every migration once, up to this version", async () => {
    const dir = dirFor("versions");
    let store = new SqliteStore({ dir });
    expect(store.migrations().map((m) => m.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    await store.close();
    store = new SqliteStore({ dir });
    expect(store.migrations()).toHaveLength(SCHEMA_VERSION);
    await store.close();
  });

  test("a store of a newer schema version is refused, unchanged, and the directory is free again", () => {
    const dir = dirFor("newer");
    const store = new SqliteStore({ dir });
    void store.close();
    const db = new DatabaseSync(join(dir, "store.sqlite"));
    db.exec(`UPDATE _meta SET value = '${SCHEMA_VERSION + 1}' WHERE key = 'schema_version'`);
    db.close();
    expect(() => new SqliteStore({ dir, dataDir: "/data" })).toThrow(StoreTooNewError);
    expect(() => new SqliteStore({ dir })).toThrow(`has schema version ${SCHEMA_VERSION + 1}, written by a newer docshelf; this version understands up to ${SCHEMA_VERSION}`);
    expect(existsSync(join(dir, ".lock"))).toBe(false);
  });
});

describe("array fields", () => {
  test("the fields that hold arrays are remembered across a reopen and an import, so equality still matches an element", async () => {
    const dir = dirFor("arrays");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "orgs.db"), JSON.stringify({ _id: "o1", emailDomains: ["a.test", "b.test"] }) + "\n");
    let store = new SqliteStore({ dir });
    let c = await store.collection<{ id: string; emailDomains?: string[]; members?: string[] }>({ name: "orgs", indexes: [{ fields: ["emailDomains"] }] });
    expect((await c.find({ emailDomains: "b.test" })).map((o) => o.id)).toEqual(["o1"]);
    await c.insert({ id: "o2", members: ["u1"] });
    await store.close();
    store = new SqliteStore({ dir });
    c = await store.collection({ name: "orgs" });
    expect((await c.find({ members: "u1" })).map((o) => o.id)).toEqual(["o2"]);
    expect((await c.find({ emailDomains: "a.test" })).map((o) => o.id)).toEqual(["o1"]);
    await store.close();
  });
});

describe("importing a nedb directory", () => {
  const nedbLines = (docs: object[]) => docs.map((d) => JSON.stringify(d)).join("\n") + "\n";

  test("replays each file as nedb did, turns dates into ISO strings, skips a torn last line, and keeps the files aside", async () => {
    const dir = dirFor("nedb");
    mkdirSync(dir, { recursive: true });
    const things = nedbLines([
      { _id: "a", n: 1, at: { $$date: Date.UTC(2024, 0, 2) } },
      { _id: "b", n: 2 },
      { $$indexCreated: { fieldName: "n", unique: false, sparse: false } },
      { _id: "a", n: 3, at: { $$date: Date.UTC(2024, 0, 2) }, map: { "\ue0002%2E1-setup": "x" } },
      { _id: "b", $$deleted: true },
      { _id: "c", n: 4 },
    ]) + '{"_id":"d","n":';
    writeFileSync(join(dir, "things.db"), things);
    writeFileSync(join(dir, "empty.db"), "");
    const store = new SqliteStore({ dir });
    const c = await store.collection<{ id: string; n: number; at?: string; map?: Record<string, string> }>({ name: "things", indexes: [{ fields: ["n"] }] });
    expect(await c.find({}, { sort: [["n", 1]] })).toEqual([
      { id: "a", n: 3, at: "2024-01-02T00:00:00.000Z", map: { "2.1-setup": "x" } },
      { id: "c", n: 4 },
    ]);
    expect(store.migrations()[1].detail).toBe("imported empty: 0 documents; things: 2 documents, 1 unreadable lines skipped; files kept in nedb-imported/");
    expect(readdirSync(dir).filter((f) => f.endsWith(".db"))).toEqual([]);
    expect(readFileSync(join(dir, "nedb-imported", "things.db"), "utf8")).toBe(things);
    await store.close();
  });
});
