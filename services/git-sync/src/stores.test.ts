import { createHash } from "node:crypto";
import fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimStore, KEEP_UNUSED_MS, pruneStores, releaseStore, storeKey } from "./stores";

const HOUR = 60 * 60 * 1000;

function store(cacheDir: string, name: string, usedAgoMs: number, packBytes: number, now: number): string {
  const dir = join(cacheDir, name);
  fs.mkdirSync(join(dir, "objects", "pack"), { recursive: true });
  fs.writeFileSync(join(dir, "objects", "pack", "pack-1.pack"), Buffer.alloc(packBytes));
  const marker = join(dir, "docshelf-used");
  fs.writeFileSync(marker, "");
  const at = new Date(now - usedAgoMs);
  fs.utimesSync(marker, at, at);
  return dir;
}

describe("kept object stores", () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = fs.mkdtempSync(join(tmpdir(), "git-sync-stores-"));
  });
  afterEach(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

  test("a store's key is per space and repository (and cache id), and keeps the key of stores made with repoCacheID", () => {
    expect(storeKey("s1", "https://h/r.git")).not.toBe(storeKey("s2", "https://h/r.git"));
    expect(storeKey("s1", "https://h/r.git")).not.toBe(storeKey("s1", "https://h/other.git"));
    expect(storeKey("s1", "https://h/r.git", "c")).not.toBe(storeKey("s1", "https://h/r.git"));
    expect(storeKey("s1", "https://h/r.git", "c")).toMatch(/^[0-9a-f]{40}$/);
    expect(storeKey("s1", "https://h/r.git", "c")).toBe(createHash("sha256").update("s1\0c\0https://h/r.git").digest("hex").slice(0, 40));
  });

  test("stores unused for a day go; the least recently used go above the total size, never recent ones nor ones in use", () => {
    const now = Date.now();
    store(cacheDir, "stale", KEEP_UNUSED_MS + HOUR, 10, now);
    store(cacheDir, "old", 5 * HOUR, 600, now);
    store(cacheDir, "older", 6 * HOUR, 600, now);
    store(cacheDir, "recent", 10 * 60 * 1000, 600, now);
    const busy = store(cacheDir, "busy", 20 * HOUR, 600, now);
    claimStore(busy);
    try {
      // 2,400 bytes kept after the stale one; a limit of 1,500 removes the least recently used not in use and not recent.
      expect(pruneStores(cacheDir, now, { unusedMs: KEEP_UNUSED_MS, totalBytes: 1500 })).toEqual(["stale", "older", "old"]);
    } finally {
      releaseStore(busy);
    }
    expect(fs.readdirSync(cacheDir).sort()).toEqual(["busy", "recent"]);
    // Released, a store counts as just used.
    expect(pruneStores(cacheDir, Date.now(), { unusedMs: KEEP_UNUSED_MS, totalBytes: 0 })).toEqual([]);
  });

  test("a missing cache directory prunes nothing", () => {
    expect(pruneStores(join(cacheDir, "none"))).toEqual([]);
  });
});
