// The object stores kept between a space's syncs (`<workDir>/cache/<key>`): one per space and repository (and
// per `repoCacheID` when the request gives one), so that a re-sync fetches only what changed (an export right
// after an import, or an import of a branch that did not move, fetches nothing). Bounded: a store unused for a
// day goes, and beyond a total size the least recently used go first; a store a job of this process is using
// (or one used in the last hour, by any process sharing the directory) is never removed.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { join } from "node:path";

/** A store not used for this long is removed. */
export const KEEP_UNUSED_MS = 24 * 60 * 60 * 1000;
/** Above this many bytes of packs in all, the least recently used stores are removed. */
export const KEEP_TOTAL_BYTES = 4 * 1024 * 1024 * 1024;
/** Never removed for size while this recent: a job of another process may be using it. */
const RECENT_MS = 60 * 60 * 1000;
/** The file whose modification time says when the store was last used. */
const MARKER = "docshelf-used";

const inUse = new Set<string>();

/** The directory name of a space's store for a repository (and cache id): never shared between spaces. */
export function storeKey(spaceId: string, url: string, cacheId?: string): string {
  // With a cache id: the key stores made before kept stores were the default have.
  const material = cacheId ? `${spaceId}\0${cacheId}\0${url}` : `space\0${spaceId}\0${url}`;
  return createHash("sha256").update(material).digest("hex").slice(0, 40);
}

function touch(gitdir: string): void {
  const marker = join(gitdir, MARKER);
  const now = new Date();
  try {
    fs.utimesSync(marker, now, now);
  } catch {
    fs.writeFileSync(marker, "");
  }
}

/** The store is in use from now until `releaseStore` (a job works in it). */
export function claimStore(gitdir: string): void {
  inUse.add(gitdir);
  fs.mkdirSync(gitdir, { recursive: true });
  touch(gitdir);
}

export function releaseStore(gitdir: string): void {
  inUse.delete(gitdir);
  try {
    touch(gitdir);
  } catch {
    // Removed meanwhile (a failed job drops its store).
  }
}

function lastUsed(gitdir: string): number {
  try {
    return fs.statSync(join(gitdir, MARKER)).mtimeMs;
  } catch {
    try {
      return fs.statSync(gitdir).mtimeMs;
    } catch {
      return 0;
    }
  }
}

/** Bytes of a store's packs (what makes its size; loose objects are an export's few commits and trees). */
function packBytes(gitdir: string): number {
  try {
    const dir = join(gitdir, "objects", "pack");
    return fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

/** Removes the stores of `cacheDir` unused for `unusedMs`, then the least recently used above `totalBytes`; returns their names. */
export function pruneStores(cacheDir: string, now = Date.now(), limits: { unusedMs: number; totalBytes: number } = { unusedMs: KEEP_UNUSED_MS, totalBytes: KEEP_TOTAL_BYTES }): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(cacheDir);
  } catch {
    return [];
  }
  const stores = names
    .map((name) => ({ name, dir: join(cacheDir, name) }))
    .filter((s) => !inUse.has(s.dir))
    .map((s) => ({ ...s, used: lastUsed(s.dir) }));
  const removed: string[] = [];
  const remove = (dir: string, name: string) => {
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  };
  const kept: Array<{ name: string; dir: string; used: number; bytes: number }> = [];
  for (const s of stores) {
    if (now - s.used > limits.unusedMs) remove(s.dir, s.name);
    else kept.push({ ...s, bytes: packBytes(s.dir) });
  }
  let total = kept.reduce((sum, s) => sum + s.bytes, 0);
  for (const dir of inUse) if (dir.startsWith(`${cacheDir}/`) || dir.startsWith(`${cacheDir}\\`)) total += packBytes(dir);
  for (const s of kept.sort((a, b) => a.used - b.used)) {
    if (total <= limits.totalBytes) break;
    if (now - s.used < RECENT_MS) continue;
    remove(s.dir, s.name);
    total -= s.bytes;
  }
  return removed;
}
