// Embedded adapter: one SQLite database per service (DATA_DIR/<service>/store.sqlite) through node:sqlite,
// a table per collection holding each document as JSON, an expression index per declared index.
//
// Durability: WAL journal. A write is acknowledged after its transaction committed and the WAL was fsynced,
// so it survives a killed process, an out-of-memory kill and a power cut. A WAL whose tail is torn (a crash
// during a commit) loses only the transaction that was being written, which was never acknowledged; SQLite
// recovers by itself on the next open.
//
// The fsync is the adapter's, off the event loop: SQLite runs with synchronous=NORMAL (in WAL mode: the WAL is
// synced before each checkpoint, the database after it, the WAL's header when it restarts; never at a commit),
// and after each COMMIT the adapter fsyncs the WAL file itself through libuv's thread pool (fs.fdatasync, as
// SQLite's own sync on Linux: the data and the file's size, not its times) and
// acknowledges the transaction's writes only when that fsync returned. That is what synchronous=FULL adds
// (an fsync of the WAL after each commit), done without blocking the one thread that serves every request:
// with FULL, node:sqlite's synchronous COMMIT held the event loop for the length of the fsync (3-6 ms on
// a shared disk). The WAL's directory entry is fsynced once, when the adapter opens the WAL file. An fsync that
// fails leaves the store refusing writes until the process restarts (after a failed fsync the kernel may have
// dropped the dirty pages, so a later fsync's success would prove nothing).
//
// Group commit: the writes made in one turn of the event loop (the requests that arrived together) share one
// transaction, committed just after that turn, or, while an fsync runs, the writes made until it returns (they
// would wait for the next fsync anyway); each write is a savepoint of its own inside it, so one refused write
// undoes only itself. Each is acknowledged only after that commit and its fsync. Until then the process's own
// reads see it, which is what a single process serving them expects.
//
// One process per directory: the process that opens a directory holds an exclusive SQLite (fcntl) lock on
// DATA_DIR/<service>/store.lock for as long as the store is open. The kernel releases it when the process
// ends however it ends, and the lock is the open file's, not a pid's: two containers on one volume, both
// pid 1, are refused as any two processes are.
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { ConflictError } from "@docshelf/errors";
import { directoryBytes, DiskBlobStore, fsyncDir, type BlobStore } from "./blobs";
import { normalizeSort, afterQuery } from "./cursor";
import { toQuery, type Filter, type Primitive } from "./filter";
import { nedbRecords } from "./nedb-file";
import { decodeKeys, encodeKeys } from "./keys";
import { applyModifiers } from "./modify";
import { toModifiers } from "./modifiers";
import { countable, KeptCounts } from "./sqlite-counts";
import { fieldExpr, toOrderBy, toWhere, type SqlPart, type SqlValue } from "./sqlite-query";
import type { Collection, CollectionSpec, Doc, FindOptions, IndexSpec, Store, Update } from "./types";

/** The database file of a service's store, inside DATA_DIR/<service>/. */
export const DB_FILE = "store.sqlite";
/** The file whose SQLite lock says which process holds the directory. */
export const OWNER_LOCK_FILE = "store.lock";
/** Names the holding process (pid, host, since) for the message another process shows; the lock is OWNER_LOCK_FILE's. */
export const HOLDER_FILE = ".lock";
/** Where an imported nedb store's files are kept (never deleted) after their import. */
export const NEDB_KEPT_DIR = "nedb-imported";

/**
 * The store's schema version: what this code reads and writes. Each version's migration runs once, at
 * start-up, and is recorded in `_migrations`; data of a higher version is refused (an older binary).
 */
export const SCHEMA_VERSION = 2;

export class StoreTooNewError extends Error {
  constructor(
    readonly location: string,
    readonly found: number,
    readonly supported: number = SCHEMA_VERSION,
  ) {
    super(
      `The store in ${location} has schema version ${found}, written by a newer docshelf; this version understands up to ${supported}. ` +
        `Run the newer version again, or restore a backup made before the upgrade (docs/OPERATIONS.md). Nothing was changed.`,
    );
    this.name = "StoreTooNewError";
  }
}

/** The process holding a directory, as it wrote itself down in HOLDER_FILE. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    readonly lockFile: string,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another docshelf process (pid ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
        `Two processes on one data directory overwrite each other's files: stop that process first, or give this one another DATA_DIR. ` +
        `(Lock: ${lockFile}, held by the running process itself and released when it ends, however it ends; nothing to remove by hand. ` +
        `The pid is as that process saw it: in another container it may be another process's pid here.)`,
    );
    this.name = "DataDirLockedError";
  }
}

type Row = { id: string; doc: string };

let sqliteModule: typeof import("node:sqlite") | undefined;

/**
 * node:sqlite, loaded on first use. Node 22 marks it experimental and says so once per process on stderr;
 * that one warning is left out (every other warning still shows), as the adapter is the default store.
 */
export function nodeSqlite(): typeof import("node:sqlite") {
  if (!sqliteModule) {
    const emit = process.emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      const text = typeof warning === "string" ? warning : warning.message;
      if (/SQLite is an experimental feature/.test(text)) return;
      (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      sqliteModule = require("node:sqlite") as typeof import("node:sqlite");
    } finally {
      process.emitWarning = emit;
    }
  }
  return sqliteModule;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function tableOf(collection: string): string {
  return quoteIdent(`c:${collection}`);
}

function isUniqueViolation(err: unknown): boolean {
  const { errcode, message } = (err ?? {}) as { errcode?: number; message?: string };
  return errcode === 2067 || errcode === 1555 || (typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

function isBusy(err: unknown): boolean {
  const { errcode, message } = (err ?? {}) as { errcode?: number; message?: string };
  return (errcode !== undefined && (errcode & 0xff) === 5) || (typeof message === "string" && /database is locked/.test(message));
}

function toJson(doc: Record<string, unknown>): string {
  return JSON.stringify(doc);
}

/** U+E000, with which every encoded key begins (keys.ts): a stored text without it has no key to decode. */
const KEY_MARKER = "\uE000";

function fromRow<T extends Doc>(row: Row): T {
  const parsed = JSON.parse(row.doc) as Record<string, unknown>;
  const out = row.doc.includes(KEY_MARKER) ? decodeKeys(parsed) : parsed;
  out.id = row.id;
  return out as unknown as T;
}

/** One open database (and its owner lock) per directory in this process, shared by the stores opened on it. */
interface Connection {
  db: DatabaseSync;
  /** Releases the owner lock (a store on files). */
  release?: () => void;
  statements: Map<string, StatementSync>;
  /** Per collection, the top-level fields that hold an array in some document (table `_arrays`). */
  arrays: Map<string, Set<string>>;
  /** Per collection, the counts kept up to date by its writes (sqlite-counts.ts). */
  counts: Map<string, KeptCounts>;
  refs: number;
  key: string;
  /** The writes of this turn of the event loop waiting for their shared commit (group commit). */
  batch?: Waiter[];
  /** Transactions committed, for tests and measurement. */
  commits: number;
  /** The WAL file, opened once, fsynced after commits (a store on files). */
  wal?: { path: string; fd?: number };
  /** Committed writes waiting for an fsync of the WAL that starts after their commit. */
  unsynced: Waiter[];
  /** Whether an fsync of the WAL runs in the thread pool. */
  syncing: boolean;
  /** fsyncs of the WAL done, for tests and measurement. */
  syncs: number;
  /** Set once an fsync failed: every later write is refused with it. */
  failed?: Error;
  /** Set by close: the in-flight fsync's callback closes the WAL descriptor. */
  closed: boolean;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

const connections = new Map<string, Connection>();
let exitHookInstalled = false;

/** A process that exits without closing its stores (process.exit, an uncaught error) leaves no holder file. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const connection of connections.values()) connection.release?.();
  });
}

function regexpFunction(): (value: unknown, source: unknown, flags: unknown) => number {
  const cache = new Map<string, RegExp>();
  return (value, source, flags) => {
    if (typeof value !== "string" || typeof source !== "string") return 0;
    const key = `${String(flags)}/${source}`;
    let re = cache.get(key);
    if (!re) {
      if (cache.size > 256) cache.clear();
      re = new RegExp(source, typeof flags === "string" ? flags : "");
      cache.set(key, re);
    }
    re.lastIndex = 0;
    return re.test(value) ? 1 : 0;
  };
}

function configure(db: DatabaseSync, file: boolean): void {
  if (file) {
    db.exec("PRAGMA journal_mode = WAL");
    // Not FULL: the adapter fsyncs the WAL after each commit itself, off the event loop (see the head of this file).
    db.exec("PRAGMA synchronous = NORMAL");
  }
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = OFF");
  db.function("ds_regexp", { deterministic: true }, regexpFunction() as (...args: unknown[]) => number);
}

/** Takes the directory's owner lock or throws DataDirLockedError naming the holder. */
function takeOwnerLock(dir: string, dataDir: string): { lock: DatabaseSync; release: () => void } {
  const file = join(dir, OWNER_LOCK_FILE);
  const holderFile = join(dir, HOLDER_FILE);
  const lock = new (nodeSqlite().DatabaseSync)(file);
  try {
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("PRAGMA locking_mode = EXCLUSIVE");
    lock.exec("PRAGMA journal_mode = DELETE");
    // The first write takes SQLite's EXCLUSIVE lock, which EXCLUSIVE locking mode keeps until close.
    lock.exec("BEGIN EXCLUSIVE");
    lock.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER, host TEXT, since TEXT)");
    lock.exec("DELETE FROM holder");
    lock.exec("COMMIT");
  } catch (err) {
    lock.close();
    if (!isBusy(err)) throw err;
    let holder = { pid: 0, host: "?", since: "?" };
    try {
      holder = { ...holder, ...(JSON.parse(readFileSync(holderFile, "utf8")) as typeof holder) };
    } catch {
      // written a moment after the lock is taken
    }
    throw new DataDirLockedError(dataDir, holder, file);
  }
  // For the message another process shows; the lock itself is the SQLite one. Replaced whole (a rename).
  const content = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  const partial = `${holderFile}.${process.pid}.tmp`;
  writeFileSync(partial, content);
  renameSync(partial, holderFile);
  const release = () => {
    try {
      if (readFileSync(holderFile, "utf8") === content) unlinkSync(holderFile);
    } catch {
      // gone already
    }
    lock.close();
  };
  return { lock, release };
}

function openConnection(dir: string | undefined, dataDir: string | undefined): Connection {
  if (!dir) {
    const db = new (nodeSqlite().DatabaseSync)(":memory:");
    configure(db, false);
    const connection: Connection = { ...newConnectionState(), db, key: "" };
    migrate(connection, "");
    return connection;
  }
  const key = resolve(dir);
  const existing = connections.get(key);
  if (existing) {
    existing.refs += 1;
    return existing;
  }
  mkdirSync(key, { recursive: true });
  const { release } = takeOwnerLock(key, dataDir ?? dir);
  let db: DatabaseSync | undefined;
  try {
    db = new (nodeSqlite().DatabaseSync)(join(key, DB_FILE));
    configure(db, true);
    const connection: Connection = { ...newConnectionState(), db, release, key };
    migrate(connection, key);
    // The migrations read and wrote the database, so the WAL file exists; from here on it is fsynced after each commit.
    connection.wal = { path: join(key, `${DB_FILE}-wal`) };
    openWal(connection);
    connections.set(key, connection);
    installExitHook();
    return connection;
  } catch (err) {
    db?.close();
    release();
    throw err;
  }
}

function newConnectionState(): Omit<Connection, "db" | "key"> {
  return { statements: new Map(), arrays: new Map(), counts: new Map(), refs: 1, commits: 0, unsynced: [], syncing: false, syncs: 0, closed: false };
}

/**
 * Opens the WAL file for the fsyncs after commits (again, should SQLite ever have replaced it), and fsyncs its
 * directory so that the file's entry is on disk too (what SQLite does at a WAL's first sync).
 */
function openWal(connection: Connection): number {
  const wal = connection.wal!;
  if (wal.fd !== undefined) {
    if (fstatSync(wal.fd).nlink > 0) return wal.fd;
    closeSync(wal.fd);
    wal.fd = undefined;
  }
  wal.fd = openSync(wal.path, "r");
  fsyncDir(connection.key);
  return wal.fd;
}

function closeConnection(connection: Connection): void {
  connection.refs -= 1;
  if (connection.refs > 0) return;
  commitBatch(connection);
  connection.closed = true;
  // Whatever is committed and not yet acknowledged: fsynced here, at once.
  const wal = connection.wal;
  if (wal?.fd !== undefined && connection.unsynced.length && !connection.failed) {
    const waiting = connection.unsynced;
    connection.unsynced = [];
    try {
      fdatasyncSync(wal.fd);
      for (const w of waiting) w.resolve();
    } catch (err) {
      for (const w of waiting) w.reject(err);
    }
  }
  if (wal?.fd !== undefined && !connection.syncing) {
    closeSync(wal.fd);
    wal.fd = undefined;
  }
  if (connection.key) connections.delete(connection.key);
  connection.statements.clear();
  if (connection.key) {
    // Folds the WAL into the database file, so a closed store is one file.
    try {
      connection.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // a reader (a backup) holds the WAL: the next open checkpoints
    }
  }
  connection.db.close();
  connection.release?.();
}

/** Runs `work` in a transaction (a savepoint inside one already open, so that callers may group writes). */
function transaction<R>(db: DatabaseSync, work: () => R): R {
  if ((db as DatabaseSync & { isTransaction?: boolean }).isTransaction) {
    db.exec("SAVEPOINT docshelf");
    try {
      const result = work();
      db.exec("RELEASE docshelf");
      return result;
    } catch (err) {
      db.exec("ROLLBACK TO docshelf");
      db.exec("RELEASE docshelf");
      throw err;
    }
  }
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
}

/**
 * Runs the write `work` in this turn's shared transaction (group commit: see the head of this file) and answers
 * its result once that transaction committed. A write that throws is undone alone and rejected at once.
 */
function write<R>(connection: Connection, work: () => R): Promise<R> {
  const db = connection.db;
  if (connection.failed) return Promise.reject(connection.failed);
  if (!connection.batch) {
    db.exec("BEGIN IMMEDIATE");
    connection.batch = [];
    // While an fsync runs, the transaction stays open and takes every write until it returns (its callback
    // commits): they would wait for the next fsync anyway, and one commit writes a page they share once.
    if (!connection.syncing) setImmediate(() => commitBatch(connection));
  }
  let result: R;
  db.exec("SAVEPOINT docshelf_write");
  try {
    result = work();
    db.exec("RELEASE docshelf_write");
  } catch (err) {
    db.exec("ROLLBACK TO docshelf_write");
    db.exec("RELEASE docshelf_write");
    return Promise.reject(err);
  }
  const waiting = connection.batch;
  return new Promise<R>((resolve, reject) => waiting.push({ resolve: () => resolve(result), reject }));
}

/**
 * Commits the turn's shared transaction (or rejects its writes if the commit fails), then hands its writes to the
 * fsync of the WAL that acknowledges them; in memory, acknowledges them at once.
 */
function commitBatch(connection: Connection): void {
  const waiting = connection.batch;
  if (!waiting) return;
  connection.batch = undefined;
  try {
    connection.db.exec("COMMIT");
    connection.commits += 1;
  } catch (err) {
    connection.batch = waiting;
    abortBatch(connection, err);
    return;
  }
  if (!connection.wal) {
    for (const w of waiting) w.resolve();
    return;
  }
  for (const w of waiting) connection.unsynced.push(w);
  syncWal(connection);
}

/**
 * fsyncs the WAL in the thread pool for every write committed so far, unless an fsync runs already (its
 * callback starts the next one for the writes committed meanwhile), and acknowledges them when it returns.
 */
function syncWal(connection: Connection): void {
  if (connection.syncing || !connection.unsynced.length) return;
  const waiting = connection.unsynced;
  connection.unsynced = [];
  if (connection.failed) {
    for (const w of waiting) w.reject(connection.failed);
    return;
  }
  let fd: number;
  try {
    fd = openWal(connection);
  } catch (err) {
    fail(connection, err, waiting);
    return;
  }
  connection.syncing = true;
  fdatasync(fd, (err) => {
    connection.syncing = false;
    if (connection.closed && connection.wal?.fd !== undefined) {
      closeSync(connection.wal.fd);
      connection.wal.fd = undefined;
    }
    if (err) {
      fail(connection, err, waiting);
      // The writes held for this fsync's end are refused too, and undone.
      if (connection.batch) abortBatch(connection, connection.failed!);
      return;
    }
    connection.syncs += 1;
    for (const w of waiting) w.resolve();
    if (connection.batch) commitBatch(connection);
    else syncWal(connection);
  });
}

/** Rolls the open transaction back and rejects its writes (the kept counts followed them: dropped). */
function abortBatch(connection: Connection, err: unknown): void {
  const waiting = connection.batch ?? [];
  connection.batch = undefined;
  try {
    connection.db.exec("ROLLBACK");
  } catch {
    // already rolled back by SQLite
  }
  for (const counts of connection.counts.values()) counts.clear();
  for (const w of waiting) w.reject(err);
}

/** An fsync of the WAL failed: its writes are rejected, and so is every write after them (see the head of this file). */
function fail(connection: Connection, err: unknown, waiting: Waiter[]): void {
  connection.failed ??= new Error(`the store's write-ahead log (${connection.wal?.path}) could not be synced to disk: ${(err as Error)?.message ?? String(err)}; restart the server once the disk is healthy`);
  for (const w of [...waiting, ...connection.unsynced.splice(0)]) w.reject(connection.failed);
}

// ---- schema versions and migrations ----

interface Migration {
  version: number;
  name: string;
  /** Runs inside the migration's transaction; returns what the record says it did. */
  up(db: DatabaseSync, dir: string): string;
}

const MIGRATIONS: Migration[] = [
  { version: 1, name: "collections as JSON tables", up: () => "bookkeeping tables created" },
  { version: 2, name: "import the nedb store", up: (db, dir) => importNedb(db, dir) },
];

function migrate(connection: Connection, location: string): void {
  const { db } = connection;
  db.exec("CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  db.exec("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL, detail TEXT NOT NULL)");
  db.exec("CREATE TABLE IF NOT EXISTS _arrays (collection TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (collection, field))");
  const current = Number((db.prepare("SELECT value FROM _meta WHERE key = 'schema_version'").get() as { value?: string } | undefined)?.value ?? 0);
  if (current > SCHEMA_VERSION) throw new StoreTooNewError(location, current);
  let migrated = false;
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    transaction(db, () => {
      const detail = migration.up(db, location);
      db.prepare("INSERT OR REPLACE INTO _migrations (version, name, applied_at, detail) VALUES (?, ?, ?, ?)").run(migration.version, migration.name, new Date().toISOString(), detail);
      db.prepare("INSERT OR REPLACE INTO _meta (key, value) VALUES ('schema_version', ?)").run(String(migration.version));
    });
    migrated = true;
  }
  // On disk before anything depends on it (the nedb files moved aside below): a checkpoint syncs the WAL, copies it
  // into the database file and syncs that (synchronous=NORMAL does not sync a commit by itself).
  if (migrated && location) db.exec("PRAGMA wal_checkpoint(FULL)");
  keepNedbFilesAside(location);
}

/** The nedb files (`<collection>.db`) of a directory written by earlier versions. */
function nedbFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith(".db") && statSync(join(dir, name)).isFile());
}

/**
 * Copies every document of the directory's nedb files into tables, replaying each file as nedb loads it
 * (nedb-file.ts: a later line for an id replaces an earlier one, `$$deleted` removes it, dates become ISO
 * strings) straight into SQLite, one line in memory at a time. A line that does not parse (a torn last line
 * left by a crash during an append) is skipped and counted in the migration's record. The files are read, not
 * changed: they are moved aside after the migration committed (keepNedbFilesAside).
 */
function importNedb(db: DatabaseSync, dir: string): string {
  const files = nedbFiles(dir);
  if (!files.length) return "no nedb files";
  const report: string[] = [];
  for (const file of files) {
    const name = file.slice(0, -3);
    createTable(db, name);
    const put = db.prepare(`INSERT OR REPLACE INTO ${tableOf(name)} (id, doc) VALUES (?, ?)`);
    const remove = db.prepare(`DELETE FROM ${tableOf(name)} WHERE id = ?`);
    const arrays = new Set<string>();
    let skipped = 0;
    for (const record of nedbRecords(join(dir, file))) {
      if (record.kind === "document") {
        for (const field of arrayFieldsOf(record.doc)) arrays.add(field);
        put.run(record.id, toJson(record.doc));
      } else if (record.kind === "deleted") remove.run(record.id);
      else if (record.kind === "unreadable") skipped++;
    }
    const note = db.prepare("INSERT OR IGNORE INTO _arrays (collection, field) VALUES (?, ?)");
    for (const field of arrays) note.run(name, field);
    const count = Number((db.prepare(`SELECT count(*) AS n FROM ${tableOf(name)}`).get() as { n: number }).n);
    report.push(`${name}: ${count} documents${skipped ? `, ${skipped} unreadable lines skipped` : ""}`);
  }
  return `imported ${report.join("; ")}; files kept in ${NEDB_KEPT_DIR}/`;
}

/** Moves imported nedb files (and the old lock file) into NEDB_KEPT_DIR once their import is recorded. */
function keepNedbFilesAside(dir: string): void {
  const files = nedbFiles(dir);
  if (!files.length) return;
  const kept = join(dir, NEDB_KEPT_DIR);
  mkdirSync(kept, { recursive: true });
  for (const file of files) {
    let target = join(kept, file);
    for (let n = 1; existsSync(target); n++) target = join(kept, `${file}.${n}`);
    renameSync(join(dir, file), target);
  }
  fsyncDir(kept);
  fsyncDir(dir);
}

export { fsyncDir };

/** The top-level fields of a stored document that hold an array. */
function arrayFieldsOf(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key in doc) if (Array.isArray(doc[key])) out.push(key);
  return out;
}

function createTable(db: DatabaseSync, name: string): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${tableOf(name)} (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
}

function indexName(collection: string, index: IndexSpec, suffix: string): string {
  return quoteIdent(`i:${collection}:${index.fields.join(",")}${suffix}`);
}

function createIndexes(db: DatabaseSync, name: string, indexes: IndexSpec[]): void {
  for (const index of indexes) {
    const columns = index.fields.map(fieldExpr).join(", ");
    if (index.unique && index.sparse) {
      // Unique among documents that have the fields; a plain index beside it serves lookups.
      const present = index.fields.filter((f) => f !== "id").map((f) => `${fieldExpr(f)} IS NOT NULL`).join(" AND ") || "1";
      db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${indexName(name, index, ":unique-sparse")} ON ${tableOf(name)} (${columns}) WHERE ${present}`);
      db.exec(`CREATE INDEX IF NOT EXISTS ${indexName(name, index, "")} ON ${tableOf(name)} (${columns}, id)`);
    } else if (index.unique) {
      db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${indexName(name, index, ":unique")} ON ${tableOf(name)} (${columns})`);
    } else {
      // id last, as every sort ends with it (normalizeSort): a sorted page is read off the index in order.
      const withId = index.fields.includes("id") ? columns : `${columns}, id`;
      db.exec(`CREATE INDEX IF NOT EXISTS ${indexName(name, index, "")} ON ${tableOf(name)} (${withId})`);
    }
  }
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  /** Shared by every instance of this collection on the connection. */
  private readonly arrays: Set<string>;

  constructor(
    readonly name: string,
    private readonly connection: Connection,
  ) {
    this.table = tableOf(name);
    let arrays = connection.arrays.get(name);
    if (!arrays) {
      const rows = connection.db.prepare("SELECT field FROM _arrays WHERE collection = ?").all(name) as Array<{ field: string }>;
      arrays = new Set(rows.map((r) => r.field));
      connection.arrays.set(name, arrays);
    }
    this.arrays = arrays;
  }

  /** Records the array fields of a document about to be written, inside the write's transaction. */
  private noteArrays(doc: Record<string, unknown>): void {
    for (const field of arrayFieldsOf(doc)) {
      if (this.arrays.has(field)) continue;
      this.statement("INSERT OR IGNORE INTO _arrays (collection, field) VALUES (?, ?)").run(this.name, field);
      this.arrays.add(field);
    }
  }

  private statement(sql: string): StatementSync {
    const cache = this.connection.statements;
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size > 1000) cache.clear();
      statement = this.connection.db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  }

  private where(filter: Filter): SqlPart {
    return toWhere(toQuery(filter), this.arrays);
  }

  /** This collection's kept counts (shared by every instance of it on the connection). */
  private get kept(): KeptCounts {
    let kept = this.connection.counts.get(this.name);
    if (!kept) this.connection.counts.set(this.name, (kept = new KeptCounts()));
    return kept;
  }

  /**
   * Moves the kept counts by a document just written (inside the write, after its last statement); should that
   * fail, they are dropped rather than left wrong.
   */
  private countsMoved(before: ReturnType<KeptCounts["snapshot"]> | undefined, after: Record<string, unknown>): void {
    const kept = this.kept;
    if (!kept.size) return;
    try {
      kept.moved(before, after);
    } catch {
      kept.clear();
    }
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const sort = normalizeSort(options.sort);
    let where = this.where(filter);
    if (options.after) {
      const after = toWhere(afterQuery(sort, options.after), this.arrays);
      where = { sql: `(${where.sql}) AND (${after.sql})`, params: [...where.params, ...after.params] };
    }
    const params: SqlValue[] = [...where.params];
    let sql = `SELECT id, doc FROM ${this.table} WHERE ${where.sql} ORDER BY ${toOrderBy(sort)}`;
    if (options.limit !== undefined) {
      sql += " LIMIT ?";
      params.push(Math.max(0, Math.floor(options.limit)));
    }
    return (this.statement(sql).all(...params) as Row[]).map((row) => fromRow<T>(row));
  }

  async findOne(filter: Filter): Promise<T | null> {
    const where = this.where(filter);
    const row = this.statement(`SELECT id, doc FROM ${this.table} WHERE ${where.sql} LIMIT 1`).get(...where.params) as Row | undefined;
    return row ? fromRow<T>(row) : null;
  }

  async count(filter: Filter): Promise<number> {
    const query = toQuery(filter);
    const where = toWhere(query, this.arrays);
    const key = `${where.sql}\u0000${JSON.stringify(where.params)}`;
    const kept = this.kept;
    const known = kept.get(key);
    if (known !== undefined) return known;
    const n = Number((this.statement(`SELECT count(*) AS n FROM ${this.table} WHERE ${where.sql}`).get(...where.params) as { n: number }).n);
    const conditions = countable(query, this.arrays);
    if (conditions) kept.keep(key, conditions, n);
    return n;
  }

  async insert(doc: T): Promise<T> {
    const { id, ...rest } = doc as T & Record<string, unknown>;
    const stored = encodeKeys(rest);
    const json = toJson(stored);
    try {
      return await write(this.connection, () => {
        if (arrayFieldsOf(stored).some((field) => !this.arrays.has(field))) this.noteArrays(stored);
        this.statement(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`).run(id, json);
        const inserted = fromRow<T>({ id, doc: json });
        this.countsMoved(undefined, inserted as unknown as Record<string, unknown>);
        return inserted;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async updateOne(filter: Filter, update: Update<T>): Promise<T | null> {
    const mods = toModifiers(update);
    if (Object.keys(mods).length === 0) return this.findOne(filter);
    const where = this.where(filter);
    try {
      return await write(this.connection, () => {
        const row = this.statement(`SELECT id, doc FROM ${this.table} WHERE ${where.sql} LIMIT 1`).get(...where.params) as Row | undefined;
        if (!row) return null;
        const stored = JSON.parse(row.doc) as Record<string, unknown>;
        let before: ReturnType<KeptCounts["snapshot"]> | undefined;
        if (this.kept.size) {
          stored.id = row.id;
          before = this.kept.snapshot(stored);
        }
        applyModifiers(stored, mods);
        delete stored.id;
        this.noteArrays(stored);
        const json = toJson(stored);
        this.statement(`UPDATE ${this.table} SET doc = ? WHERE id = ?`).run(json, row.id);
        const updated = fromRow<T>({ id: row.id, doc: json });
        if (before) this.countsMoved(before, updated as unknown as Record<string, unknown>);
        return updated;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive): Promise<boolean> {
    const updated = await this.updateOne({ id, [field]: expected } as Filter, { $set: { [field]: next } as Partial<T> });
    return updated !== null;
  }

  // A delete drops the collection's kept counts (deletes are rare; the next count asks SQLite).
  async deleteOne(filter: Filter): Promise<boolean> {
    const where = this.where(filter);
    const result = await write(this.connection, () => {
      const done = this.statement(`DELETE FROM ${this.table} WHERE id = (SELECT id FROM ${this.table} WHERE ${where.sql} LIMIT 1)`).run(...where.params);
      if (Number(done.changes) > 0) this.kept.clear();
      return done;
    });
    return Number(result.changes) > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = this.where(filter);
    const result = await write(this.connection, () => {
      const done = this.statement(`DELETE FROM ${this.table} WHERE ${where.sql}`).run(...where.params);
      if (Number(done.changes) > 0) this.kept.clear();
      return done;
    });
    return Number(result.changes);
  }
}

export interface SqliteOptions {
  /** Directory for this service's files; omitted keeps everything in memory (unit tests). */
  dir?: string;
  /** What error messages call the data directory (the DATA_DIR as set); default `dir`. */
  dataDir?: string;
}

export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  /** One connection per directory, its transactions committed and fsynced in order (see the head of this file). */
  readonly writesInOrder = true;
  private readonly connection: Connection;
  private open = true;

  /**
   * Opens (and migrates) the directory's database. Throws DataDirLockedError when another process holds
   * it, StoreTooNewError when a newer version wrote it.
   */
  constructor(private readonly options: SqliteOptions = {}) {
    this.connection = openConnection(options.dir, options.dataDir);
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    if (!this.open) throw new Error("the store is closed");
    const db = this.connection.db;
    transaction(db, () => {
      createTable(db, spec.name);
      createIndexes(db, spec.name, spec.indexes ?? []);
    });
    return new SqliteCollection<T>(spec.name, this.connection);
  }

  /** Files under `<dir>/<name>` (DATA_DIR/<service>/<name>), written with fsync; in memory, a per-process temp dir. */
  blobs(name: string): BlobStore {
    return new DiskBlobStore(this.options.dir ? join(this.options.dir, name) : join(tmpdir(), `docshelf-${name}-${process.pid}`));
  }

  /** Bytes of every file under the service's directory (database, WAL, stored files); in memory, the database's pages. */
  async sizeBytes(): Promise<number> {
    if (!this.options.dir) {
      const row = this.connection.db.prepare("SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()").get() as { bytes: number };
      return Number(row.bytes);
    }
    return directoryBytes(this.options.dir);
  }

  /** Transactions this store's database has committed since it was opened (several writes share one: group commit). */
  commitCount(): number {
    return this.connection.commits;
  }

  /** fsyncs of the write-ahead log since the store was opened (one may acknowledge several commits); 0 in memory. */
  syncCount(): number {
    return this.connection.syncs;
  }

  /** The schema version and the migrations recorded in this store, oldest first. */
  migrations(): Array<{ version: number; name: string; applied_at: string; detail: string }> {
    return this.connection.db.prepare("SELECT version, name, applied_at, detail FROM _migrations ORDER BY version").all() as Array<{
      version: number;
      name: string;
      applied_at: string;
      detail: string;
    }>;
  }

  isOpen(): boolean {
    return this.open;
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    closeConnection(this.connection);
  }
}

