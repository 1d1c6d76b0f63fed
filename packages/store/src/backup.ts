// Backup and restore of an embedded DATA_DIR while the server runs: each service's database through SQLite's
// online backup (one consistent snapshot, taken in a single step so that the server's writes never restart
// it), then the service's stored files (content-addressed, never changed once written), into a directory.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { DB_FILE, HOLDER_FILE, NEDB_KEPT_DIR, nodeSqlite, OWNER_LOCK_FILE, SCHEMA_VERSION, fsyncDir } from "./sqlite";

/** The file naming what a backup holds, at its top. */
export const MANIFEST = "docshelf-backup.json";

export interface BackupManifest {
  format: 1;
  createdAt: string;
  schemaVersion: number;
  services: Record<string, { documents: number; files: number }>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The services of a DATA_DIR: its subdirectories that hold a store database. */
function servicesOf(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => statSync(join(dataDir, name)).isDirectory() && existsSync(join(dataDir, name, DB_FILE)))
    .sort();
}

/** A service directory's stored-file directories (DiskBlobStore): subdirectories of blobs named by SHA-256. */
function blobDirsOf(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== NEDB_KEPT_DIR && statSync(join(dir, name)).isDirectory());
}

function documentsIn(db: DatabaseSync): number {
  let n = 0;
  for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%'").all() as Array<{ name: string }>) {
    n += Number((db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n);
  }
  return n;
}

function check(db: DatabaseSync, what: string): void {
  const rows = db.prepare("PRAGMA integrity_check").all() as Array<{ integrity_check: string }>;
  if (rows.length !== 1 || rows[0].integrity_check !== "ok") throw new Error(`${what} failed SQLite's integrity check: ${rows.map((r) => r.integrity_check).join("; ")}`);
}

/** Copies one database consistently while others write to it: node:sqlite's backup() in one step, else VACUUM INTO. */
async function copyDatabase(source: string, target: string): Promise<void> {
  const sqlite = nodeSqlite();
  const db = new sqlite.DatabaseSync(source);
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    if (typeof sqlite.backup === "function") await sqlite.backup(db, target, { rate: -1 });
    else db.prepare("VACUUM INTO ?").run(target);
  } finally {
    db.close();
  }
}

/**
 * Backs up every service store of `dataDir` into the new directory `target` (it must not exist, or be
 * empty). Safe while the server runs: each database is one consistent snapshot; a write that lands after
 * a service's snapshot is in the next backup. Files are copied after their service's snapshot, so every
 * file a snapshot refers to is there (files are only ever added, except by a space's purge).
 */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupManifest> {
  const services = servicesOf(dataDir);
  if (!services.length) throw new Error(`${dataDir} holds no embedded store (no <service>/${DB_FILE}): nothing to back up. Is DATA_DIR set as the server's?`);
  if (existsSync(target) && readdirSync(target).length) throw new Error(`${target} exists and is not empty: back up into a new directory.`);
  const partial = `${resolve(target)}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const manifest: BackupManifest = { format: 1, createdAt: new Date().toISOString(), schemaVersion: SCHEMA_VERSION, services: {} };
  try {
    for (const service of services) {
      const from = join(dataDir, service);
      const to = join(partial, service);
      mkdirSync(to);
      await copyDatabase(join(from, DB_FILE), join(to, DB_FILE));
      const copy = new (nodeSqlite().DatabaseSync)(join(to, DB_FILE));
      let documents: number;
      try {
        check(copy, `the backup of ${service}`);
        // A backup is one file: the copy is not left in WAL mode.
        copy.exec("PRAGMA journal_mode = DELETE");
        const version = Number((copy.prepare("SELECT value FROM _meta WHERE key = 'schema_version'").get() as { value?: string } | undefined)?.value ?? 0);
        manifest.schemaVersion = Math.max(manifest.schemaVersion, version);
        documents = documentsIn(copy);
      } finally {
        copy.close();
      }
      let files = 0;
      for (const blobs of blobDirsOf(from)) {
        mkdirSync(join(to, blobs));
        for (const name of readdirSync(join(from, blobs))) {
          if (!SHA256.test(name)) continue; // a file being written (.tmp) is not stored yet
          copyFileSync(join(from, blobs, name), join(to, blobs, name));
          files++;
        }
      }
      manifest.services[service] = { documents, files };
    }
    writeFileSync(join(partial, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");
    for (const service of services) fsyncDir(join(partial, service));
    if (existsSync(target)) rmSync(target, { recursive: true });
    renameSync(partial, target);
    fsyncDir(resolve(target, ".."));
    return manifest;
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Restores the backup `source` into `dataDir`, which must hold no store (a new or empty directory): a
 * restore never overwrites data. Checks each database before copying anything.
 */
export function restoreDataDir(source: string, dataDir: string): BackupManifest {
  const manifestFile = join(source, MANIFEST);
  if (!existsSync(manifestFile)) throw new Error(`${source} is not a docshelf backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as BackupManifest;
  if (manifest.schemaVersion > SCHEMA_VERSION) {
    throw new Error(`The backup ${source} has schema version ${manifest.schemaVersion}, made by a newer docshelf; this version understands up to ${SCHEMA_VERSION}. Restore it with that version.`);
  }
  const existing = servicesOf(dataDir);
  if (existing.length) {
    throw new Error(`${dataDir} already holds a store (${existing.join(", ")}): restore into a new or empty DATA_DIR, then point the server at it (or move the old one away first).`);
  }
  const services = Object.keys(manifest.services);
  for (const service of services) {
    const db = new (nodeSqlite().DatabaseSync)(join(source, service, DB_FILE), { readOnly: true });
    try {
      check(db, `the backed-up store of ${service}`);
    } finally {
      db.close();
    }
  }
  mkdirSync(dataDir, { recursive: true });
  for (const service of services) {
    const from = join(source, service);
    const to = join(dataDir, service);
    mkdirSync(to, { recursive: true });
    for (const blobs of blobDirsOf(from)) {
      mkdirSync(join(to, blobs), { recursive: true });
      for (const name of readdirSync(join(from, blobs))) copyFileSync(join(from, blobs, name), join(to, blobs, name));
      fsyncDir(join(to, blobs));
    }
    // The database last, under a temporary name: a restore cut short leaves no store that looks whole.
    copyFileSync(join(from, DB_FILE), join(to, `${DB_FILE}.restoring`));
    renameSync(join(to, `${DB_FILE}.restoring`), join(to, DB_FILE));
    fsyncDir(to);
  }
  return manifest;
}

/** Whether a server holds `dataDir` now (any service's lock): a restore target must not be in use. */
export function inUse(dataDir: string): string | undefined {
  for (const service of existsSync(dataDir) ? readdirSync(dataDir) : []) {
    const lockFile = join(dataDir, service, OWNER_LOCK_FILE);
    if (!existsSync(lockFile)) continue;
    const lock = new (nodeSqlite().DatabaseSync)(lockFile);
    try {
      lock.exec("PRAGMA busy_timeout = 0");
      lock.prepare("SELECT count(*) FROM sqlite_master").get();
    } catch {
      return `${service} (${existsSync(join(dataDir, service, HOLDER_FILE)) ? readFileSync(join(dataDir, service, HOLDER_FILE), "utf8") : "holder unknown"})`;
    } finally {
      lock.close();
    }
  }
  return undefined;
}
