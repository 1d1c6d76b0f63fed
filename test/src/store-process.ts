// Helpers of the store-* suites: a docshelf server as a child process on a DATA_DIR of the suite's own,
// started, stopped and killed by the suite.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@docshelf/testkit";

export const ROOT = join(__dirname, "..", "..");
export const MAIN = require.resolve("@docshelf/server/dist/main.js");

export interface Server {
  child: ChildProcess;
  port: number;
  url: string;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const CONFIG_NAMES = ["PORT", "HOST", "PUBLIC_URL", "DATA_DIR", "MONGO_URL", "TRANSPORTER", "SERVICES", "ADMIN_TOKEN", "LOGLEVEL", "HEALTH_PORT", "METRICS_PORT", "NAMESPACE", "NODE_ID"];

/** Runs a node script of the repository with a clean configuration and `env`. */
export function runNode(args: string[], env: Record<string, string>): Omit<Server, "port" | "url"> {
  return run(process.execPath, args, env);
}

/** Runs a command in the repository's root with a clean configuration and `env`. */
export function run(command: string, args: string[], env: Record<string, string>): Omit<Server, "port" | "url"> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_NAMES) delete base[name];
  const child = spawn(command, args, { cwd: ROOT, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => (out += String(d)));
  child.stderr?.on("data", (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { child, out: () => out, err: () => err, exited };
}

/** Starts the server on `dataDir` (not waiting for it). */
export async function startServer(dataDir: string, adminToken: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const run = runNode([MAIN], { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOGLEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0", ...env });
  return { ...run, port, url: `http://127.0.0.1:${port}` };
}

export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function ready(server: Server, ms = 60_000): Promise<void> {
  await until(async () => (await fetch(`${server.url}/ready`)).status === 200, ms, `the server on ${server.url} to be ready (stderr: ${server.err().slice(-500)})`);
}

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  await server.exited;
}

export const newAdminToken = () => randomBytes(32).toString("hex");

/** Temp directories of a suite, removed by `removeAll`. */
export function tempDirs(): { make: (copyOf?: string) => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    make(copyOf) {
      const dir = mkdtempSync(join(tmpdir(), "docshelf-store-"));
      made.push(dir);
      if (copyOf) cpSync(copyOf, dir, { recursive: true });
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
