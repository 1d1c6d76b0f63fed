// Reads the data files of the nedb store (the embedded store before SQLite) without the nedb library, for the
// import of an old DATA_DIR (sqlite.ts, migration 2). nedb's format (@seald-io/nedb 4.1.2, lib/persistence.js
// `treatRawData`, lib/model.js `serialize`/`deserialize`): one JSON document per line, appended as writes
// happen, so a later line for an `_id` replaces an earlier one; `{"$$deleted":true,"_id":…}` removes the
// document; `{"$$indexCreated":{fieldName,…}}` and `{"$$indexRemoved":"field"}` define and drop indexes; a Date is
// written as `{"$$date": <ms>}`. A crash during an append leaves a torn last line, which nedb skips (and so
// does this reader, counting it).
import { closeSync, openSync, readSync } from "node:fs";

/** An index definition line (`$$indexCreated`). */
export interface NedbIndex {
  fieldName: string;
  unique?: boolean;
  sparse?: boolean;
}

/** What one line of a nedb file says. */
export type NedbRecord =
  | { kind: "document"; id: string; doc: Record<string, unknown> }
  | { kind: "deleted"; id: string }
  | { kind: "index"; index: NedbIndex }
  | { kind: "index-removed"; fieldName: string }
  /** A line that is not JSON (a torn last line) or not a record nedb would read. */
  | { kind: "unreadable"; line: number };

/** nedb's `{"$$date": ms}` as the ISO string the services store dates as. */
function reviveDate(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$$date" && typeof (value as { $$date: unknown }).$$date === "number") {
      return new Date((value as { $$date: number }).$$date).toISOString();
    }
  }
  return value;
}

/** One line of a nedb file as a record; `line` is its 1-based number, for the report. */
export function parseNedbLine(text: string, line: number): NedbRecord {
  let value: unknown;
  try {
    value = JSON.parse(text, reviveDate);
  } catch {
    return { kind: "unreadable", line };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { kind: "unreadable", line };
  const record = value as Record<string, unknown>;
  if (typeof record._id === "string" && record._id !== "") {
    const { _id: id, ...doc } = record;
    if (record.$$deleted === true) return { kind: "deleted", id: id as string };
    return { kind: "document", id: id as string, doc };
  }
  const created = record.$$indexCreated as NedbIndex | undefined;
  if (created && typeof created === "object" && typeof created.fieldName === "string") return { kind: "index", index: created };
  if (typeof record.$$indexRemoved === "string") return { kind: "index-removed", fieldName: record.$$indexRemoved };
  return { kind: "unreadable", line };
}

/**
 * The records of a nedb file in file order, read a chunk at a time (a file of any size, one line in memory at
 * a time). Synchronous: the import runs inside one SQLite transaction. Blank lines are skipped, as nedb does.
 */
export function* nedbRecords(file: string, chunkBytes = 1 << 20): Generator<NedbRecord> {
  const fd = openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    let pending: Buffer = Buffer.alloc(0);
    let line = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunkBytes, null);
      if (read === 0) {
        // The last line has no newline after it: what a crash during an append leaves.
        const text = pending.toString("utf8");
        if (text.trim()) yield parseNedbLine(text, line + 1);
        return;
      }
      const data = pending.length ? Buffer.concat([pending, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
        line++;
        const text = data.toString("utf8", start, nl);
        start = nl + 1;
        if (text.trim()) yield parseNedbLine(text, line);
      }
      // A copy: `chunk` is read into again.
      pending = Buffer.from(data.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
}

/** A nedb file replayed as nedb loads it: its documents by id, its indexes, and how many lines were unreadable. */
export interface NedbFileContents {
  docs: Map<string, Record<string, unknown>>;
  indexes: Map<string, NedbIndex>;
  unreadable: number[];
}

/** Replays a whole nedb file in memory (tests, small files; the import replays straight into SQLite). */
export function readNedbFile(file: string, chunkBytes?: number): NedbFileContents {
  const out: NedbFileContents = { docs: new Map(), indexes: new Map(), unreadable: [] };
  for (const record of nedbRecords(file, chunkBytes)) {
    if (record.kind === "document") out.docs.set(record.id, record.doc);
    else if (record.kind === "deleted") out.docs.delete(record.id);
    else if (record.kind === "index") out.indexes.set(record.index.fieldName, record.index);
    else if (record.kind === "index-removed") out.indexes.delete(record.fieldName);
    else out.unreadable.push(record.line);
  }
  return out;
}
