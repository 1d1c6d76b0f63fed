// MongoDB adapter through mongoose's connection; kept thin so the shared contract tests pin its behaviour.
import mongoose from "mongoose";
import { ConflictError } from "@docshelf/errors";
import { afterQuery, normalizeSort, sortSpec } from "./cursor";
import { toQuery, type Filter, type Primitive } from "./filter";
import type { Collection, CollectionSpec, Doc, FindOptions, Store, Update } from "./types";
import { toModifiers } from "./nedb";

type Stored = Record<string, unknown> & { _id: string };
type RawCollection = mongoose.mongo.Collection<Stored>;

function fromStored<T extends Doc>(stored: Stored | null): T | null {
  if (!stored) return null;
  const { _id, ...rest } = stored;
  return { ...rest, id: _id } as unknown as T;
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

/** nedb's `$unset: {k: true}` is Mongo's `$unset: {k: ""}`; the rest is the same language. */
function mongoModifiers<T>(update: Update<T>): Record<string, unknown> {
  const mods = toModifiers(update);
  if (mods.$unset) mods.$unset = Object.fromEntries(Object.keys(mods.$unset as object).map((k) => [k, ""]));
  return mods;
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly raw: RawCollection,
  ) {}

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
      await this.raw.insertOne({ ...rest, _id: id } as Stored);
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
      const result = await this.raw.findOneAndUpdate(toQuery(filter) as mongoose.mongo.Filter<Stored>, mods, {
        returnDocument: "after",
      });
      return fromStored<T>(result as Stored | null);
    } catch (err) {
      if (isDuplicateKey(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive): Promise<boolean> {
    // Through toQuery like every other filter, so neither the id nor the expected value can be an operator.
    const query = toQuery({ id, [field]: expected } as Filter);
    try {
      const result = await this.raw.updateOne(query as mongoose.mongo.Filter<Stored>, { $set: { [field]: next } });
      return result.matchedCount === 1;
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
  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly prefix: string,
    /** The server's own name and version, e.g. `MongoDB 7.0.14` or `FerretDB v1.24.2`. */
    readonly server: string,
    readonly atomicUpdates: boolean,
  ) {}

  /** Connects; collections are named `<service>_<collection>` so services never share one. */
  static async connect(url: string, service: string): Promise<MongoStore> {
    const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000 }).asPromise();
    const info = (await connection.db!.admin().command({ buildInfo: 1 })) as { version?: string; ferretdbVersion?: string };
    // FerretDB 1.x applies an update by reading the document, changing it and writing it back, with no
    // check that it is still what was read (FerretDB issue #3040): two racing updates may both "match".
    if (info.ferretdbVersion) return new MongoStore(connection, service, `FerretDB ${info.ferretdbVersion}`, !/^v?1\./.test(info.ferretdbVersion));
    return new MongoStore(connection, service, `MongoDB ${info.version ?? "unknown"}`, true);
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    const raw = this.connection.collection<Stored>(`${this.prefix}_${spec.name}`) as unknown as RawCollection;
    for (const index of spec.indexes ?? []) {
      const keys = Object.fromEntries(index.fields.map((f) => [f === "id" ? "_id" : f, 1]));
      await raw.createIndex(keys, { unique: index.unique ?? false, sparse: index.sparse ?? false });
    }
    return new MongoCollection<T>(spec.name, raw);
  }

  isOpen(): boolean {
    return this.connection.readyState === 1;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
