// nats-server processes of a test's own, from a config file: one with authentication, or a three-node
// JetStream cluster on loopback ports whose nodes a test may kill and restart.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, natsReachable } from "@docshelf/testkit";
import { NATS_SERVER_BIN } from "./fault-nats";

async function until(check: () => Promise<boolean>, deadlineMs: number, what: string): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface NatsNode {
  port: number;
  /** `nats://127.0.0.1:<port>`, without credentials. */
  url: string;
  output(): string;
  /** Starts the node (again, on the same port and store dir) and waits until it answers. */
  start(): Promise<void>;
  /** SIGKILL, then waits until the process is gone. */
  kill(): Promise<void>;
  running(): boolean;
  /** Client connections the node has now (its monitoring endpoint's /connz), 0 when it has no monitor. */
  connections(): Promise<number>;
}

function node(dir: string, name: string, port: number, config: string, monitorPort = 0): NatsNode {
  const file = join(dir, `${name}.conf`);
  writeFileSync(file, config);
  let server: ChildProcess | undefined;
  let output = "";
  const url = `nats://127.0.0.1:${port}`;
  const running = () => !!server && server.exitCode === null && server.signalCode === null;
  return {
    port,
    url,
    output: () => output,
    running,
    async connections() {
      if (!monitorPort) return 0;
      const res = await fetch(`http://127.0.0.1:${monitorPort}/connz`);
      return ((await res.json()) as { num_connections: number }).num_connections;
    },
    async start() {
      server = spawn(NATS_SERVER_BIN, ["-c", file], { stdio: ["ignore", "pipe", "pipe"] });
      server.stdout?.on("data", (d) => (output = (output + String(d)).slice(-8000)));
      server.stderr?.on("data", (d) => (output = (output + String(d)).slice(-8000)));
      try {
        await until(() => natsReachable(url, 500), 15_000, `nats-server ${name} on ${url}`);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${output}`, { cause: err });
      }
    },
    async kill() {
      const s = server;
      if (!s || !running()) return;
      await new Promise<void>((resolve) => {
        s.once("exit", () => resolve());
        s.kill("SIGKILL");
      });
    },
  };
}

export interface OwnServers {
  nodes: NatsNode[];
  /** Every node's URL, comma-separated, as TRANSPORTER takes them. */
  urls: string;
  dispose(): Promise<void>;
}

/** One JetStream server whose config file carries `authorization` (a block of nats-server's syntax). */
export async function startAuthNats(authorization: string): Promise<OwnServers> {
  const dir = mkdtempSync(join(tmpdir(), "docshelf-nats-auth-"));
  const port = await freePort();
  const n = node(dir, "auth", port, `listen: "127.0.0.1:${port}"\njetstream { store_dir: "${join(dir, "js")}" }\n${authorization}\n`);
  await n.start();
  return {
    nodes: [n],
    urls: n.url,
    async dispose() {
      await n.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Three JetStream servers in one cluster on loopback ports; resolves once all three answer. */
export async function startNatsCluster(): Promise<OwnServers> {
  const dir = mkdtempSync(join(tmpdir(), "docshelf-nats-cluster-"));
  const clientPorts = [await freePort(), await freePort(), await freePort()];
  const routePorts = [await freePort(), await freePort(), await freePort()];
  const monitorPorts = [await freePort(), await freePort(), await freePort()];
  const routes = routePorts.map((p) => `"nats-route://127.0.0.1:${p}"`).join(", ");
  const nodes = clientPorts.map((port, i) =>
    node(
      dir,
      `n${i}`,
      port,
      [
        `server_name: n${i}`,
        `listen: "127.0.0.1:${port}"`,
        `http: "127.0.0.1:${monitorPorts[i]}"`,
        `jetstream { store_dir: "${join(dir, `js${i}`)}" }`,
        `cluster { name: docshelf-test, listen: "127.0.0.1:${routePorts[i]}", routes: [${routes}] }`,
      ].join("\n"),
      monitorPorts[i],
    ),
  );
  await Promise.all(nodes.map((n) => n.start()));
  return {
    nodes,
    urls: nodes.map((n) => n.url).join(","),
    async dispose() {
      await Promise.all(nodes.map((n) => n.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
