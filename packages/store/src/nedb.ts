// Embedded adapter: one @seald-io/nedb datastore file per collection under DATA_DIR/<service>/.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directoryBytes, DiskBlobStore, type BlobStore } from "./blobs";
import Datastore from "@seald-io/nedb";
import { serialize } from "@seald-io/nedb/lib/model";
import { ConflictError } from "@docshelf/errors";
import { lockDirectory } from "./dir-lock";
import { copyDecoded, decodeKeys, encodeKeys } from "./keys";
import { OrderedView } from "./nedb-ordered";
import { afterQuery, normalizeSort, sortSpec } from "./cursor";
import { toQuery, type Filter, type Primitive } from "./filter";
import { toModifiers } from "./modifiers";

export { toModifiers };
import type { Collection, CollectionSpec, Doc, FindOptions, Store, Update } from "./types";

type Stored = Record<string, unknown> & { _id: string };

function fromStored<T extends Doc>(stored: Stored | null): T | null {
  if (!stored) return null;
  const { _id, ...rest } = stored;
  return decodeKeys({ ...rest, id: _id }) as unknown as T;
}

/** A copy of a document nedb holds in memory, in the contract's shape (keys decoded, keys.ts): callers may change what they get. */
function copyOut<T extends Doc>(stored: Stored): T {
  const out = copyDecoded(stored) as Record<string, unknown>;
  delete out._id;
  out.id = stored._id;
  return out as T;
}

/** The id of a filter that is exactly `{id: <string>}`: answered from nedb's primary index without a query. */
function idOnly(filter: Filter): string | undefined {
  const id = filter.id;
  if (typeof id !== "string") return undefined;
  for (const key in filter) if (key !== "id" && filter[key] !== undefined) return undefined;
  return id;
}

function toStored(doc: Doc): Stored {
  const { id, ...rest } = doc as Doc & Record<string, unknown>;
  return { ...encodeKeys(rest), _id: id };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { errorType?: string })?.errorType === "uniqueViolated";
}

/** The part of nedb's persistence (not in its typings) that {@link appendThroughOpenFile} replaces. */
interface NedbPersistence {
  filename: string;
  modes: { fileMode: number };
  afterSerialization(line: string): string | Promise<string>;
  persistNewStateAsync(docs: Stored[]): Promise<void>;
  persistCachedDatabaseAsync(): Promise<void>;
}

/**
 * nedb appends each write with `fs.promises.appendFile`: open, write and close on libuv's thread pool,
 * three trips through a busy event loop while the datastore's queue waits (reads included). This keeps
 * the file open and appends with one synchronous `write` instead: the same bytes reach the file (the
 * operating system) before the write is acknowledged, as before (neither fsyncs), without the trips.
 * Compaction replaces the file by a rename, so the descriptor is closed first and reopened by the next
 * append; both run inside the datastore's queue, never at the same time.
 */
function appendThroughOpenFile(db: Datastore<Stored>): () => void {
  const persistence = (db as unknown as { persistence: NedbPersistence }).persistence;
  let fd: number | undefined;
  const closeFile = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const compact = persistence.persistCachedDatabaseAsync.bind(persistence);
  persistence.persistCachedDatabaseAsync = async () => {
    closeFile();
    await compact();
  };
  persistence.persistNewStateAsync = async (docs: Stored[]) => {
    let text = "";
    for (const doc of docs) text += (await persistence.afterSerialization(serialize(doc))) + "\n";
    if (!text) return;
    const bytes = Buffer.from(text, "utf8");
    fd ??= openSync(persistence.filename, "a", persistence.modes.fileMode);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  };
  return closeFile;
}

/** nedb's primary index, which every datastore has (not in its typings). */
interface PrimaryIndexed {
  indexes: { _id: { getMatching(value: string): Stored[] } };
}

/** nedb's indexes by name (a compound one is named by its fields joined with commas; not in its typings). */
interface Indexed {
  indexes: Record<string, { getMatching(key: unknown): Stored[] }>;
}

/**
 * Keys of a compound index that hold exactly the documents a filter of plain equalities matches, when the
 * filter names exactly that index's fields and at least one of them is null; otherwise undefined. nedb
 * looks a compound index up only for a query of plain values, and the contract's null (null or missing)
 * becomes an `$or`, so a thread filter such as `{spaceId, changeRequestId: null, status}` read every
 * document of the collection. A null field is looked up twice, as null and as missing (nedb keys a
 * missing field as undefined), the other fields as given.
 */
function compoundKeysFor(filter: Filter, indexNames: string[]): { name: string; keys: Array<Record<string, unknown>> } | undefined {
  const fields: string[] = [];
  let hasNull = false;
  for (const field in filter) {
    const value = filter[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
    if (value === null) hasNull = true;
    fields.push(field === "id" ? "_id" : field);
  }
  if (!hasNull || fields.length < 2) return undefined;
  const wanted = [...fields].sort().join(",");
  const name = indexNames.find((n) => n.includes(",") && n.split(",").sort().join(",") === wanted);
  if (!name) return undefined;
  let keys: Array<Record<string, unknown>> = [{}];
  for (const field of name.split(",")) {
    const value = filter[field === "_id" ? "id" : field];
    keys = value === null ? keys.flatMap((k) => [{ ...k, [field]: null }, { ...k, [field]: undefined }]) : keys.map((k) => ({ ...k, [field]: value }));
  }
  return { name, keys };
}

class NedbCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly db: Datastore<Stored>,
    private readonly views: OrderedView[] = [],
  ) {}

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const sort = normalizeSort(options.sort);
    // Read from an ordered view directly, as byId: nedb changes its indexes synchronously inside each write.
    for (const view of this.views) {
      const docs = view.find<T>(filter, sort, options, copyOut);
      if (docs) return docs;
    }
    let query = toQuery(filter);
    if (options.after) query = { $and: [query, afterQuery(sort, options.after)] };
    let cursor = this.db.findAsync(query).sort(sortSpec(sort));
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    const docs = await cursor.execAsync();
    return docs.map((d) => fromStored<T>(d as Stored) as T);
  }

  async findOne(filter: Filter): Promise<T | null> {
    const id = idOnly(filter);
    if (id !== undefined) return this.byId(id);
    return fromStored<T>((await this.db.findOneAsync(toQuery(filter))) as Stored | null);
  }

  /**
   * The most common read (a document by id) skips nedb's query path: its executor queue, the query's
   * compilation and candidate matching. nedb changes its in-memory documents and indexes synchronously
   * inside each operation, so a direct read sees every write that has completed, as a queued read would.
   */
  private byId(id: string): T | null {
    const [stored] = (this.db as unknown as PrimaryIndexed).indexes._id.getMatching(id);
    return stored ? copyOut<T>(stored) : null;
  }

  async count(filter: Filter): Promise<number> {
    const indexes = (this.db as unknown as Indexed).indexes;
    const lookup = compoundKeysFor(filter, Object.keys(indexes));
    // Read from the index directly, as byId: nedb changes its indexes synchronously inside each write.
    if (lookup) return lookup.keys.reduce((sum, key) => sum + indexes[lookup.name].getMatching(key).length, 0);
    for (const view of this.views) {
      const n = view.count(filter);
      if (n !== undefined) return n;
    }
    return await this.db.countAsync(toQuery(filter));
  }

  async insert(doc: T): Promise<T> {
    try {
      return fromStored<T>((await this.db.insertAsync(toStored(doc))) as Stored) as T;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async updateOne(filter: Filter, update: Update<T>): Promise<T | null> {
    const mods = toModifiers(update);
    const query = toQuery(filter);
    if (Object.keys(mods).length === 0) return this.findOne(filter);
    try {
      const { numAffected, affectedDocuments } = await this.db.updateAsync(query, mods, {
        multi: false,
        returnUpdatedDocs: true,
      });
      if (!numAffected) return null;
      return fromStored<T>(affectedDocuments as unknown as Stored);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`A ${this.name} record with the same unique value already exists.`);
      throw err;
    }
  }

  async compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive): Promise<boolean> {
    const updated = await this.updateOne({ id, [field]: expected } as Filter, { $set: { [field]: next } as Partial<T> });
    return updated !== null;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.db.removeAsync(toQuery(filter), { multi: false })) > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return await this.db.removeAsync(toQuery(filter), { multi: true });
  }
}

export interface NedbOptions {
  /** Directory for this service's files; omitted keeps everything in memory (unit tests). */
  dir?: string;
  /** What error messages call the data directory (the DATA_DIR as set); default `dir`. */
  dataDir?: string;
}

export class NedbStore implements Store {
  readonly kind = "nedb" as const;
  /** One datastore per collection name: two datastores on one file would overwrite each other. */
  private readonly datastores = new Map<string, Promise<Datastore<Stored>>>();
  /** Ordered views of each datastore's compound indexes, by their fields. */
  private readonly views = new WeakMap<Datastore<Stored>, Map<string, OrderedView>>();
  private open = true;
  /** Releases this process's lock on `dir` (see dir-lock.ts): one process per directory. */
  private readonly unlock: () => void = () => undefined;
  /** Closes each datastore's open data file (see appendThroughOpenFile). */
  private readonly closeFiles: Array<() => void> = [];

  constructor(private readonly options: NedbOptions) {
    if (options.dir) {
      mkdirSync(options.dir, { recursive: true });
      this.unlock = lockDirectory(options.dir, options.dataDir ?? options.dir);
    }
  }

  private async load(name: string): Promise<Datastore<Stored>> {
    const db = new Datastore<Stored>(
      this.options.dir ? { filename: join(this.options.dir, `${name}.db`) } : { inMemoryOnly: true },
    );
    await db.loadDatabaseAsync();
    if (this.options.dir) {
      this.closeFiles.push(appendThroughOpenFile(db));
      // Appends are compacted away once an hour so files do not grow without bound.
      db.setAutocompactionInterval(3600_000);
    }
    return db;
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    let pending = this.datastores.get(spec.name);
    if (!pending) {
      pending = this.load(spec.name);
      this.datastores.set(spec.name, pending);
      pending.catch(() => this.datastores.delete(spec.name));
    }
    const db = await pending;
    for (const index of spec.indexes ?? []) {
      const fieldName = index.fields.map((f) => (f === "id" ? "_id" : f));
      await db.ensureIndexAsync({
        fieldName: fieldName.length === 1 ? fieldName[0] : fieldName,
        unique: index.unique ?? false,
        sparse: index.sparse ?? false,
      });
    }
    return new NedbCollection<T>(spec.name, db, this.orderedViews(db, spec));
  }

  /**
   * One ordered view per compound index of top-level fields (see nedb-ordered.ts), made once per datastore
   * and index (a collection opened twice shares them).
   */
  private orderedViews(db: Datastore<Stored>, spec: CollectionSpec): OrderedView[] {
    const made = (this.views.get(db) ?? new Map<string, OrderedView>());
    this.views.set(db, made);
    const indexes = (db as unknown as { indexes: Record<string, unknown> }).indexes;
    const out: OrderedView[] = [];
    for (const index of spec.indexes ?? []) {
      if (index.fields.length < 2 || index.fields.some((f) => f.includes("."))) continue;
      const key = index.fields.join("\u0000");
      let view = made.get(key);
      if (!view) {
        const nedbIndex = indexes[index.fields.map((f) => (f === "id" ? "_id" : f)).sort().join(",")];
        if (!nedbIndex) continue;
        view = new OrderedView(index.fields);
        view.follow(nedbIndex as Parameters<OrderedView["follow"]>[0], () => db.getAllData() as Stored[]);
        made.set(key, view);
      }
      out.push(view);
    }
    return out;
  }

  /** Files under `<dir>/<name>` (DATA_DIR/<service>/<name>); in memory, a per-process temp dir. */
  blobs(name: string): BlobStore {
    return new DiskBlobStore(this.options.dir ? join(this.options.dir, name) : join(tmpdir(), `docshelf-${name}-${process.pid}`));
  }

  isOpen(): boolean {
    return this.open;
  }

  /** Bytes of the files under the service's directory; 0 in memory. */
  async sizeBytes(): Promise<number> {
    return this.options.dir ? directoryBytes(this.options.dir) : 0;
  }

  async close(): Promise<void> {
    this.open = false;
    for (const pending of this.datastores.values()) {
      const db = await pending.catch(() => undefined);
      if (!db) continue;
      db.stopAutocompaction();
      if (this.options.dir) await db.compactDatafileAsync().catch(() => undefined);
    }
    for (const closeFile of this.closeFiles) closeFile();
    this.unlock();
  }
}
