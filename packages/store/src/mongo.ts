// MongoDB adapter through mongoose's connection; kept thin so the shared contract tests pin its behaviour.
import mongoose from "mongoose";
import { ConflictError } from "@docshelf/errors";
import { afterQuery, normalizeSort, sortSpec } from "./cursor";
import { Operator, toQuery, type Filter, type Primitive } from "./filter";
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

/** A plain value a stored field is compared with for equality (null, which also means missing, is not one). */
type Plain = string | number | boolean;

function isPlain(value: unknown): value is Plain {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/** The most ids a filter may name for them to be looked up one by one (more: one query as usual). */
const MAX_ID_LOOKUPS = 200;
/** How many of those lookups are on their way at once. */
const ID_LOOKUPS_AT_ONCE = 16;

/**
 * The filter's conditions other than on `id` when every one is an equality with a plain value on a top-level
 * field (what a document can be checked against here as the server would); undefined when any is more.
 */
function plainEqualities(filter: Filter): Array<[string, Plain]> | undefined {
  const out: Array<[string, Plain]> = [];
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined || field === "id") continue;
    if (field.includes(".") || !isPlain(value)) return undefined;
    out.push([field, value]);
  }
  return out;
}

/** MongoDB's equality of a stored field with a plain value: the same value, or an array holding it. */
function matchesAll(stored: Stored, equalities: Array<[string, Plain]>): boolean {
  return equalities.every(([field, value]) => {
    const held = stored[field];
    return held === value || (Array.isArray(held) && held.includes(value));
  });
}

/** Ids in the order MongoDB sorts strings: by their UTF-8 bytes. */
function compareIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * How a filter that names its documents by id can be asked of a server that narrows a query only when it is
 * exactly `{_id: value}` (FerretDB 1.x on SQLite reads and decodes every document of the collection for any
 * other, and its PostgreSQL backend narrows little more): the ids (`id` equal to a string, or `op.in` of a few
 * strings), each looked up alone, and the rest checked here. Undefined when the filter is not of that shape.
 */
function idLookups(filter: Filter): { ids: string[]; rest: Array<[string, Plain]> } | undefined {
  const id = filter.id;
  let ids: string[];
  if (typeof id === "string") ids = [id];
  else if (id instanceof Operator && id.name === "$in" && Array.isArray(id.value) && id.value.length <= MAX_ID_LOOKUPS && id.value.every((v) => typeof v === "string")) {
    ids = [...new Set(id.value as string[])];
  } else return undefined;
  const rest = plainEqualities(filter);
  return rest ? { ids, rest } : undefined;
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly raw: RawCollection,
    /** Set when the server's updates are not atomic: every update holds its document's lock. */
    private readonly locks?: DocumentLocks,
  ) {}

  /**
   * The documents of these ids that also match `rest`, each looked up by its id alone (a server with locks is
   * FerretDB 1.x, which narrows no other query in SQL: see idLookups).
   */
  private async lookUp(ids: string[], rest: Array<[string, Plain]>, first = false): Promise<Stored[]> {
    const found: Stored[] = [];
    for (let i = 0; i < ids.length && !(first && found.length); i += ID_LOOKUPS_AT_ONCE) {
      const batch = await Promise.all(ids.slice(i, i + ID_LOOKUPS_AT_ONCE).map((id) => this.raw.findOne({ _id: id })));
      for (const doc of batch) if (doc && matchesAll(doc as Stored, rest)) found.push(doc as Stored);
    }
    return found;
  }

  /** The filter's id lookups when this server needs them (FerretDB 1.x: the one with document locks). */
  private lookups(filter: Filter): { ids: string[]; rest: Array<[string, Plain]> } | undefined {
    return this.locks ? idLookups(filter) : undefined;
  }

  /**
   * Runs `work` (an update of the one document matching `filter` and `_id`) under that document's lock
   * when the server needs one: it finds the candidate, locks it, and `work` re-checks the filter. When the
   * filter's other conditions are plain equalities they are checked here, under the lock, and `work` gets
   * `{_id}` alone (a query FerretDB 1.x narrows in SQL); every update of that server holds the lock, so the
   * document cannot change between the check and the update.
   */
  private async locked<R>(filter: Filter, miss: R, work: (query: Record<string, unknown>) => Promise<R | undefined>): Promise<R> {
    const query = toQuery(filter) as Record<string, unknown>;
    const locks = this.locks;
    if (!locks) return (await work(query)) ?? miss;
    const rest = plainEqualities(filter);
    const byId = idLookups(filter);
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate =
        typeof query._id === "string"
          ? query._id
          : byId
            ? (await this.lookUp(byId.ids, byId.rest, true))[0]?._id
            : (await this.raw.findOne(query as mongoose.mongo.Filter<Stored>, { projection: { _id: 1 } }))?._id;
      if (candidate === undefined) return miss;
      const result = await locks.with(`${this.name}:${candidate}`, async () => {
        if (!rest) return work({ $and: [query, { _id: candidate }] });
        if (rest.length) {
          const current = await this.raw.findOne({ _id: candidate });
          if (!current || !matchesAll(current as Stored, rest)) return undefined;
        }
        return work({ _id: candidate });
      });
      // undefined: the candidate no longer matched once locked (another update got there first); look again.
      if (result !== undefined) return result;
      if (typeof query._id === "string") return miss;
    }
    return miss;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const sort = normalizeSort(options.sort);
    let query = toQuery(filter);
    const byId = this.lookups(filter);
    const limit = options.limit;
    if (byId && !options.after && sort.length === 1 && (limit === undefined || (Number.isInteger(limit) && limit > 0))) {
      const direction = sort[0][1];
      const docs = (await this.lookUp(byId.ids, byId.rest)).sort((a, b) => compareIds(a._id, b._id) * direction);
      return docs.slice(0, limit ?? docs.length).map((d) => fromStored<T>(d) as T);
    }
    if (options.after) query = { $and: [query, afterQuery(sort, options.after)] };
    let cursor = this.raw.find(query as mongoose.mongo.Filter<Stored>).sort(sortSpec(sort));
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()).map((d) => fromStored<T>(d as Stored) as T);
  }

  async findOne(filter: Filter): Promise<T | null> {
    const query = toQuery(filter);
    const byId = this.lookups(filter);
    if (byId && byId.ids.length === 1) return fromStored<T>((await this.lookUp(byId.ids, byId.rest))[0] ?? null);
    return fromStored<T>((await this.raw.findOne(query as mongoose.mongo.Filter<Stored>)) as Stored | null);
  }

  async count(filter: Filter): Promise<number> {
    const query = toQuery(filter);
    const byId = this.lookups(filter);
    if (byId) return (await this.lookUp(byId.ids, byId.rest)).length;
    return await this.raw.countDocuments(query as mongoose.mongo.Filter<Stored>);
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
