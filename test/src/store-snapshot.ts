// Reads every collection of every service from the embedded store's files (DATA_DIR/<service>/store.sqlite,
// one table `c:<collection>` per collection, each document as JSON), read-only beside the running server
// (WAL: a reader sees the last committed state). Documents keep their id as `_id`, as the store's files
// always named it. Reading the files needs no hook in the services.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import mongoose from "mongoose";

/** `service/collection` → id → document. */
export type StoreSnapshot = Record<string, Record<string, unknown>>;

/** Fields that change without a request changing anything, per `service/collection`. */
export type Volatile = Record<string, string[]>;

function readDatabase(file: string, service: string, volatile: Volatile, snapshot: StoreSnapshot): void {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%'").all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const collection = `${service}/${name.slice(2)}`;
      const drop = volatile[collection] ?? [];
      const docs: Record<string, unknown> = {};
      for (const row of db.prepare(`SELECT id, doc FROM "${name.replace(/"/g, '""')}" ORDER BY id`).all() as Array<{ id: string; doc: string }>) {
        const doc: Record<string, unknown> = { ...(JSON.parse(row.doc) as Record<string, unknown>), _id: row.id };
        for (const field of drop) delete doc[field];
        docs[row.id] = doc;
      }
      snapshot[collection] = docs;
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** Every collection's documents as they stand on disk, without the `volatile` fields. */
export function readStore(dataDir: string, volatile: Volatile = {}): StoreSnapshot {
  const snapshot: StoreSnapshot = {};
  for (const service of readdirSync(dataDir)) {
    const dir = join(dataDir, service);
    if (!statSync(dir).isDirectory()) continue;
    const file = join(dir, "store.sqlite");
    if (existsSync(file)) readDatabase(file, service, volatile, snapshot);
    // File bytes are stored by hash beside the collections.
    const files = join(dir, "files");
    if (existsSync(files) && statSync(files).isDirectory()) snapshot[`${service}/files`] = Object.fromEntries(readdirSync(files).map((f) => [f, statSync(join(files, f)).size]));
  }
  return snapshot;
}

/** One line per document added, removed or changed between two snapshots. */
export function diffStore(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const lines: string[] = [];
  for (const collection of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[collection] ?? {};
    const b = after[collection] ?? {};
    for (const id of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(id in a)) lines.push(`${collection}: added ${id} ${JSON.stringify(b[id]).slice(0, 300)}`);
      else if (!(id in b)) lines.push(`${collection}: removed ${id}`);
      else if (JSON.stringify(a[id]) !== JSON.stringify(b[id])) lines.push(`${collection}: changed ${id} from ${JSON.stringify(a[id]).slice(0, 300)} to ${JSON.stringify(b[id]).slice(0, 300)}`);
    }
  }
  return lines;
}

/** A snapshot taken once two reads `intervalMs` apart agree, so background writes have landed. */
export async function settledStore(dataDir: string, volatile: Volatile = {}, intervalMs = 300, deadlineMs = 15_000, busy?: (snapshot: StoreSnapshot) => boolean): Promise<StoreSnapshot> {
  const deadline = Date.now() + deadlineMs;
  let previous = readStore(dataDir, volatile);
  for (;;) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const next = readStore(dataDir, volatile);
    if ((diffStore(previous, next).length === 0 && !busy?.(next)) || Date.now() > deadline) return next;
    previous = next;
  }
}

/** Whether a snapshot holds OpenAPI specs still waiting for or in processing (their state will change by itself). */
export function specsProcessing(snapshot: StoreSnapshot): boolean {
  return Object.values(snapshot["openapi/specs"] ?? {}).some((doc) => ["pending", "progress"].includes(String((doc as { processingState?: unknown }).processingState)));
}

/**
 * How many documents of one service's collection `match`, read from the store a system keeps them in:
 * the embedded store's files, or (with `mongoUrl`) the MongoDB collection `<service>_<collection>`.
 */
export async function countStored(
  system: { dataDir: string; mongoUrl?: string },
  service: string,
  collection: string,
  match: (doc: Record<string, unknown>) => boolean,
): Promise<number> {
  if (!system.mongoUrl) {
    const docs = Object.values(readStore(system.dataDir)[`${service}/${collection}`] ?? {}) as Array<Record<string, unknown>>;
    return docs.filter(match).length;
  }
  const connection = await mongoose.createConnection(system.mongoUrl, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const docs = (await connection.collection(`${service}_${collection}`).find({}).toArray()) as Array<Record<string, unknown>>;
    return docs.filter(match).length;
  } finally {
    await connection.close();
  }
}
