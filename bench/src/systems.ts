// What the benchmark starts and how it measures: the real system, the floor, one autocannon run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { connect, type NatsConnection } from "nats";
import { ALL_SERVICES } from "@docshelf/config";
import { cpuTimeMs, freePort, killAllNow, machineBusyMs, http, isRunning, startChild, stopAll, waitUntil, type Child } from "./procs";

export const ROOT = resolve(__dirname, "../..");
export const MAIN = join(ROOT, "packages/server/dist/main.js");
export const FLOOR = join(__dirname, "floor.js");
export const TARGET = 0.6;
export const START_DEADLINE_MS = 60_000;

/**
 * Which code was measured: BENCH_REVISION, else the git commit of ROOT (read-only git), marked when the tree has
 * changes. BENCHMARKS.md is left out of that check: a benchmark writes it, and an earlier run's results are not a
 * change to the code being measured.
 */
export function revision(): string {
  if (process.env.BENCH_REVISION) return process.env.BENCH_REVISION;
  try {
    const opts = { cwd: ROOT, encoding: "utf8" as const, stdio: ["ignore", "pipe", "ignore"] as ["ignore", "pipe", "ignore"], timeout: 5000 };
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], opts).trim();
    const changes = execFileSync("git", ["status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)BENCHMARKS.md"], opts);
    return changes.trim() !== "" ? `${commit} with uncommitted changes` : commit;
  } catch {
    return "unknown";
  }
}

export function bounded(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  return value;
}

export const RUNS = bounded("BENCH_RUNS", 5, 1, 20);
export const DURATION_S = bounded("BENCH_DURATION", 5, 1, 60);
export const WARMUP_S = bounded("BENCH_WARMUP", 1, 0, 30);
export const CONNECTIONS = bounded("BENCH_CONNECTIONS", 10, 1, 256);
export const MODES = (process.env.BENCH_MODES || "embedded,nats").split(",").map((m) => m.trim()).filter(Boolean) as Mode[];
export const NATS_URL = process.env.NATS_URL || "nats://127.0.0.1:4222";
export const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : "";
export const WRITE = process.env.BENCH_WRITE !== "0";
/** Before each run, wait at most this long for the rest of the machine to go quiet (other processes < QUIET_CPU_PCT). */
export const QUIET_WAIT_S = bounded("BENCH_QUIET_WAIT", 15, 0, 120);
export const QUIET_CPU_PCT = 30;
export const RATE_LIMIT = String(bounded("BENCH_RATE_LIMIT", 10_000_000, 0, 10_000_000));

/**
 * The whole benchmark never runs longer than this; past it every child is killed and it exits 1: every run at its
 * longest (quiet wait, warm-up, measurement, a few seconds of slack), plus starting and stopping each system.
 */
export function watchdogMs(systemsPerMode: number): number {
  const perRun = QUIET_WAIT_S + 1 + WARMUP_S + DURATION_S + 5;
  return MODES.length * systemsPerMode * (RUNS * perRun + 2 * START_DEADLINE_MS / 1000) * 1000 + 60_000;
}

export type Mode = "embedded" | "nats";
for (const m of MODES) if (m !== "embedded" && m !== "nats") throw new Error(`BENCH_MODES may name embedded and nats only, got "${m}"`);

export interface System {
  /** Moleculer namespace of a system on NATS: the JetStream buckets the gateway made for it are removed on stop. */
  natsNamespace?: string;
  label: string;
  /** The URL autocannon hits. */
  url: string;
  headers: Record<string, string>;
  children: Child[];
  tempDirs: string[];
}

export interface Sample {
  rps: number;
  p99: number;
  p50: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** CPU time of all the system's processes per answered request, in µs. */
  cpuUsPerReq: number;
  /** CPU the system's processes used during the run, in % of one core. */
  serverCpu: number;
  /** CPU the load generator (this process) used during the run, in % of one core. */
  loaderCpu: number;
  /** CPU every other process on the machine used during the run, in % of one core: noise. */
  otherCpu: number;
}

export interface ModeResult {
  mode: Mode;
  description: string;
  real: Sample[];
  floor: Sample[];
  bodyBytes: number;
  skipped?: string;
}

export const rand = () => randomBytes(4).toString("hex");
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export function nodeArgs(mode: Mode, name: string, script: string): string[] {
  if (!CPU_PROF_DIR) return [script];
  const dir = join(CPU_PROF_DIR, `${mode}-${name}`);
  mkdirSync(dir, { recursive: true });
  return ["--cpu-prof", "--cpu-prof-interval=200", `--cpu-prof-dir=${dir}`, script];
}

/** Every temp dir a started system still owns, for the last-resort clean-up on exit. */
const liveTempDirs = new Set<string>();

/** A fresh temp dir, removed by stopSystem when a system lists it in `tempDirs`, else by removeTempDirsNow on exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  liveTempDirs.add(dir);
  return dir;
}

/** Synchronous: for the exit handler, after the children were killed. */
export function removeTempDirsNow(): void {
  for (const dir of liveTempDirs) rmSync(dir, { recursive: true, force: true });
  liveTempDirs.clear();
}

export async function stopSystem(system: System | undefined): Promise<void> {
  if (!system) return;
  await Promise.all(system.children.map((c) => c.stop()));
  for (const dir of system.tempDirs) {
    rmSync(dir, { recursive: true, force: true });
    liveTempDirs.delete(dir);
  }
  if (system.natsNamespace) await dropNamespaceStreams(system.natsNamespace);
}

/**
 * Removes the JetStream streams a run left on the NATS server (the gateway's KV buckets, named `..._<namespace>`;
 * the services' channels, e.g. change-requests' and git-sync's, named `<namespace>_...`), so that repeated runs do
 * not pile them up. Best effort: a failure is reported, not thrown.
 */
export async function dropNamespaceStreams(namespace: string): Promise<void> {
  const sanitized = namespace.replace(/[^A-Za-z0-9_-]/g, "_");
  let nc: NatsConnection | undefined;
  try {
    nc = await connect({ servers: NATS_URL, timeout: 3000, reconnect: false });
    const jsm = await nc.jetstreamManager({ timeout: 3000 });
    const names: string[] = [];
    for await (const info of jsm.streams.list()) if (info.config.name.includes(sanitized)) names.push(info.config.name);
    for (const name of names) await jsm.streams.delete(name);
  } catch (err) {
    process.stderr.write(`  warning: could not remove the JetStream streams of ${namespace}: ${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    await nc?.close().catch(() => undefined);
  }
}

/**
 * Starts the real system (every service in one process, or one process per service over NATS) in a fresh temp
 * DATA_DIR and waits until it is ready: `url` is its base URL, `headers` authenticate the instance administrator.
 * `name` goes into the temp dir, the namespace and the label. Stopped with stopSystem, also when this throws.
 */
/** `env` adds to (or overrides) the environment every process of the system gets. */
export async function startRealSystem(mode: Mode, name = "real", env: NodeJS.ProcessEnv = {}): Promise<System> {
  const dataDir = tempDir(`docshelf-bench-${mode}-`);
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const namespace = `bench-${mode}-${name}-${rand()}`;
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    LOGLEVEL: "warn",
    NAMESPACE: namespace,
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    MONGO_URL: "",
    // Throughput is what is measured, so the per-token rate limit must never trip: the highest value the config
    // accepts keeps the limiter in the request path (its cost is real) without ever answering 429.
    // BENCH_RATE_LIMIT=0 turns the limiter off instead, to see what it costs.
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
    ...env,
  };
  const system: System = {
    natsNamespace: mode === "nats" ? namespace : undefined,
    label: `${mode} ${name}`,
    url: `http://127.0.0.1:${port}`,
    headers: { Authorization: `Bearer ${adminToken}` },
    children: [],
    tempDirs: [dataDir],
  };
  try {
    if (mode === "embedded") {
      system.children.push(startChild("real (all services)", nodeArgs(mode, "real-all", MAIN), { ...base, SERVICES: "all", TRANSPORTER: "" }));
    } else {
      // Every service the project has (gateway, identity, orgs, content, ...), the gateway last.
      const services = [...ALL_SERVICES].sort((a, b) => Number(a === "gateway") - Number(b === "gateway"));
      for (const service of services) {
        system.children.push(
          startChild(`real ${service}`, nodeArgs(mode, `real-${service}`, MAIN), {
            ...base,
            SERVICES: service,
            TRANSPORTER: NATS_URL,
            NODE_ID: `${namespace}-${service}`,
          }),
        );
      }
    }
    await waitUntil(`${system.label} /ready`, async () => (await http("GET", `${system.url}/ready`)).status === 200, START_DEADLINE_MS, system.children);
    return system;
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

/** Starts the real system, creates an organization and a space, and captures GET /v1/spaces/{id}. */
export async function startReal(mode: Mode, name = "real", env: NodeJS.ProcessEnv = {}): Promise<{ system: System; spaceId: string; body: Buffer }> {
  const system = await startRealSystem(mode, name, env);
  try {
    const org = await http("POST", `${system.url}/v1/orgs`, system.headers, { title: "Acme" });
    if (org.status !== 201) throw new Error(`POST /v1/orgs answered ${org.status}: ${org.body.toString()}`);
    const orgId = (JSON.parse(org.body.toString()) as { id: string }).id;
    const space = await http("POST", `${system.url}/v1/orgs/${orgId}/spaces`, system.headers, { title: "Docs" });
    if (space.status !== 201) throw new Error(`POST /v1/orgs/${orgId}/spaces answered ${space.status}: ${space.body.toString()}`);
    const spaceId = (JSON.parse(space.body.toString()) as { id: string }).id;
    const got = await http("GET", `${system.url}/v1/spaces/${spaceId}`, system.headers);
    if (got.status !== 200) throw new Error(`GET /v1/spaces/${spaceId} answered ${got.status}: ${got.body.toString()}`);
    system.url = `${system.url}/v1/spaces/${spaceId}`;
    return { system, spaceId, body: got.body };
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

/** A variant of the floor, for finding out where the time goes (see ablate.ts); the benchmark itself uses the bare one. */
export interface FloorVariant {
  /** Short name, used in labels and profile folders. */
  name: string;
  /** Extra env of the floor processes (FLOOR_BROKER, FLOOR_GATEWAY). */
  env: Record<string, string>;
}

export const BARE_FLOOR: FloorVariant = { name: "floor", env: {} };

/** Starts the floor: one process (embedded) or a gateway process plus an action process over NATS. */
export async function startFloor(mode: Mode, spaceId: string, body: Buffer, variant: FloorVariant = BARE_FLOOR, headers: Record<string, string> = {}): Promise<System> {
  const dir = tempDir("docshelf-bench-floor-");
  const bodyFile = join(dir, "space.json");
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    ...variant.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOGLEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
    FLOOR_BODY: bodyFile,
    NAMESPACE: `bench-${mode}-${variant.name}-${rand()}`,
  };
  const system: System = {
    natsNamespace: mode === "nats" ? base.NAMESPACE : undefined,
    label: `${mode} ${variant.name}`, url: `http://127.0.0.1:${port}/v1/spaces/${spaceId}`, headers, children: [], tempDirs: [dir] };
  try {
    if (mode === "embedded") {
      system.children.push(startChild(`${variant.name} (gateway + action)`, nodeArgs(mode, `${variant.name}-all`, FLOOR), { ...base, FLOOR_ROLE: "all", TRANSPORTER: "" }));
    } else {
      system.children.push(startChild(`${variant.name} action`, nodeArgs(mode, `${variant.name}-action`, FLOOR), { ...base, FLOOR_ROLE: "action", TRANSPORTER: NATS_URL }));
      system.children.push(startChild(`${variant.name} gateway`, nodeArgs(mode, `${variant.name}-gateway`, FLOOR), { ...base, FLOOR_ROLE: "gateway", TRANSPORTER: NATS_URL }));
    }
    await waitUntil(`${system.label} route`, async () => (await http("GET", system.url, headers)).status === 200, START_DEADLINE_MS, system.children);
    const got = await http("GET", system.url, headers);
    if (!got.body.equals(body)) throw new Error(`${system.label} answers other bytes than the real API:\n${got.body.toString()}\n---\n${body.toString()}`);
    return system;
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

/** The p-th percentile (nearest rank) of ascending `sorted`, rounded to 0.01; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
}

/** A run's sample from the latencies of its 2xx answers (ms, any order); the CPU figures are filled in by measureWith. */
export function sampleOf(latencies: number[], durationS: number, non2xx: number, errors: number): Sample {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    // Only successful answers count: a 429 or a 5xx is no throughput.
    rps: sorted.length / durationS,
    p99: percentile(sorted, 99),
    p50: percentile(sorted, 50),
    non2xx,
    errors,
    requests: sorted.length,
    cpuUsPerReq: NaN,
    serverCpu: NaN,
    loaderCpu: NaN,
    otherCpu: NaN,
  };
}

/**
 * One autocannon run. Throughput and latency count 2xx answers only; latency percentiles come from each answer's own
 * time (autocannon's histogram keeps whole ms only).
 */
export function load(system: System, durationS: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: system.url,
        method: "GET",
        headers: system.headers,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: durationS,
        timeout: 10,
      },
      (err, result) => (err ? reject(err) : resolve(sampleOf(latencies, result.duration || durationS, result.non2xx, result.errors))),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits, at most QUIET_WAIT_S, until the machine's other processes use less than QUIET_CPU_PCT of one core over a
 * second (every system of ours is idle then). Returns the last reading: the run goes ahead anyway after the wait.
 */
export async function waitForQuiet(): Promise<number> {
  const deadline = Date.now() + QUIET_WAIT_S * 1000;
  let busy: number;
  do {
    const before = machineBusyMs();
    const self = process.cpuUsage();
    await sleep(1000);
    const own = process.cpuUsage(self);
    busy = (machineBusyMs() - before - (own.user + own.system) / 1000) / 10;
    if (!(busy >= QUIET_CPU_PCT)) return busy;
  } while (Date.now() < deadline);
  return busy;
}

export function measure(system: System): Promise<Sample> {
  return measureWith(system, load);
}

/** One measured run (quiet wait, warm-up, then DURATION_S) with another load than GET system.url, e.g. a request mix. */
export async function measureWith<S extends Sample>(system: System, run: (system: System, durationS: number) => Promise<S>): Promise<S> {
  if (QUIET_WAIT_S > 0) await waitForQuiet();
  if (WARMUP_S > 0) await run(system, WARMUP_S);
  const dead = system.children.find((c) => !isRunning(c));
  if (dead) throw new Error(`${dead.name} exited during the benchmark:\n${dead.tail()}`);
  const cpu = () => system.children.reduce((sum, c) => sum + cpuTimeMs(c.proc.pid), 0);
  const machineBefore = machineBusyMs();
  const serverBefore = cpu();
  const loaderBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  const sample = await run(system, DURATION_S);
  const wallMs = Number(process.hrtime.bigint() - wallBefore) / 1e6;
  const loader = process.cpuUsage(loaderBefore);
  const serverMs = cpu() - serverBefore;
  const machineMs = machineBusyMs() - machineBefore;
  const loaderMs = (loader.user + loader.system) / 1000;
  sample.serverCpu = Math.round((100 * serverMs) / wallMs);
  sample.loaderCpu = Math.round((100 * loaderMs) / wallMs);
  sample.otherCpu = Math.max(0, Math.round((100 * (machineMs - serverMs - loaderMs)) / wallMs));
  sample.cpuUsPerReq = sample.requests ? Math.round((1000 * serverMs) / sample.requests) : NaN;
  if (sample.non2xx || sample.errors) {
    process.stderr.write(`  warning: ${system.label}: ${sample.non2xx} non-2xx answers, ${sample.errors} errors\n`);
  }
  return sample;
}

/**
 * Runs a bench's `main` so that it always cleans up: a watchdog gives up after `watchdogMs`; SIGINT and
 * SIGTERM kill every child (then `onSignal`, bounded to 5 s, may clean up more, e.g. JetStream streams);
 * on exit, error or success, every child is stopped and every temp dir removed.
 */
export function runBench(name: string, watchdogMs: number, main: () => Promise<void>, onSignal?: () => Promise<unknown>): void {
  const watchdog = setTimeout(() => {
    process.stderr.write(`${name}: still running after ${Math.round(watchdogMs / 60_000)} minutes, giving up\n`);
    killAllNow();
    removeTempDirsNow();
    process.exit(1);
  }, watchdogMs);
  watchdog.unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      process.stderr.write(`${name}: ${signal}, stopping every child\n`);
      killAllNow();
      removeTempDirsNow();
      const more = onSignal ? onSignal() : Promise.resolve();
      void Promise.race([more, new Promise((r) => setTimeout(r, 5000))]).then(() => process.exit(130));
    });
  }
  process.once("exit", () => {
    killAllNow();
    removeTempDirsNow();
  });
  main()
    .then(async () => {
      await stopAll();
      clearTimeout(watchdog);
    })
    .catch(async (err: unknown) => {
      process.stderr.write(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      await stopAll();
      process.exit(1);
    });
}
