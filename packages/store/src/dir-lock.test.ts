// The data directory lock between real processes: one holder, a clear refusal, stale locks taken over once.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataDirLockedError, LOCK_FILE, lockDirectory } from "./dir-lock";

/** A Node.js process that takes the lock with the built module (run `npm run build` first). */
const DIST = require.resolve("../dist/dir-lock.js");

function holder(dir: string, holdMs: number, startAt = 0): ChildProcess {
  const script = `
    const { lockDirectory } = require(${JSON.stringify(DIST)});
    while (Date.now() < Number(process.argv[3])) {} // all together, to race for the lock
    try { lockDirectory(process.argv[1], "DATA"); console.log("got"); }
    catch (err) { console.log(err.name === "DataDirLockedError" ? "locked " + err.holder.pid : "error " + err.message); }
    setTimeout(() => {}, Number(process.argv[2]));`;
  return spawn(process.execPath, ["-e", script, dir, String(holdMs), String(startAt)], { stdio: ["ignore", "pipe", "inherit"] });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += String(d);
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.once("exit", () => resolve(out.split("\n")[0]));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });
}

/** The pid of a process that has exited (no process has it now, barring reuse). */
function deadPid(): number {
  const result = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(result.stdout.trim());
}

describe("data directory lock", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "docshelf-lock-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("a second process is refused, naming the directory and the holder's pid; the lock goes with its holder", async () => {
    const dir = join(root, "svc");
    const first = holder(dir, 30_000);
    expect(await firstLine(first)).toBe("got");
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(first.pid);

    let refused: unknown;
    try {
      lockDirectory(dir, "./my-data");
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain("DATA_DIR ./my-data is in use");
    expect((refused as Error).message).toContain(`pid ${first.pid}`);
    const second = holder(dir, 0);
    expect(await firstLine(second)).toBe(`locked ${first.pid}`);
    await exited(second);

    // Killed without a chance to clean up: its lock file stays, and is stale.
    first.kill("SIGKILL");
    await exited(first);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    const release = lockDirectory(dir, "./my-data");
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 20_000);

  test("a process that exits without releasing leaves no lock behind", async () => {
    const dir = join(root, "svc");
    const child = holder(dir, 0);
    expect(await firstLine(child)).toBe("got");
    await exited(child);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  test("a stale lock replaced by a live process's lock after it was judged stale is not removed", async () => {
    const dir = join(root, "svc");
    lockDirectory(dir, "x")(); // makes the directory
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: "gone", since: "2020-01-01T00:00:00.000Z" }));
    const live = holder(join(root, "elsewhere"), 30_000); // a process that is alive, to name in the new lock
    expect(await firstLine(live)).toBe("got");
    const liveLock = JSON.stringify({ pid: live.pid, host: "here", since: new Date().toISOString() });
    let refused: unknown;
    try {
      // Another process recovers the stale lock and takes the directory between this one's two steps.
      lockDirectory(dir, "./my-data", { judgedStale: () => writeFileSync(join(dir, LOCK_FILE), liveLock) })();
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).holder.pid).toBe(live.pid);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(liveLock);
    live.kill("SIGKILL");
    await exited(live);
  }, 20_000);

  test("of many processes recovering one stale lock at once, exactly one gets it", async () => {
    const dir = join(root, "svc");
    const pid = deadPid();
    lockDirectory(dir, "x")(); // makes the directory
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: "gone", since: "2020-01-01T00:00:00.000Z" }));
    const startAt = Date.now() + 3_000;
    const children = Array.from({ length: 6 }, () => holder(dir, 3_000, startAt));
    const lines = await Promise.all(children.map(firstLine));
    await Promise.all(children.map(exited));
    const winners = children.filter((_, i) => lines[i] === "got");
    expect(winners).toHaveLength(1);
    expect(lines.filter((l) => l !== "got")).toEqual(Array(5).fill(`locked ${winners[0].pid}`));
  }, 30_000);

  test("an unreadable lock file (a holder that died while writing it) is taken over", () => {
    const dir = join(root, "svc");
    lockDirectory(dir, "x")();
    writeFileSync(join(dir, LOCK_FILE), "");
    const release = lockDirectory(dir, "x");
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    release();
  });

  test("the services of one process share its lock; the last release removes it", () => {
    const dir = join(root, "svc");
    const a = lockDirectory(dir, "x");
    const b = lockDirectory(dir, "x");
    a();
    a();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    b();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
