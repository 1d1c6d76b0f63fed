// Running docshelf as a person does: `npm start`, signals, a second instance, a taken port, bad settings.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, Socket, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient, freePort } from "@docshelf/testkit";

const ROOT = join(__dirname, "..", "..");
const MAIN = require.resolve("@docshelf/server/dist/main.js");
const SERVICES_WITH_STORE = ["identity", "orgs", "content", "openapi", "comments", "sites", "change-requests", "git-sync", "app"];

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["PORT", "HOST", "PUBLIC_URL", "DATA_DIR", "MONGO_URL", "TRANSPORTER", "SERVICES", "ADMIN_TOKEN", "LOGLEVEL", "HEALTH_PORT", "METRICS_PORT", "NAMESPACE", "NODE_ID"]) delete env[name];
  return { ...env, ...extra };
}

function run(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Run {
  const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => (out += String(d)));
  child.stderr?.on("data", (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { child, out: () => out, err: () => err, exited };
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const token = () => randomBytes(32).toString("hex");
const ready = async (port: number) => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200;

describe("running docshelf", () => {
  const dirs: string[] = [];
  const runs: Run[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "docshelf-run-"));
    dirs.push(dir);
    return dir;
  };
  const start = (env: Record<string, string>, args: string[] = []) => {
    const r = run(process.execPath, [MAIN, ...args], { LOGLEVEL: "info", ...env });
    runs.push(r);
    return r;
  };
  afterAll(async () => {
    for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
    await Promise.all(runs.map((r) => r.exited));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"] as const)("npm start, with %s sent to npm", (signal) => {
    test("the server stops with npm, frees its port, and each service says stopped once", async () => {
      const port = await freePort();
      const dataDir = tempDir();
      // The tests run after a build; DOCSHELF_SKIP_BUILD skips start.sh's turbo run, nothing else.
      const npm = run("npm", ["start", "--silent"], { PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: token(), DOCSHELF_SKIP_BUILD: "1", LOGLEVEL: "info" });
      runs.push(npm);
      await until(() => npm.out().includes("docshelf listening on"), 30_000, "npm start to listen");
      expect(await ready(port)).toBe(true);
      // The server is the process that holds the store's lock.
      const server = JSON.parse(readFileSync(join(dataDir, "orgs", ".lock"), "utf8")).pid as number;
      expect(server).not.toBe(npm.child.pid);

      npm.child.kill(signal);
      await within(npm.exited, 20_000, "npm to exit");
      await until(() => !alive(server), 15_000, "the server to exit");
      expect(await portAnswers(port)).toBe(false);
      if (signal !== "SIGKILL") {
        // npm passes SIGINT and SIGTERM on; on SIGHUP it exits and the server sees its parent go.
        expect(npm.out()).toMatch(signal === "SIGHUP" ? /(SIGHUP received|the process that started docshelf is gone), stopping/ : new RegExp(`${signal} received, stopping`));
        for (const name of SERVICES_WITH_STORE) expect({ name, stopped: npm.out().split(`Service '${name}' stopped.`).length - 1 }).toEqual({ name, stopped: 1 });
      }
      // A clean stop (or the parent watch after SIGKILL) leaves no lock behind.
      for (const name of SERVICES_WITH_STORE) expect(() => readFileSync(join(dataDir, name, ".lock"))).toThrow();
    }, 60_000);
  });

  test("a second process on the same DATA_DIR exits at once naming DATA_DIR and the first's pid; a killed holder's lock is taken over", async () => {
    const dataDir = tempDir();
    const adminToken = token();
    const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
    const first = start({ PORT: String(p1), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    await until(() => ready(p1), 30_000, "the first instance");
    const org = await new ApiClient(`http://127.0.0.1:${p1}`, adminToken).post("/v1/orgs", { title: "Written by the first" });
    expect(org.status).toBe(201);

    // "At once": it exits while the first still holds the lock (the first answers after), so it did not wait for
    // the lock. How fast is not this test's question (a loaded machine took 14 s to start the second process).
    const second = start({ PORT: String(p2), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    const { code } = await within(second.exited, 60_000, "the second instance to exit");
    expect(code).toBe(1);
    const last = second.err().trim().split("\n").pop();
    expect(last).toContain(`DATA_DIR ${dataDir} is in use by another docshelf process (pid ${first.child.pid} `);
    expect(await portAnswers(p2)).toBe(false);
    expect(await ready(p1)).toBe(true);

    // SIGKILL: no chance to remove the lock files; the next start takes them over and sees the data.
    first.child.kill("SIGKILL");
    await first.exited;
    expect(JSON.parse(readFileSync(join(dataDir, "orgs", ".lock"), "utf8")).pid).toBe(first.child.pid);
    const third = start({ PORT: String(p3), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    await until(() => ready(p3), 30_000, "the third instance");
    const again = await new ApiClient(`http://127.0.0.1:${p3}`, adminToken).get(`/v1/orgs/${org.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body.title).toBe("Written by the first");
    third.child.kill("SIGTERM");
    expect((await third.exited).code).toBe(0);
  }, 150_000);

  test("a taken port ends start-up with one last line naming the port and PORT", async () => {
    const blocker: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const r = start({ PORT: String(port), DATA_DIR: tempDir(), ADMIN_TOKEN: token() });
      const { code } = await within(r.exited, 20_000, "start-up to fail");
      expect(code).toBe(1);
      expect(r.err().trim().split("\n").pop()).toBe(
        `docshelf could not start: port ${port} on 127.0.0.1 is already in use (another docshelf, or another program, listens there). Set PORT to another port, e.g. PORT=8081 npm start.`,
      );
    } finally {
      blocker.close();
    }
  }, 30_000);

  test("every configuration problem is reported at once, and the process exits 2", async () => {
    const r = start({ PORT: "eighty", ADMIN_TOKEN: "change-me", LOGLEVEL: "loud", DATA_DIR: tempDir() });
    const { code } = await within(r.exited, 10_000, "start-up to fail");
    expect(code).toBe(2);
    expect(r.err().trim().split("\n")).toEqual([
      "configuration error: 3 problems:",
      '  - PORT must be an integer between 0 and 65535, got "eighty"',
      "  - ADMIN_TOKEN is a placeholder anyone could guess; make one with: openssl rand -hex 32",
      '  - LOGLEVEL must be one of fatal, error, warn, info, debug, trace, got "loud"',
    ]);
    expect(r.out()).toBe("");
  });

  test("a short ADMIN_TOKEN is refused naming the variable, without echoing it", async () => {
    const r = start({ ADMIN_TOKEN: "s3cr3t-but-short", DATA_DIR: tempDir() });
    expect((await within(r.exited, 10_000, "start-up to fail")).code).toBe(2);
    expect(r.err()).toContain("ADMIN_TOKEN must be at least 32 characters long, got 16");
    expect(r.err()).not.toContain("s3cr3t-but-short");
  });

  test("by default it listens on 127.0.0.1 only; without ADMIN_TOKEN it says how to make one and logs a setup link; polling /ready during start-up logs no other warning", async () => {
    const port = await freePort();
    const r = start({ PORT: String(port), DATA_DIR: tempDir() });
    // Polled from the moment the port opens, as an orchestrator or a script would.
    await until(() => ready(port), 30_000, "the instance");
    await until(() => r.out().includes("No ADMIN_TOKEN is set"), 5_000, "the notice");
    expect(r.out()).toContain(`docshelf listening on http://127.0.0.1:${port} `);
    expect(r.out()).toContain("ADMIN_TOKEN=$(openssl rand -hex 32) npm start");
    r.child.kill("SIGINT");
    await r.exited;
    const levels = r
      .out()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    // The one warning: no administrator exists yet, and the link that makes one (signin-setup.test.ts).
    expect(levels.filter((l) => l.level >= 40 && l.msg.startsWith("first run: no administrator exists."))).toHaveLength(1);
    expect(levels.filter((l) => l.level >= 40 && !l.msg.startsWith("first run: no administrator exists."))).toEqual([]);
  }, 60_000);
});
