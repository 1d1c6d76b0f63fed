// MongoDB adapter through mongoose's connection; kept thin so the shared contract tests pin its behaviour.
import mongoose from "mongoose";
import { ConflictError } from "@docshelf/errors";
import { afterQuery, normalizeSort, sortSpec } from "./cursor";
import { toQuery, type Filter, type Primitive } from "./filter";
import type { Collection, CollectionSpec, Doc, FindOptions, Store, Update } from "./types";
import { toModifiers } from "./modifiers";
import { newId } from "./ids";
import { decodeKeys, encodeKeys } from "./keys";
import { GridFsBlobStore, type BlobStore } from "./blobs";
import { StoreTooNewError } from "./sqlite";

/**
 * The MongoDB store's schema version. Each version's migration runs once at start-up and is recorded in
 * `<service>__migrations` (one document per version, its _id the version: replicas starting together
 * record it once); data of a higher version is refused, as in the embedded store.
 */
export const MONGO_SCHEMA_VERSION = 1;

interface MongoMigration {
  version: number;
  name: string;
  up(connection: mongoose.Connection, prefix: string): Promise<string>;
}

const MONGO_MIGRATIONS: MongoMigration[] = [{ version: 1, name: "collections named <service>_<collection>", up: async () => "nothing to change" }];

interface MigrationDoc {
  _id: number;
  name: string;
  appliedAt: string;
  detail: string;
}

/** Runs the migrations this database has not recorded, in order; refuses a database of a newer version. */
export async function migrateMongo(connection: mongoose.Connection, prefix: string): Promise<void> {
  const recorded = connection.collection<MigrationDoc>(`${prefix}__migrations`) as unknown as mongoose.mongo.Collection<MigrationDoc>;
  const newest = await recorded.find({}).sort({ _id: -1 }).limit(1).toArray();
  const current = newest[0]?._id ?? 0;
  if (current > MONGO_SCHEMA_VERSION) throw new StoreTooNewError(`the MongoDB collections of ${prefix}`, current, MONGO_SCHEMA_VERSION);
  for (const migration of MONGO_MIGRATIONS) {
    if (migration.version <= current) continue;
    const detail = await migration.up(connection, prefix);
    try {
      await recorded.insertOne({ _id: migration.version, name: migration.name, appliedAt: new Date().toISOString(), detail });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // another replica recorded it first
    }
  }
}

type Stored = Record<string, unknown> & { _id: string };
type RawCollection = mongoose.mongo.Collection<Stored>;

function fromStored<T extends Doc>(stored: Stored | null): T | null {
  if (!stored) return null;
  const { _id, ...rest } = stored;
  return decodeKeys({ ...rest, id: _id }) as unknown as T;
}

/**
 * A unique index refused the write: MongoDB's E11000, or FerretDB 1.x's backend constraint error, which
 * an update (not an insert) reports as an InternalError naming SQLite's or PostgreSQL's unique constraint.
 */
export function isDuplicateKey(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === 11000) return true;
  return code === 1 && typeof message === "string" && /UNIQUE constraint failed|duplicate key value violates unique constraint/.test(message);
}

/** The modifiers' `$unset: {k: true}` is Mongo's `$unset: {k: ""}`; the rest is the same language. */
function mongoModifiers<T>(update: Update<T>): Record<string, unknown> {
  const mods = toModifiers(update);
  if (mods.$unset) mods.$unset = Object.fromEntries(Object.keys(mods.$unset as object).map((k) => [k, ""]));
  return mods;
}

/** How long a document lock holds when its holder died before releasing it. */
const LOCK_LEASE_MS = 5_000;
/** How long an update waits for a document's lock before it gives up. */
const LOCK_WAIT_MS = 15_000;

interface LockDoc {
  _id: string;
  token: string;
  expires: number;
}

/**
 * Per-document locks for a server whose updates are read-modify-write (FerretDB 1.x, issue #3040): an
 * insert with a unique _id is atomic there, so whoever inserts `<collection>:<id>` holds the document until
 * it deletes the lock again. Every updateOne and compareAndSwap of the store takes it, which makes them
 * atomic against each other across processes. A holder that dies leaves a lock that others break after
 * LOCK_LEASE_MS.
 */
export class DocumentLocks {
  constructor(private readonly raw: mongoose.mongo.Collection<LockDoc>) {}

  async with<R>(key: string, work: () => Promise<R>): Promise<R> {
    const token = newId();
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.raw.insertOne({ _id: key, token, expires: Date.now() + LOCK_LEASE_MS });
        break;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const held = await this.raw.findOne({ _id: key });
      if (held && held.expires < Date.now()) {
        await this.raw.deleteOne({ _id: key, token: held.token });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the lock of ${key}`);
      await new Promise((r) => setTimeout(r, Math.min(50, 2 + attempt * 3) * (0.5 + Math.random())));
    }
    try {
      return await work();
    } finally {
      await this.raw.deleteOne({ _id: key, token }).catch(() => undefined);
    }
  }
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly raw: RawCollection,
    /** Set when the server's updates are not atomic: every update holds its document's lock. */
    private readonly locks?: DocumentLocks,
  ) {}

  /**
   * Runs `work` (an update of the one document matching `filter` and `_id`) under that document's lock
   * when the server needs one: it finds the candidate, locks it, and `work` re-checks the filter.
   */
  private async locked<R>(filter: Filter, miss: R, work: (query: Record<string, unknown>) => Promise<R | undefined>): Promise<R> {
    const query = toQuery(filter) as Record<string, unknown>;
    const locks = this.locks;
    if (!locks) return (await work(query)) ?? miss;
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = typeof query._id === "string" ? query._id : (await this.raw.findOne(query as mongoose.mongo.Filter<Stored>, { projection: { _id: 1 } }))?._id;
      if (candidate === undefined) return miss;
      const result = await locks.with(`${this.name}:${candidate}`, () => work({ $and: [query, { _id: candidate }] }));
      // undefined: the candidate no longer matched once locked (another update got there first); look again.
      if (result !== undefined) return result;
      if (typeof query._id === "string") return miss;
    }
    return miss;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const sort = normalizeSort(options.sort);
    let query = toQuery(filter);
    if (options.after) query = { $and: [query, afterQuery(sort, options.after)] };
    let cursor = this.raw.find(query as mongoose.mongo.Filter<Stored>).sort(sortSpec(sort));
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()).map((d) => fromStored<T>(d as Stored) as T);
  }

  async findOne(filter: Filter): Promise<T | null> {
    return fromStored<T>((await this.raw.findOne(toQuery(filter) as mongoose.mongo.Filter<Stored>)) as Stored | null);
  }

  async count(filter: Filter): Promise<number> {
    return await this.raw.countDocuments(toQuery(filter) as mongoose.mongo.Filter<Stored>);
  }

  async insert(doc: T): Promise<T> {
    const { id, ...rest } = doc as Doc & Record<string, unknown>;
    try {
      await this.raw.insertOne({ ...encodeKeys(rest), _id: id } as Stored);
      return doc;
    } catch (err) {
      if (isDuplicateKey(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async updateOne(filter: Filter, update: Update<T>): Promise<T | null> {
    const mods = mongoModifiers(update);
    if (Object.keys(mods).length === 0) return this.findOne(filter);
    try {
      return await this.locked<T | null>(filter, null, async (query) => {
        const result = await this.raw.findOneAndUpdate(query as mongoose.mongo.Filter<Stored>, mods, { returnDocument: "after" });
        return result ? fromStored<T>(result as Stored) : undefined;
      });
    } catch (err) {
      if (isDuplicateKey(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive): Promise<boolean> {
    // Through toQuery like every other filter, so neither the id nor the expected value can be an operator.
    const filter = { id, [field]: expected } as Filter;
    try {
      return await this.locked(filter, false, async (query) => {
        const result = await this.raw.updateOne(query as mongoose.mongo.Filter<Stored>, { $set: { [field]: next } });
        return result.matchedCount === 1 ? true : undefined;
      });
    } catch (err) {
      if (isDuplicateKey(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.raw.deleteOne(toQuery(filter) as mongoose.mongo.Filter<Stored>)).deletedCount === 1;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.raw.deleteMany(toQuery(filter) as mongoose.mongo.Filter<Stored>)).deletedCount;
  }
}

export class MongoStore implements Store {
  readonly kind = "mongo" as const;
  readonly writesInOrder = false;
  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly prefix: string,
    /** The server's own name and version, e.g. `MongoDB 7.0.14` or `FerretDB v1.24.2`. */
    readonly server: string,
    /** Whether updates take per-document locks because the server's own are not atomic (FerretDB 1.x). */
    readonly documentLocks: boolean,
  ) {
    if (documentLocks) this.locks = new DocumentLocks(connection.collection<LockDoc>(`${prefix}__locks`) as unknown as mongoose.mongo.Collection<LockDoc>);
  }

  private readonly locks?: DocumentLocks;

  /** Connects; collections are named `<service>_<collection>` so services never share one. */
  static async connect(url: string, service: string): Promise<MongoStore> {
    const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000 }).asPromise();
    const info = (await connection.db!.admin().command({ buildInfo: 1 })) as { version?: string; ferretdbVersion?: string };
    try {
      await migrateMongo(connection, service);
    } catch (err) {
      await connection.close();
      throw err;
    }
    // FerretDB 1.x applies an update by reading the document, changing it and writing it back, with no
    // check that it is still what was read (FerretDB issue #3040): two racing updates may both "match".
    if (info.ferretdbVersion) return new MongoStore(connection, service, `FerretDB ${info.ferretdbVersion}`, /^v?1\./.test(info.ferretdbVersion));
    return new MongoStore(connection, service, `MongoDB ${info.version ?? "unknown"}`, false);
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    const raw = this.connection.collection<Stored>(`${this.prefix}_${spec.name}`) as unknown as RawCollection;
    for (const index of spec.indexes ?? []) {
      const keys = Object.fromEntries(index.fields.map((f) => [f === "id" ? "_id" : f, 1]));
      await raw.createIndex(keys, { unique: index.unique ?? false, sparse: index.sparse ?? false });
    }
    return new MongoCollection<T>(spec.name, raw, this.locks);
  }

  /** A GridFS bucket named `<service>_<name>` (collections `<service>_<name>.files` and `.chunks`). */
  blobs(name: string): BlobStore {
    return new GridFsBlobStore(this.connection.db!, `${this.prefix}_${name}`);
  }

  isOpen(): boolean {
    return this.connection.readyState === 1;
  }

  /** Storage and index bytes of the collections named `<service>_…` (GridFS buckets included), from collStats. */
  async sizeBytes(): Promise<number> {
    const db = this.connection.db!;
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.startsWith(`${this.prefix}_`));
    let total = 0;
    for (const name of names) {
      const stats = (await db.command({ collStats: name }).catch(() => ({}))) as { storageSize?: number; totalIndexSize?: number };
      total += Number(stats.storageSize ?? 0) + Number(stats.totalIndexSize ?? 0);
    }
    return total;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
