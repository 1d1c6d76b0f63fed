// One process per embedded store directory: a lock file naming its holder, taken when the store opens.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";

/** The lock file's name inside each service's directory (DATA_DIR/<service>/). */
export const LOCK_FILE = ".lock";
/** Held only while a stale lock is replaced, so two processes cannot both replace it. */
const RECOVERING = ".lock.recovering";
/**
 * A recovery guard older than this was left by a process that died while recovering (the guard is held
 * for one read and one unlink; a live holder descheduled this long on a loaded machine is not expected).
 */
const GUARD_STALE_MS = 10_000;

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
    readonly lockFile: string,
    /** The lock is a file lock the kernel holds for a live process (the SQLite store), not a file naming a pid. */
    kernelLock = false,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another docshelf process (pid ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
        `Two processes on one data directory overwrite each other's files: stop that process first, or give this one another DATA_DIR. ` +
        (kernelLock
          ? `(Lock: ${lockFile}, held by the running process itself and released when it ends, however it ends; nothing to remove by hand. The pid is as that process saw it: in another container it may be another process's pid here.)`
          : `(Lock file: ${lockFile}. A lock whose process is gone is taken over by itself; should pid ${holder.pid} be another program, remove that file.)`),
    );
    this.name = "DataDirLockedError";
  }
}

/** Where a test may act between the steps of taking a lock (nothing else passes these). */
export interface LockSeams {
  /** After the holder named in the lock file was judged gone, before the stale lock is replaced. */
  judgedStale?: () => void;
}

/** Held locks of this process by directory: the services of one process share them. */
const held = new Map<string, { count: number; content: string; file: string }>();
let exitHookInstalled = false;

/**
 * The lock file's text and the holder it names (`unreadable`: being written right now, or damaged), or
 * null when there is none. One read: whoever judges a lock stale must remove exactly the text it judged.
 */
function readLock(file: string): { text: string; holder: Holder | "unreadable" } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid === "number" && Number.isInteger(parsed.pid) && parsed.pid > 0) {
      return { text, holder: { pid: parsed.pid, host: String(parsed.host ?? "?"), since: String(parsed.since ?? "?") } };
    }
  } catch {
    // fall through
  }
  return { text, holder: "unreadable" };
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  if (pid === process.pid) return false; // a lock of ours that this process no longer tracks (a crashed earlier store)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Creates the lock file with its whole content in one step, or answers false when it exists: the
 * content goes to a file of this process first, which is then hard-linked to the lock's name (link
 * fails when the name exists). So no other process ever reads a lock that is created but still empty,
 * which it would take for a stale one if this process were descheduled between creating and writing.
 */
function tryCreate(file: string, content: string): boolean {
  const own = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(own, content, { flag: "wx" });
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS") return createExclusive(file, content); // no hard links here
    throw err;
  } finally {
    unlinkSync(own);
  }
}

/** tryCreate for file systems without hard links: exclusive create, then write (a reader may see it empty for a moment). */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Replaces the lock `stale` (whose holder is gone) under a recovery guard (an exclusive mkdir): only the
 * process holding the guard removes the lock, and only if it is still the stale one it saw. The caller
 * then tries to create the lock again, as does any other process that wanted it.
 */
function recover(dir: string, file: string, stale: string): void {
  const guard = join(dir, RECOVERING);
  try {
    mkdirSync(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Someone else is recovering; a guard left by a process that died while recovering is removed.
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmdirSync(guard);
    } catch {
      // gone already
    }
    sleepSync(50);
    return;
  }
  try {
    let current: string | null = null;
    try {
      current = readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    if (current === stale) unlinkSync(file);
  } finally {
    rmdirSync(guard);
  }
}

/**
 * Takes this process's lock on `dir` (made if missing), or throws DataDirLockedError naming the process
 * that holds it. `dataDir` is what the message calls the directory (the DATA_DIR the user set).
 * Returns the release function; the last release of a directory removes the lock file.
 */
export function lockDirectory(dir: string, dataDir: string, seams: LockSeams = {}): () => void {
  const key = resolve(dir);
  const mine = held.get(key);
  if (mine) {
    mine.count += 1;
    return once(() => release(key));
  }
  mkdirSync(key, { recursive: true });
  const file = join(key, LOCK_FILE);
  const content = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  const deadline = Date.now() + 3_000;
  let unreadableSince: number | undefined;
  for (;;) {
    if (tryCreate(file, content)) break;
    const lock = readLock(file);
    if (lock === null) continue; // removed meanwhile
    const { holder } = lock;
    if (holder === "unreadable") {
      // Its writer may be between creating and writing it; a lock that stays unreadable is stale.
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince < 1_000) {
        sleepSync(20);
        continue;
      }
    } else if (alive(holder.pid)) {
      throw new DataDirLockedError(dataDir, holder, file);
    }
    // The text judged stale, not a second read: another process may have replaced the stale lock with its
    // own live one in between, and removing that would let two processes hold the directory.
    if (Date.now() > deadline) throw new Error(`could not take the lock ${file}: it keeps changing`);
    seams.judgedStale?.();
    recover(key, file, lock.text);
  }
  held.set(key, { count: 1, content, file });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that exits without closing its stores (process.exit, an uncaught error) leaves no lock.
    process.on("exit", () => {
      for (const k of [...held.keys()]) removeLock(k);
    });
  }
  return once(() => release(key));
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function release(key: string): void {
  const entry = held.get(key);
  if (!entry) return;
  entry.count -= 1;
  if (entry.count <= 0) removeLock(key);
}

/** Removes the lock file only if it is still ours. */
function removeLock(key: string): void {
  const entry = held.get(key);
  held.delete(key);
  if (!entry) return;
  try {
    if (readFileSync(entry.file, "utf8") === entry.content) unlinkSync(entry.file);
  } catch {
    // already gone
  }
}
