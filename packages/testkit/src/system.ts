// Starts the whole system for a test: every service in one broker, or one process per service over NATS.
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "nats";
import mongoose from "mongoose";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { ALL_SERVICES, VARIABLES, loadConfig, type ServiceName } from "@docshelf/config";
import { brokerOptions } from "@docshelf/runtime";
import { createBroker, listeningPort } from "@docshelf/server";
import { Writable } from "node:stream";
import { ApiClient } from "./http";

export interface RunningSystem {
  mode: "embedded" | "nats";
  url: string;
  adminToken: string;
  admin: ApiClient;
  dataDir: string;
  /** Everything logged so far: the processes' output (NATS), or with `captureLogs` the broker's pino lines (embedded). */
  logs?: string[];
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Keep the broker's log lines (pino JSON, with the production redaction) in `logs` instead of dropping them. */
  captureLogs?: boolean;
}

export const NATS_URL = process.env.NATS_URL || "nats://127.0.0.1:4222";

/**
 * A MongoDB-wire server (MongoDB, or FerretDB in CI) that the NATS systems keep every collection in,
 * when set: each system gets a database of its own, dropped when it stops. Unset: the embedded store.
 */
export const E2E_MONGO_URL = process.env.E2E_MONGO_URL || "";

/** `base` (a mongodb:// URL, with or without a path and options) naming database `name` instead. */
export function mongoDatabaseUrl(base: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(base);
  if (!match) throw new Error("E2E_MONGO_URL must be a mongodb:// URL");
  return `${match[1]}/${name}${match[2] ?? ""}`;
}

/** Drops the database `url` names; best effort, like removeNamespaceStreams. */
export async function dropMongoDatabase(url: string): Promise<void> {
  const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 3000 }).asPromise().catch(() => null);
  if (!connection) return;
  try {
    await connection.dropDatabase();
  } catch {
    /* best effort */
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Whether a NATS server answers at `url` (a TCP connect and its INFO line). */
export function natsReachable(url = NATS_URL, timeoutMs = 1500): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (chunk) => done(chunk.toString().startsWith("INFO")));
    socket.connect(Number(port) || 4222, hostname);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function baseEnv(dataDir: string, adminToken: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // A MONGO_URL of the test run (the store contract's) never reaches a system: each names its own database.
  const { MONGO_URL: _runs, ...inherited } = process.env;
  return { ...inherited, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOGLEVEL: "warn", ...extra };
}

/** Every service in one broker in this process, on the embedded store in a fresh temp dir. */
export async function startEmbedded(extraEnv: Record<string, string> = {}, options: EmbeddedOptions = {}): Promise<RunningSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-test-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  // A port chosen up front, so that PUBLIC_URL (and every `urls` member) names where the API really is.
  const port0 = await freePort();
  const cfg = loadConfig(
    baseEnv(dataDir, adminToken, { PORT: String(port0), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port0}`, TRANSPORTER: "", SERVICES: "all", ...extraEnv }),
  );
  const logs: string[] = [];
  const broker = createBroker(cfg, { logger: options.captureLogs ? capturingLogger(cfg, logs) : false });
  await broker.start();
  const port = listeningPort(broker);
  const url = `http://127.0.0.1:${port}`;
  return {
    mode: "embedded",
    url,
    adminToken,
    admin: new ApiClient(url, adminToken),
    dataDir,
    ...(options.captureLogs ? { logs } : {}),
    async stop() {
      await broker.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type LoggerConfig = NonNullable<ReturnType<typeof brokerOptions>["logger"]>;

/** The production logger (runtime's brokerOptions), writing its lines into `into` rather than stdout. */
function capturingLogger(cfg: ReturnType<typeof loadConfig>, into: string[]): LoggerConfig {
  const base = brokerOptions(cfg).logger as { type: string; options: { pino: { options: unknown } } & Record<string, unknown> };
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(chunk.toString("utf8"));
      done();
    },
  });
  return { ...base, options: { ...base.options, pino: { ...base.options.pino, destination } } } as LoggerConfig;
}

const MAIN = require.resolve("@docshelf/server/dist/main.js");

async function waitUntil(check: () => Promise<boolean>, deadlineMs: number, what: string): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface NatsSystemOptions {
  /** Services per process; default one process for each service. */
  processes?: ServiceName[][];
  env?: Record<string, string>;
  /**
   * Give every process that runs the gateway a port of its own (they share one otherwise, which only
   * one of them can bind). `urls` lists them in process order; `url` is the first.
   */
  gatewayPerPort?: boolean;
  /** NATS server the processes join; default NATS_URL (tests that restart NATS start their own). */
  natsUrl?: string;
  /** MongoDB URL every process keeps its collections under; default a fresh database on E2E_MONGO_URL when set. */
  mongoUrl?: string;
  /** Extra environment of one process, after `env` (e.g. a HEALTH_PORT of its own). */
  envFor?: (group: ServiceName[], index: number) => Record<string, string>;
}

export interface NatsSystem extends RunningSystem {
  children: ChildProcess[];
  /** The MongoDB database of this system (empty on the embedded store). */
  mongoUrl: string;
  urls: string[];
  /** Everything the processes wrote to stdout and stderr so far, in arrival order. */
  logs: string[];
  /** Starts process `index` again with the environment it had (after it was killed); replaces children[index]. */
  respawn(index: number): ChildProcess;
}

/** Each service group in its own Node.js process, joined over NATS under a namespace of its own. */
export async function startNats(options: NatsSystemOptions = {}): Promise<NatsSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-nats-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const namespace = `t${randomBytes(6).toString("hex")}`;
  const port = await freePort();
  const groups = options.processes ?? ALL_SERVICES.map((name) => [name]);
  const ownDatabase = options.mongoUrl === undefined && E2E_MONGO_URL !== "";
  const mongoUrl = options.mongoUrl ?? (E2E_MONGO_URL ? mongoDatabaseUrl(E2E_MONGO_URL, namespace) : "");
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const ports: number[] = [];
  const envs: NodeJS.ProcessEnv[] = [];
  const launch = (i: number): ChildProcess => {
    const child = spawn(process.execPath, [MAIN], { env: envs[i], stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d) => logs.push(String(d)));
    child.stderr?.on("data", (d) => logs.push(String(d)));
    children[i] = child;
    return child;
  };
  for (const [i, group] of groups.entries()) {
    let ownPort = port;
    if (group.includes("gateway")) {
      if (options.gatewayPerPort && ports.length > 0) ownPort = await freePort();
      ports.push(ownPort);
    }
    envs[i] = baseEnv(dataDir, adminToken, {
      TRANSPORTER: options.natsUrl ?? NATS_URL,
      NAMESPACE: namespace,
      SERVICES: group.join(","),
      NODE_ID: `${namespace}-${group.join("-")}-${i}`,
      PORT: String(ownPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(mongoUrl ? { MONGO_URL: mongoUrl } : {}),
      ...options.env,
      ...options.envFor?.(group, i),
    });
    launch(i);
  }
  const url = `http://127.0.0.1:${port}`;
  const urls = [...new Set(ports)].map((p) => `http://127.0.0.1:${p}`);
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
            child.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
    await removeNamespaceStreams(options.natsUrl ?? NATS_URL, namespace);
    if (ownDatabase) await dropMongoDatabase(mongoUrl);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const each of urls.length ? urls : [url]) {
      // Every service creates its collections and indexes in a new database first when on MongoDB.
      await waitUntil(async () => (await fetch(`${each}/ready`)).status === 200, 90_000, "the NATS system to be ready");
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${logs.join("").slice(-4000)}`, { cause: err });
  }
  const respawn = (index: number): ChildProcess => {
    const previous = children[index];
    if (previous.exitCode === null && previous.signalCode === null) throw new Error(`process ${index} is still running`);
    return launch(index);
  };
  return { mode: "nats", url, urls: urls.length ? urls : [url], adminToken, admin: new ApiClient(url, adminToken), dataDir, mongoUrl, stop, children, logs, respawn };
}

/**
 * Deletes the JetStream streams a test system left behind (rate-limit and idempotency buckets, git-sync
 * channels), all named after its namespace, so repeated runs do not pile them up on a shared server.
 * Best effort: a NATS server that is gone by now is not the test's failure.
 */
export async function removeNamespaceStreams(natsUrl: string, namespace: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.replace(/^nats:\/\//, ""), timeout: 2000, maxReconnectAttempts: 0 }).catch(() => null);
  if (!nc) return;
  try {
    const jsm = await nc.jetstreamManager();
    const doomed: string[] = [];
    for await (const stream of jsm.streams.list()) if (stream.config.name.includes(namespace)) doomed.push(stream.config.name);
    for (const name of doomed) await jsm.streams.delete(name).catch(() => false);
  } catch {
    /* best effort */
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/** Sets environment variables of this test process (services started in it read them); the answer puts back what was there. */
export function overrideEnv(values: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** The environment variable through which the test run's global setup hands a shared system to the suites. */
export const SHARED_SYSTEM_ENV: Record<RunningSystem["mode"], string> = { embedded: "DOCSHELF_SHARED_EMBEDDED", nats: "DOCSHELF_SHARED_NATS" };

/**
 * Settings of the systems that suites share: the per-client budgets are raised, because every suite sends
 * its anonymous and administrator requests from 127.0.0.1 and with one admin token, and so is the time a
 * request may take. The suites about those
 * budgets (hardening, sites-rate-limit, isolation-gateway) start systems of their own with the defaults.
 */
export const SHARED_SYSTEM_ENV_VALUES: Record<string, string> = {
  // Two suites at a time on one system: a burst of one (twelve merges at once, on FerretDB under NATS)
  // queues behind the other's requests. The suites about timeouts (fault, git-sync) start systems of their own.
  REQUEST_TIMEOUT_MS: "30000",
  RATE_LIMIT_PER_MINUTE: "1000000",
  RATE_LIMIT_ANON_PER_MINUTE: "1000000",
  SITE_RATE_LIMIT_PER_MINUTE: "1000000",
};

interface SharedSystemInfo {
  /** The configuration variables of the run's environment when the system started (a suite that changes one needs a system of its own). */
  settings: Record<string, string | null>;
  mode: RunningSystem["mode"];
  url: string;
  urls?: string[];
  adminToken: string;
  dataDir: string;
  mongoUrl?: string;
}

/** The configuration variables (@docshelf/config's VARIABLES) this process's environment sets, null for unset. */
function configSettings(): Record<string, string | null> {
  return Object.fromEntries(VARIABLES.map(({ name }) => [name, process.env[name] ?? null]));
}

/** What a suite needs to reach `system`, for SHARED_SYSTEM_ENV. */
export function describeShared(system: RunningSystem): string {
  const info: SharedSystemInfo = {
    settings: configSettings(),
    mode: system.mode,
    url: system.url,
    adminToken: system.adminToken,
    dataDir: system.dataDir,
    ...("urls" in system ? { urls: (system as NatsSystem).urls, mongoUrl: (system as NatsSystem).mongoUrl } : {}),
  };
  return JSON.stringify(info);
}

/**
 * The system of `mode` that the test run's global setup started for every suite (test/global-setup.js).
 * Its `stop()` does nothing: the run stops it once at the end. A suite on it keeps to organizations and
 * users it creates itself; one that needs settings, a process's life or the store's files of its own
 * starts a private system (startEmbedded, startNats) instead.
 */
export function sharedSystem(mode: RunningSystem["mode"]): RunningSystem & { mongoUrl?: string; urls?: string[] } {
  const raw = process.env[SHARED_SYSTEM_ENV[mode]];
  if (!raw) throw new Error(`no shared ${mode} system: ${SHARED_SYSTEM_ENV[mode]} is unset (the end-to-end suites' global setup, test/global-setup.js, starts it)`);
  const { settings, ...info } = JSON.parse(raw) as SharedSystemInfo;
  // A suite that set a configuration variable expects a system with that setting: the shared one has not got it.
  const now = configSettings();
  const changed = Object.keys(now).filter((name) => now[name] !== settings[name]);
  if (changed.length > 0) throw new Error(`this suite sets ${changed.join(", ")}, which the shared ${mode} system did not start with: start a system of its own (startEmbedded, startNats)`);
  return {
    ...info,
    admin: new ApiClient(info.url, info.adminToken),
    async stop() {
      /* the run's global teardown stops it */
    },
  };
}
