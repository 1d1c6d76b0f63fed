// A nats-server of the test's own (JetStream on, a temp store dir), which a fault test may stop and restart.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, natsReachable } from "@docshelf/testkit";

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN || "/usr/sbin/nats-server";

export interface OwnNats {
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store dir, and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its store dir. */
  dispose(): Promise<void>;
}

async function until(check: () => Promise<boolean>, deadlineMs: number, what: string): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startOwnNats(): Promise<OwnNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), "docshelf-nats-store-"));
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  let output = "";

  const start = async () => {
    server = spawn(NATS_SERVER_BIN, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], { stdio: ["ignore", "pipe", "pipe"] });
    server.stdout?.on("data", (d) => (output = (output + String(d)).slice(-4000)));
    server.stderr?.on("data", (d) => (output = (output + String(d)).slice(-4000)));
    try {
      await until(() => natsReachable(url, 500), 10_000, `nats-server on ${url}`);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${output}`, { cause: err });
    }
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => running.kill("SIGKILL"), 5_000);
      running.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      running.kill("SIGTERM");
    });
  };
  await start();
  return {
    url,
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
