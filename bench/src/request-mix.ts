// A request mix of reads and writes across the services (issue 12): throughput, p50 and p99 of the real system
// against a bare moleculer-web floor with the same routes (mix-floor.ts) that answers the bytes the real system
// answered, once with everything in one process and once with one process per service over NATS. Real and floor
// runs alternate; medians of BENCH_RUNS runs. Writes its section of BENCHMARKS.md (inside the kept notes).
//
//   npm run build && npm run bench:mix -w @docshelf/bench      (or node bench/dist/request-mix.js)
//
// The mix, per 100 requests (a fixed shuffled sequence of 100 that every connection walks in turn; all as the
// instance administrator, who is an admin of the organization):
//   38 GET   /v1/spaces/{spaceId}                                        content
//   15 GET   /v1/spaces/{spaceId}/content/path/{section}/{page}          content
//   10 GET   /v1/spaces/{spaceId}/content/pages                          content (the tree of 50 pages)
//   10 GET   /v1/spaces/{spaceId}/search?query=deploy gateway            content
//    5 GET   /v1/spaces/{spaceId}/change-requests?status=draft&limit=20  change-requests
//    5 GET   /v1/orgs/{orgId}/sites/{siteId}                             sites
//    5 GET   /v1/spaces/{spaceId}/comments?limit=20                      comments
//    2 GET   /v1/orgs/{orgId}/openapi/{slug}                             openapi
//    5 POST  /v1/spaces/{spaceId}/comments {body: {markdown}}            comments (write)
//    3 PATCH /v1/spaces/{spaceId} {title}                                content (write)
//    2 POST  /v1/spaces/{spaceId}/change-requests {subject}              change-requests (write)
// Every request also passes the gateway's authentication (identity) and access checks (orgs).
// Seeded through the API before the runs: an organization, a space of 50 pages (5 sections of 9 pages, written
// in a change request and merged), 5 draft change requests, 20 comments, a site with the space, an OpenAPI spec
// sent as text. The writes pile up over the runs (comments, change requests), as they would in use.
//
// Env (all optional, bounded): BENCH_RUNS (3), BENCH_DURATION (5 s), BENCH_WARMUP (1 s), BENCH_MIX_FIRST_WARMUP (10 s,
// once per system before the first run), BENCH_CONNECTIONS (10),
// BENCH_MODES (embedded,nats), NATS_URL (loopback only), BENCH_QUIET_WAIT (15 s), BENCH_CPU_PROF (a directory:
// children run with --cpu-prof into it), BENCH_WRITE (0: do not write BENCHMARKS.md), BENCH_REVISION (label of the
// code measured), BENCH_MIX_EACH (1: also measure each request of the mix alone against the floor and print the
// CPU µs per request of each; diagnosis, not written), BENCH_MIX_ONLY (requests' names, comma-separated, e.g. "search": the
// runs send only those requests, for a CPU profile of them; diagnosis, never written).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import { ALL_SERVICES } from "@docshelf/config";
import type { MixFloorRoute } from "./mix-floor";
import { freePort, http, isLoopback, natsReachable, startChild, waitUntil, type HttpAnswer } from "./procs";
import {
  CONNECTIONS, DURATION_S, MAIN, MODES, NATS_URL, QUIET_CPU_PCT, QUIET_WAIT_S, RATE_LIMIT, ROOT, START_DEADLINE_MS, WARMUP_S, WRITE, bounded, dropNamespaceStreams, measureWith, median, nodeArgs, percentile, rand, sampleOf, startRealSystem, stopSystem, tempDir, watchdogMs, type Mode, type Sample, type System, runBench, revision,
} from "./systems";

const RUNS = bounded("BENCH_RUNS", 3, 1, 20);
/** BENCH_MIX_FIRST_WARMUP: seconds of the mix each system gets once, before the first run (besides each run's warm-up). */
const FIRST_WARMUP_S = bounded("BENCH_MIX_FIRST_WARMUP", 10, 0, 60);
/** BENCH_MIX_EACH=1: after the runs, each request of the mix alone against its floor (CPU µs per request), printed only. */
const EACH = process.env.BENCH_MIX_EACH === "1";
/** BENCH_MIX_ONLY=<request name>[,<name>…]: the runs send only those requests of the mix (for a profile of them); diagnosis, never written. */
const ONLY = process.env.BENCH_MIX_ONLY;
const MIX_FLOOR = join(__dirname, "mix-floor.js");
const PAGE_SECTIONS = 5;
const PAGES_PER_SECTION = 9;
const SEED_COMMENTS = 20;
const SEED_CHANGE_REQUESTS = 5;
const SLOTS = 100;

/** What the seeding made, for the mix's paths. */
interface Seeded {
  orgId: string;
  spaceId: string;
  /** Path of one page in a section, e.g. "section-3/page-3-4". */
  pagePath: string;
  siteId: string;
  specSlug: string;
}

type Method = "GET" | "POST" | "PATCH";

interface MixEntry {
  name: string;
  service: string;
  /** Requests of this kind per 100. */
  weight: number;
  method: Method;
  /** The real gateway's alias under /v1 (services/gateway/src/routes), which the floor serves too. */
  alias: string;
  path: (s: Seeded) => string;
  body?: unknown;
}

const MIX: MixEntry[] = [
  { name: "GET space", service: "content", weight: 38, method: "GET", alias: "GET /spaces/:spaceId", path: (s) => `/v1/spaces/${s.spaceId}` },
  {
    name: "GET page by path", service: "content", weight: 15, method: "GET", alias: "GET /spaces/:spaceId/content/path/*pagePath",
    path: (s) => `/v1/spaces/${s.spaceId}/content/path/${s.pagePath}`,
  },
  { name: "list pages", service: "content", weight: 10, method: "GET", alias: "GET /spaces/:spaceId/content/pages", path: (s) => `/v1/spaces/${s.spaceId}/content/pages` },
  { name: "search", service: "content", weight: 10, method: "GET", alias: "GET /spaces/:spaceId/search", path: (s) => `/v1/spaces/${s.spaceId}/search?query=deploy%20gateway` },
  {
    name: "list change requests", service: "change-requests", weight: 5, method: "GET", alias: "GET /spaces/:spaceId/change-requests",
    path: (s) => `/v1/spaces/${s.spaceId}/change-requests?status=draft&limit=20`,
  },
  { name: "GET site", service: "sites", weight: 5, method: "GET", alias: "GET /orgs/:organizationId/sites/:siteId", path: (s) => `/v1/orgs/${s.orgId}/sites/${s.siteId}` },
  { name: "list comments", service: "comments", weight: 5, method: "GET", alias: "GET /spaces/:spaceId/comments", path: (s) => `/v1/spaces/${s.spaceId}/comments?limit=20` },
  { name: "GET OpenAPI spec", service: "openapi", weight: 2, method: "GET", alias: "GET /orgs/:organizationId/openapi/:specSlug", path: (s) => `/v1/orgs/${s.orgId}/openapi/${s.specSlug}` },
  {
    name: "POST comment", service: "comments", weight: 5, method: "POST", alias: "POST /spaces/:spaceId/comments",
    path: (s) => `/v1/spaces/${s.spaceId}/comments`, body: { body: { markdown: "Looks right to me; the deploy section could link the gateway page." } },
  },
  { name: "PATCH space title", service: "content", weight: 3, method: "PATCH", alias: "PATCH /spaces/:spaceId", path: (s) => `/v1/spaces/${s.spaceId}`, body: { title: "Handbook" } },
  {
    name: "POST change request", service: "change-requests", weight: 2, method: "POST", alias: "POST /spaces/:spaceId/change-requests",
    path: (s) => `/v1/spaces/${s.spaceId}/change-requests`, body: { subject: "Reword the install guide" },
  },
];
if (MIX.reduce((n, e) => n + e.weight, 0) !== SLOTS) throw new Error(`the mix's weights must add up to ${SLOTS}`);

/** One request of the mix as the real system answered it once, before the runs. */
interface Captured {
  entry: MixEntry;
  path: string;
  answer: HttpAnswer;
}

interface RouteStat {
  ok: number;
  non2xx: number;
  p50: number;
  p99: number;
}

interface MixSample extends Sample {
  /** Per entry of MIX, in its order. */
  routes: RouteStat[];
}

interface MixModeResult {
  mode: Mode;
  real: MixSample[];
  floor: MixSample[];
  skipped?: string;
  /** Documents in each collection of the real system after its last run, as `service/collection`. */
  documents?: Record<string, number>;
}

/**
 * Documents in each collection under a DATA_DIR (`<service>/store.sqlite`, a table `c:<collection>` each),
 * read while the system runs (a read-only connection sees the last committed state).
 */
function documentsIn(dataDir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const service of readdirSync(dataDir).sort()) {
    const file = join(dataDir, service, "store.sqlite");
    if (!statSync(join(dataDir, service)).isDirectory() || !existsSync(file)) continue;
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%' ORDER BY name").all() as Array<{ name: string }>;
      for (const { name } of tables) out[`${service}/${name.slice(2)}`] = Number((db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n);
    } finally {
      db.close();
    }
  }
  return out;
}

/** Deterministic pseudo-random numbers, so the sequence of the mix is the same in every run. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** Indexes into MIX, each as often as its weight, shuffled (Fisher–Yates with a fixed seed). */
function sequence(): number[] {
  const slots = MIX.flatMap((entry, i) => Array.from({ length: entry.weight }, () => i));
  const rnd = lcg(12);
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  return slots;
}

const WORDS = (
  "install configure deploy gateway service broker cluster token search index revision page space markdown " +
  "organization member role editor reader template variable file link review merge publish archive restore"
).split(" ");

/** ~1 KB of markdown for page `n`, the same in every run. */
function markdown(title: string, n: number): string {
  const rnd = lcg(n + 1);
  const sentence = (words: number) => `${Array.from({ length: words }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(" ")}.`;
  const parts = [`# ${title}`, "", sentence(14), ""];
  for (let h = 0; h < 3; h++) parts.push(`## ${WORDS[(n + h) % WORDS.length]} ${h + 1}`, "", sentence(20), sentence(16), "", `- ${sentence(6)}`, `- ${sentence(6)}`, "");
  return parts.join("\n");
}

async function call(system: System, method: Method, path: string, body?: unknown): Promise<HttpAnswer> {
  const res = await http(method, `${system.url}${path}`, system.headers, body, 30_000);
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
  return res;
}

const json = <T>(res: HttpAnswer): T => JSON.parse(res.body.toString()) as T;

interface PageNode {
  id: string;
  path: string;
  pages?: PageNode[];
}

/** Seeds the real system through its API (see the header) and returns the ids the mix needs. */
async function seed(system: System): Promise<Seeded> {
  const orgId = json<{ id: string }>(await call(system, "POST", "/v1/orgs", { title: "Acme" })).id;
  const spaceId = json<{ id: string }>(await call(system, "POST", `/v1/orgs/${orgId}/spaces`, { title: "Handbook" })).id;

  // The pages: written in a change request (sections first, then their pages into them) and merged.
  const cr = json<{ id: string }>(await call(system, "POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "First pages" })).id;
  const crPath = `/v1/spaces/${spaceId}/change-requests/${cr}`;
  const sections = Array.from({ length: PAGE_SECTIONS }, (_, s) => ({
    operation: "insert_page",
    title: `Section ${s + 1}`,
    slug: `section-${s + 1}`,
    document: { markdown: markdown(`Section ${s + 1}`, 1000 + s) },
  }));
  await call(system, "POST", `${crPath}/content`, { changes: sections });
  const tree = json<{ items?: PageNode[]; pages?: PageNode[] }>(await call(system, "GET", `${crPath}/content/pages`));
  const sectionIds = (tree.items ?? tree.pages ?? []).map((p) => p.id);
  if (sectionIds.length !== PAGE_SECTIONS) throw new Error(`the change request has ${sectionIds.length} top-level pages, expected ${PAGE_SECTIONS}`);
  const pages = sectionIds.flatMap((into, s) =>
    Array.from({ length: PAGES_PER_SECTION }, (_, p) => {
      const title = `Page ${s + 1}-${p + 1}`;
      return { operation: "insert_page", into, title, slug: `page-${s + 1}-${p + 1}`, document: { markdown: markdown(title, s * PAGES_PER_SECTION + p) } };
    }),
  );
  await call(system, "POST", `${crPath}/content`, { changes: pages });
  await call(system, "POST", `${crPath}/merge`);
  const main = json<{ items?: PageNode[]; pages?: PageNode[] }>(await call(system, "GET", `/v1/spaces/${spaceId}/content/pages`));
  const top = main.items ?? main.pages ?? [];
  const pagePath = top[2]?.pages?.[3]?.path;
  if (!pagePath || top.reduce((n, p) => n + 1 + (p.pages?.length ?? 0), 0) !== PAGE_SECTIONS * (1 + PAGES_PER_SECTION)) {
    throw new Error(`the merged space does not have the ${PAGE_SECTIONS * (1 + PAGES_PER_SECTION)} pages written`);
  }

  for (let i = 0; i < SEED_CHANGE_REQUESTS; i++) await call(system, "POST", `/v1/spaces/${spaceId}/change-requests`, { subject: `Draft ${i + 1}` });
  for (let i = 0; i < SEED_COMMENTS; i++) await call(system, "POST", `/v1/spaces/${spaceId}/comments`, { body: { markdown: `Comment ${i + 1}: ${WORDS[i % WORDS.length]}.` } });
  const siteId = json<{ id: string }>(await call(system, "POST", `/v1/orgs/${orgId}/sites`, { title: "Handbook site", spaces: [spaceId] })).id;

  const specSlug = "petstore";
  await call(system, "POST", `/v1/orgs/${orgId}/openapi`, { slug: specSlug, source: { text: JSON.stringify(PETSTORE) } });
  // Processing runs in the background: wait for it, so the spec answers the same from the first run to the last.
  await waitUntil(
    "the OpenAPI spec to be processed",
    async () => json<{ processingState: string }>(await call(system, "GET", `/v1/orgs/${orgId}/openapi/${specSlug}`)).processingState === "complete",
    30_000,
    system.children,
  );
  return { orgId, spaceId, pagePath, siteId, specSlug };
}

const PETSTORE = {
  openapi: "3.0.3",
  info: { title: "Petstore", version: "1.0.0" },
  paths: {
    "/pets": {
      get: { summary: "List pets", responses: { "200": { description: "The pets" } } },
      post: { summary: "Add a pet", responses: { "201": { description: "Added" } } },
    },
    "/pets/{petId}": {
      get: { summary: "One pet", parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "The pet" } } },
    },
  },
};

/** Stand-ins for the seeded ids, to show the mix's paths. */
const PLACEHOLDERS: Seeded = { orgId: "{orgId}", spaceId: "{spaceId}", pagePath: "section-3/page-3-4", siteId: "{siteId}", specSlug: "petstore" };

/** Each request of the mix once, as the floor will answer it. */
async function capture(system: System, seeded: Seeded): Promise<Captured[]> {
  const captured: Captured[] = [];
  for (const entry of MIX) {
    const path = entry.path(seeded);
    captured.push({ entry, path, answer: await call(system, entry.method, path, entry.body) });
  }
  return captured;
}

function floorRoutes(captured: Captured[]): MixFloorRoute[] {
  return captured.map(({ entry, answer }) => {
    const location = answer.headers.location;
    return { alias: entry.alias, status: answer.status, location: typeof location === "string" ? location : undefined, body: answer.body.toString("utf8") };
  });
}

/** Starts the floor (one process, or a gateway process and an action process over NATS) and checks every route's answer. */
async function startMixFloor(mode: Mode, captured: Captured[], headers: Record<string, string>): Promise<System> {
  const dir = tempDir("docshelf-bench-mix-floor-");
  const routesFile = join(dir, "routes.json");
  writeFileSync(routesFile, JSON.stringify(floorRoutes(captured)));
  const port = await freePort();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    LOGLEVEL: "warn",
    FLOOR_ROUTES: routesFile,
    NAMESPACE: `bench-${mode}-mixfloor-${rand()}`,
  };
  const system: System = {
    natsNamespace: mode === "nats" ? base.NAMESPACE : undefined,
    label: `${mode} floor`,
    url: `http://127.0.0.1:${port}`,
    headers,
    children: [],
    tempDirs: [dir],
  };
  try {
    if (mode === "embedded") {
      system.children.push(startChild("mix floor (gateway + actions)", nodeArgs(mode, "mixfloor-all", MIX_FLOOR), { ...base, FLOOR_ROLE: "all", TRANSPORTER: "" }));
    } else {
      system.children.push(startChild("mix floor actions", nodeArgs(mode, "mixfloor-action", MIX_FLOOR), { ...base, FLOOR_ROLE: "action", TRANSPORTER: NATS_URL }));
      system.children.push(startChild("mix floor gateway", nodeArgs(mode, "mixfloor-gateway", MIX_FLOOR), { ...base, FLOOR_ROLE: "gateway", TRANSPORTER: NATS_URL }));
    }
    const first = captured[0];
    await waitUntil(`${system.label} routes`, async () => (await http(first.entry.method, `${system.url}${first.path}`, headers)).status === first.answer.status, START_DEADLINE_MS, system.children);
    for (const { entry, path, answer } of captured) {
      const got = await http(entry.method, `${system.url}${path}`, headers, entry.body);
      if (got.status !== answer.status || !got.body.equals(answer.body)) {
        throw new Error(`${system.label} answers ${entry.name} with ${got.status} and other bytes than the real API (${answer.status}):\n${got.body.toString()}\n---\n${answer.body.toString()}`);
      }
    }
    return system;
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

/**
 * The mix as autocannon requests: the same for the real system and the floor (same paths, headers and bodies).
 * `onResponse` runs just before autocannon's "response" event of the same answer, so it names the entry that
 * answer belongs to.
 */
function mixLoad(captured: Captured[], headers: Record<string, string>, only?: Set<number>): (system: System, durationS: number) => Promise<MixSample> {
  let current = 0;
  const requests: autocannon.Request[] = sequence().filter((i) => only === undefined || only.has(i)).map((i) => {
    const { entry, path } = captured[i];
    return {
      method: entry.method,
      path,
      headers: entry.body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: entry.body === undefined ? undefined : JSON.stringify(entry.body),
      onResponse: () => {
        current = i;
      },
    };
  });
  return (system, durationS) =>
    new Promise((resolve, reject) => {
      const latencies: number[] = [];
      const perRoute = MIX.map(() => ({ latencies: [] as number[], non2xx: 0 }));
      const instance = autocannon(
        { url: system.url, requests, connections: CONNECTIONS, pipelining: 1, duration: durationS, timeout: 10 },
        (err, result) => {
          if (err) return reject(err);
          const routes = perRoute.map((r) => {
            const sorted = r.latencies.sort((a, b) => a - b);
            return { ok: sorted.length, non2xx: r.non2xx, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
          });
          resolve({ ...sampleOf(latencies, result.duration || durationS, result.non2xx, result.errors), routes });
        },
      );
      instance.on("response", (_client, statusCode: number, _bytes, responseTime: number) => {
        if (statusCode >= 200 && statusCode < 300) {
          latencies.push(responseTime);
          perRoute[current].latencies.push(responseTime);
        } else {
          perRoute[current].non2xx++;
        }
      });
    });
}

/** The systems of the mode being measured, for the clean-up on a signal. */
const live = new Set<System>();

async function runMode(mode: Mode): Promise<MixModeResult> {
  const result: MixModeResult = { mode, real: [], floor: [] };
  if (mode === "nats") {
    const { hostname } = new URL(NATS_URL);
    if (!isLoopback(hostname)) throw new Error(`NATS_URL must point at a loopback address, got ${hostname}`);
    if (!(await natsReachable(NATS_URL))) {
      result.skipped = `no NATS server answers at ${NATS_URL}`;
      process.stdout.write(`${mode}: skipped, ${result.skipped}\n`);
      return result;
    }
  }
  let real: System | undefined;
  let floor: System | undefined;
  try {
    process.stdout.write(`${mode}: starting the real system, seeding it, starting the floor\n`);
    real = await startRealSystem(mode, "mix");
    live.add(real);
    const seedStart = Date.now();
    const seeded = await seed(real);
    const captured = await capture(real, seeded);
    process.stdout.write(`${mode}: seeded in ${Date.now() - seedStart} ms (page path ${seeded.pagePath}); answers ${captured.map((c) => `${c.entry.name} ${c.answer.status} ${c.answer.body.length} B`).join(", ")}\n`);
    floor = await startMixFloor(mode, captured, real.headers);
    live.add(floor);
    const only = ONLY ? new Set(ONLY.split(",").map((name) => MIX.findIndex((e) => e.name === name.trim()))) : undefined;
    if (only?.has(-1)) throw new Error(`BENCH_MIX_ONLY names a request that is not in the mix: ${ONLY}`);
    const load = mixLoad(captured, real.headers, only);
    // Each system once under the mix before the first run: with 1 s of warm-up the real system (all the services'
    // code) answered 35-40 % less in its first run than in its third while the floor was already steady, so the
    // median leaned on runs that measured the JIT (2026-11-28).
    if (FIRST_WARMUP_S > 0) for (const system of [real, floor]) await load(system, FIRST_WARMUP_S);
    for (let run = 0; run < RUNS; run++) {
      // Alternate which goes first, so that neither always follows the other.
      const order: Array<["real" | "floor", System]> = run % 2 === 0 ? [["real", real], ["floor", floor]] : [["floor", floor], ["real", real]];
      for (const [kind, system] of order) {
        const sample = await measureWith(system, load);
        result[kind].push(sample);
        process.stdout.write(
          `${mode} run ${run + 1}/${RUNS} ${kind.padEnd(5)} ${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms  ${sample.cpuUsPerReq} µs CPU/req  system ${sample.serverCpu}% loader ${sample.loaderCpu}% other ${sample.otherCpu}%\n`,
        );
        const failing = sample.routes.map((r, i) => (r.non2xx ? `${MIX[i].name}: ${r.non2xx}` : "")).filter(Boolean);
        if (failing.length) process.stderr.write(`  non-2xx by request: ${failing.join(", ")}\n`);
      }
    }
    if (EACH) {
      // Diagnosis only (BENCH_MIX_EACH=1): each request of the mix alone, real then floor, one run each.
      for (let i = 0; i < MIX.length; i++) {
        const alone = mixLoad(captured, real.headers, new Set([i]));
        const r = await measureWith(real, alone);
        const f = await measureWith(floor, alone);
        process.stdout.write(
          `${mode} alone ${MIX[i].name.padEnd(22)} real ${r.rps.toFixed(0).padStart(6)} req/s ${String(r.cpuUsPerReq).padStart(5)} µs CPU/req  floor ${f.rps.toFixed(0).padStart(6)} req/s ${String(f.cpuUsPerReq).padStart(5)} µs CPU/req  extra ${String(r.cpuUsPerReq - f.cpuUsPerReq).padStart(5)} µs × ${MIX[i].weight}\n`,
        );
      }
    }
    const [dataDir] = real.tempDirs;
    if (dataDir) {
      result.documents = documentsIn(dataDir);
      process.stdout.write(`${mode}: documents at the end: ${Object.entries(result.documents).filter(([, n]) => n > 0).map(([c, n]) => `${c} ${n}`).join(", ")}\n`);
    }
  } finally {
    await stopSystem(floor);
    await stopSystem(real);
    live.clear();
  }
  return result;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const failedOf = (samples: MixSample[]) => samples.reduce((n, s) => n + s.non2xx + s.errors, 0);

function resultsTable(results: MixModeResult[]): string {
  const rows = [
    "| mode | real req/s | real p50 ms | real p99 ms | real CPU µs/req | floor req/s | floor p50 ms | floor p99 ms | floor CPU µs/req | ratio real/floor req/s | ratio by CPU µs/req | non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of results) {
    if (!r.real.length || !r.floor.length) {
      rows.push(`| ${r.mode} | skipped: ${r.skipped ?? "no samples"} | – | – | – | – | – | – | – | – | – | – |`);
      continue;
    }
    const m = (xs: MixSample[], f: (s: MixSample) => number) => median(xs.map(f));
    const realRps = m(r.real, (s) => s.rps);
    const floorRps = m(r.floor, (s) => s.rps);
    const realCpu = m(r.real, (s) => s.cpuUsPerReq);
    const floorCpu = m(r.floor, (s) => s.cpuUsPerReq);
    rows.push(
      `| ${r.mode} | ${realRps.toFixed(0)} | ${round2(m(r.real, (s) => s.p50))} | ${round2(m(r.real, (s) => s.p99))} | ${realCpu} | ${floorRps.toFixed(0)} | ${round2(m(r.floor, (s) => s.p50))} | ${round2(m(r.floor, (s) => s.p99))} | ${floorCpu} | ${(realRps / floorRps).toFixed(2)} | ${(floorCpu / realCpu).toFixed(2)} | ${failedOf(r.real)} / ${failedOf(r.floor)} |`,
    );
  }
  return rows.join("\n");
}

function runsTable(results: MixModeResult[]): string {
  const rows = [
    "| mode | run | real req/s | real p50 ms | real p99 ms | real CPU µs/req | real CPU % | other CPU % | floor req/s | floor p50 ms | floor p99 ms | floor CPU µs/req | floor CPU % | other CPU % | non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of results) {
    for (let i = 0; i < Math.max(r.real.length, r.floor.length); i++) {
      const cells = (x: MixSample | undefined) => (x ? [x.rps.toFixed(0), x.p50, x.p99, x.cpuUsPerReq, x.serverCpu, x.otherCpu] : ["–", "–", "–", "–", "–", "–"]).join(" | ");
      const failed = [r.real[i], r.floor[i]].reduce((n, x) => n + (x ? x.non2xx + x.errors : 0), 0);
      rows.push(`| ${r.mode} | ${i + 1} | ${cells(r.real[i])} | ${cells(r.floor[i])} | ${failed} |`);
    }
  }
  return rows.join("\n");
}

/** Per request of the mix: medians over the runs of its p50 and p99, and every non-2xx answer of the real system. */
function routesTable(results: MixModeResult[]): string {
  const measured = results.filter((r) => r.real.length && r.floor.length);
  const head = ["| request | service | per 100", ...measured.map((r) => `${r.mode} real p50 / p99 ms | ${r.mode} floor p50 / p99 ms | ${r.mode} real 2xx / non-2xx`)].join(" | ");
  const rows = [`${head} |`, `| --- | --- | ---: |${measured.map(() => " ---: | ---: | ---: |").join("")}`];
  MIX.forEach((entry, i) => {
    const cells = measured.map((r) => {
      const pair = (xs: MixSample[]) => `${round2(median(xs.map((s) => s.routes[i].p50)))} / ${round2(median(xs.map((s) => s.routes[i].p99)))}`;
      const ok = r.real.reduce((n, s) => n + s.routes[i].ok, 0);
      const bad = r.real.reduce((n, s) => n + s.routes[i].non2xx, 0);
      return `${pair(r.real)} | ${pair(r.floor)} | ${ok} / ${bad}`;
    });
    rows.push(`| ${entry.name} | ${entry.service} | ${entry.weight} | ${cells.join(" | ")} |`);
  });
  return rows.join("\n");
}

/** One row per collection that holds documents in some mode, one column per mode. */
function documentsTable(results: MixModeResult[]): string {
  const measured = results.filter((r) => r.documents);
  const names = [...new Set(measured.flatMap((r) => Object.keys(r.documents ?? {})))].sort();
  const rows = names.filter((n) => measured.some((r) => (r.documents?.[n] ?? 0) > 0));
  return [
    `| collection | ${measured.map((r) => r.mode).join(" | ")} |`,
    `| --- |${measured.map(() => " ---: |").join("")}`,
    ...rows.map((n) => `| ${n} | ${measured.map((r) => r.documents?.[n] ?? 0).join(" | ")} |`),
  ].join("\n");
}

const MIX_START = "<!-- mix:start -->";
const MIX_END = "<!-- mix:end -->";
const NOTES_END = "<!-- notes:end -->";

function section(results: MixModeResult[], started: Date, elapsedS: number): string {
  const mixRows = MIX.map((e) => `| ${e.weight} | \`${e.method} ${e.path(PLACEHOLDERS)}\` | ${e.service} |${e.body === undefined ? "" : ` \`${JSON.stringify(e.body)}\``} |`);
  const count = (r: MixModeResult, name: string) => r.real.reduce((n, s) => n + s.routes[MIX.findIndex((e) => e.name === name)].ok, 0);
  const added = results
    .filter((r) => r.real.length)
    .map((r) => `${count(r, "POST comment")} comments and ${count(r, "POST change request")} change requests in ${r.mode} mode`)
    .join(", ");
  return `${MIX_START}
### Request mix (issue 12)

Written by \`npm run bench:mix -w @docshelf/bench\` (\`bench/src/request-mix.ts\`, floor \`bench/src/mix-floor.ts\`); a new
run replaces this section only.

**What is measured.** One fixed mix of reads and writes across the services, as the instance administrator (an
admin of the organization); every request also passes the gateway's authentication (identity) and access checks
(orgs):

| per 100 | request | service | body |
| ---: | --- | --- | --- |
${mixRows.join("\n")}

The 100 requests are one fixed shuffled sequence that each of the ${CONNECTIONS} autocannon connections walks in turn (no
pipelining). Before the runs the real system is seeded through its API: an organization; a space of
${PAGE_SECTIONS * (1 + PAGES_PER_SECTION)} pages (${PAGE_SECTIONS} sections of ${PAGES_PER_SECTION} pages, ~1 KB of markdown each, written in a change request and
merged); ${SEED_CHANGE_REQUESTS} draft change requests (new ones are drafts, so the mix lists drafts); ${SEED_COMMENTS} comments; a site with
the space; an OpenAPI spec sent as \`{text}\` (processed before the runs). The writes pile up over the runs, as
they would in use: the measured real runs added ${added} (the warm-ups a few more); the lists read the newest 20.
Documents in each collection of the real system after its last run (counted from its data files):

${documentsTable(results)}

\`RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}\`, so the limiter runs but never answers 429.

**The floor** is a bare moleculer-web gateway with the same ${MIX.length} routes (same methods and path patterns as the real
gateway's aliases), each mapped to an action that answers the status, \`Location\` and JSON the real system
answered for that request, captured once before the runs (checked byte for byte when the floor starts); no auth, no
validation, no store, Moleculer's default broker options, JSON serializer, the JSON body parser on (parsing the
writes' bodies is framework work). embedded: one process each (real: every service; floor: gateway and actions).
nats: the real system runs one process per service (${ALL_SERVICES.length}: ${ALL_SERVICES.join(", ")}), the
floor a gateway process and an action process, over \`${NATS_URL}\`.

${RUNS} runs per system and mode, real and floor alternating (real first on odd runs), after ${FIRST_WARMUP_S} s of the mix for each system
once before the first run (\`BENCH_MIX_FIRST_WARMUP\`; the real system's first runs otherwise measure its JIT warming up); each run ${WARMUP_S} s warm-up then ${DURATION_S} s measured,
up to ${QUIET_WAIT_S} s wait before each run for the machine's other processes to drop below ${QUIET_CPU_PCT}% of a core. req/s counts
2xx answers only; p50 / p99 are of those answers' own times; \`CPU µs/req\` is the CPU of all the system's
processes (not nats-server) per 2xx answer. The whole bench took ${Math.round(elapsedS)} s. Env as for \`npm run bench\`
(\`BENCH_RUNS\` here defaults to 3, \`BENCH_DURATION\`, \`BENCH_WARMUP\`, \`BENCH_CONNECTIONS\`, \`BENCH_MODES\`, \`NATS_URL\`,
\`BENCH_QUIET_WAIT\`, \`BENCH_CPU_PROF\`, \`BENCH_REVISION\`); \`BENCH_WRITE=0\` leaves this file alone. For diagnosis
(printed, never written here): \`BENCH_MIX_EACH=1\` also measures each request of the mix alone against its floor and
prints the CPU µs per request above the floor's; \`BENCH_MIX_ONLY=<names>\` (comma-separated, e.g. \`search\`) sends
only those requests, for a CPU profile of them with \`BENCH_CPU_PROF\`.

**Results (${started.toISOString().replace(/\.\d+Z$/, "Z")}, code at ${revision()}; ${cpus().length} CPUs, Node ${process.version}).** The machine
may be shared: \`other CPU %\` below says how busy everything else was during each run (over NATS it includes
nats-server, which the system keeps busy); where it is high, req/s moves a lot from run to run and \`CPU µs/req\`
and its ratio are the steadier numbers. Medians over the runs:

${resultsTable(results)}

Every run (\`CPU %\` in % of one core: the system's processes, and every other process on the machine, nats-server
included):

${runsTable(results)}

Per request of the mix (medians over the runs; the real system's answers summed over the runs):

${routesTable(results)}
${MIX_END}`;
}

/** Replaces this bench's section of BENCHMARKS.md, or adds it at the end of the kept notes (which run.ts keeps). */
function writeSection(file: string, text: string): void {
  const current = readFileSync(file, "utf8");
  const start = current.indexOf(MIX_START);
  const end = current.indexOf(MIX_END);
  let next: string;
  if (start >= 0 && end > start) next = current.slice(0, start) + text + current.slice(end + MIX_END.length);
  else if (current.includes(NOTES_END)) next = current.replace(NOTES_END, `\n${text}\n${NOTES_END}`);
  else next = `${current.trimEnd()}\n\n${text}\n`;
  writeFileSync(file, next);
}

async function main(): Promise<void> {
  const started = new Date();
  for (const file of [MAIN, MIX_FLOOR]) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  process.stdout.write(`bench:mix: ${RUNS} runs × (${WARMUP_S} s warm-up + ${DURATION_S} s) per system, ${CONNECTIONS} connections, modes ${MODES.join(", ")}\n`);
  const results: MixModeResult[] = [];
  for (const mode of MODES) results.push(await runMode(mode));
  const elapsedS = (Date.now() - started.getTime()) / 1000;
  process.stdout.write(`\n${resultsTable(results)}\n\n${routesTable(results)}\n\ntook ${Math.round(elapsedS)} s\n`);
  if (WRITE && !ONLY && !EACH) {
    const file = join(ROOT, "BENCHMARKS.md");
    writeSection(file, section(results, started, elapsedS));
    process.stdout.write(`wrote its section of ${file}\n`);
  }
}

// Seeding and starting take longer than in run.ts: two more minutes on top of its bound. On a signal, the
// JetStream streams of the systems' namespaces go too (the children are gone already).
runBench("bench:mix", watchdogMs(2) + 120_000 + MODES.length * 2 * FIRST_WARMUP_S * 1000, main, () =>
  Promise.all([...live].flatMap((s) => (s.natsNamespace ? [dropNamespaceStreams(s.natsNamespace)] : []))),
);
