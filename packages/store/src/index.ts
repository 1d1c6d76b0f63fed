// The store: one contract, an embedded SQLite adapter and a MongoDB adapter, chosen by configuration.
import { join, resolve } from "node:path";
import { MongoStore } from "./mongo";
import { SqliteStore } from "./sqlite";
import type { Store } from "./types";

export * from "./types";
export { op, Operator, toQuery, type Filter, type FilterValue, type Primitive } from "./filter";
export { cursorOf, normalizeSort } from "./cursor";
export { newId, newSecret } from "./ids";
export { SqliteStore, StoreTooNewError, DataDirLockedError, SCHEMA_VERSION, DB_FILE, OWNER_LOCK_FILE, NEDB_KEPT_DIR, type LockHolder } from "./sqlite";
export { MongoStore } from "./mongo";
export { DiskBlobStore, GridFsBlobStore, sha256Of, type BlobStore } from "./blobs";

export interface StoreOptions {
  mongoUrl?: string;
  dataDir?: string;
  /** Keep the embedded store in memory (unit tests). */
  memory?: boolean;
}

/** Opens the store a service keeps its collections in. */
export async function openStore(service: string, options: StoreOptions): Promise<Store> {
  if (options.mongoUrl) return MongoStore.connect(options.mongoUrl, service);
  if (options.memory || !options.dataDir) return new SqliteStore({});
  return new SqliteStore({ dir: join(resolve(options.dataDir), service), dataDir: options.dataDir });
}
export { storeMixin, type StoreVars } from "./mixin";
