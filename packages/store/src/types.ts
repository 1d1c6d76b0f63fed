// The store contract both adapters implement.
import type { BlobStore } from "./blobs";
import type { Filter, Primitive } from "./filter";

export interface Doc {
  id: string;
}

export type SortDirection = 1 | -1;
/** Sort keys in order; `id` is always appended as the last tie-breaker. */
export type Sort = Array<[field: string, direction: SortDirection]>;

/** Position after which a keyset page starts: the sort values of the last item seen, and its id. */
export interface Cursor {
  values: Primitive[];
  id: string;
}

export interface FindOptions {
  sort?: Sort;
  limit?: number;
  after?: Cursor;
}

export interface Update<T> {
  $set?: Partial<T> & Record<string, unknown>;
  $unset?: string[];
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, Primitive>;
}

export interface IndexSpec {
  fields: string[];
  unique?: boolean;
  /** Unique only among documents that have the field (e.g. an optional hostname). */
  sparse?: boolean;
}

export interface Collection<T extends Doc> {
  readonly name: string;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter): Promise<T | null>;
  count(filter: Filter): Promise<number>;
  /** Inserts; a unique index violation throws ConflictError. */
  insert(doc: T): Promise<T>;
  /**
   * Atomically applies `update` to the first document matching `filter`; null when none matched. Atomic on
   * every server: on FerretDB 1.x, whose updates are read-modify-write, through per-document locks.
   */
  updateOne(filter: Filter, update: Update<T>): Promise<T | null>;
  /** Sets `field` to `next` only if it still holds `expected`; tells whether it did. */
  compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive): Promise<boolean>;
  deleteOne(filter: Filter): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
}

export interface Store {
  readonly kind: "sqlite" | "mongo";
  /**
   * Whether writes to this store become durable in the order they were made, on any of its collections: a write
   * made after another (its call made after the other's, not after its answer) is never kept without it. SQLite:
   * yes (one connection, transactions committed in order, the WAL replayed in order after a crash). MongoDB: no
   * (writes go over a pool of connections). A caller that needs "B only with A" may then skip awaiting A before B.
   */
  readonly writesInOrder: boolean;
  collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>>;
  /** The service's content-addressed bytes named `name`: files beside the embedded store's database, a GridFS bucket in MongoDB. */
  blobs(name: string): BlobStore;
  isOpen(): boolean;
  close(): Promise<void>;
  /** Bytes the service's data takes: files under DATA_DIR/<service>, or its MongoDB collections' storage and indexes. */
  sizeBytes(): Promise<number>;
}
