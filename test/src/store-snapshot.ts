// Reads every collection of every service from the embedded store's files (DATA_DIR/<service>/<name>.db),
// as NeDB would load them: its files are append-only logs where a later line for an id replaces the
// earlier one and `$$deleted` removes it. Reading the files needs no hook in the services.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import mongoose from "mongoose";

/** `service/collection` → id → document. */
export type StoreSnapshot = Record<string, Record<string, unknown>>;

/** Fields that change without a request changing anything, per `service/collection`. */
export type Volatile = Record<string, string[]>;

function replay(file: string, drop: string[]): Record<string, unknown> {
  const docs: Record<string, unknown> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line);
    } catch {
      // A line being appended while we read: the next snapshot sees it whole.
      continue;
    }
    if ("$$indexCreated" in doc || "$$indexRemoved" in doc) continue;
    const id = String(doc._id);
    if (doc.$$deleted === true) {
      delete docs[id];
      continue;
    }
    for (const field of drop) delete doc[field];
    docs[id] = doc;
  }
  return docs;
}

/** Every collection's documents as they stand on disk, without the `volatile` fields. */
export function readStore(dataDir: string, volatile: Volatile = {}): StoreSnapshot {
  const snapshot: StoreSnapshot = {};
  for (const service of readdirSync(dataDir)) {
    const dir = join(dataDir, service);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".db")) continue;
      const collection = `${service}/${name.slice(0, -3)}`;
      snapshot[collection] = replay(join(dir, name), volatile[collection] ?? []);
    }
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
export async function settledStore(dataDir: string, volatile: Volatile = {}, intervalMs = 300, deadlineMs = 15_000): Promise<StoreSnapshot> {
  const deadline = Date.now() + deadlineMs;
  let previous = readStore(dataDir, volatile);
  for (;;) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const next = readStore(dataDir, volatile);
    if (diffStore(previous, next).length === 0 || Date.now() > deadline) return next;
    previous = next;
  }
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
