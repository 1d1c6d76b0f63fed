// The embedded store beyond memory, through the server (issue 43): 100 spaces of 1,000 pages, each page written
// and then changed BENCH_REVISIONS times (every version kept: a revision per commit, a document per page body),
// in the real system (embedded, every service in one process, its own temp DATA_DIR). Measured: the restart to
// /ready, the process's RSS after reading every page once, page reads (GET …/content/page/{id}) and page writes
// (one update_page committed as a new revision of a 1,000-page space) one request at a time, p50.
// Baseline, in the same run: the same server on a DATA_DIR of one such space (1 % of the data), measured the same
// way, alternating with the large one; the ratios say what the size costs. Medians of BENCH_RUNS rounds.
//
//   npm run build && node bench/dist/store-server.js          (npm run bench:store-server -w @docshelf/bench)
//
// Env (bounded): BENCH_SPACES (100), BENCH_SPACE_PAGES (1000), BENCH_REVISIONS (3), BENCH_RUNS (3), BENCH_SAMPLES
// (500 reads and 100 writes per round and instance), BENCH_WRITE (0: print only, leave BENCHMARKS.md alone).
// The pages are written through the test-only route POST /v1/_test/spaces/{id}/changes (NODE_ENV=test), 1,000
// changes a commit.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, isRunning, startChild, waitUntil, type Child } from "./procs";
import { markdown, now, pct, r1 } from "./large-space";
import { bounded, MAIN, median, ROOT, START_DEADLINE_MS, runBench, tempDir, WRITE } from "./systems";

const SPACES = bounded("BENCH_SPACES", 100, 1, 1000);
const SPACE_PAGES = bounded("BENCH_SPACE_PAGES", 1000, 1, 10_000);
const REVISIONS = bounded("BENCH_REVISIONS", 3, 0, 10);
const RUNS = bounded("BENCH_RUNS", 3, 1, 20);
const READS = bounded("BENCH_SAMPLES", 500, 10, 100_000);
const WRITES = Math.max(10, Math.round(READS / 5));
const BATCH = 1000;
const WATCHDOG_MS = 3 * 3600_000;

interface Instance {
  name: string;
  spaces: number;
  dataDir: string;
  port: number;
  adminToken: string;
  child?: Child;
  spaceIds: string[];
  generateMs: number;
}

interface Round {
  restartMs: number;
  sweepS: number;
  patchP50: number;
  readP50: number;
  readP90: number;
  writeP50: number;
  writeP90: number;
  rssAfterEveryPageMb: number;
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) / 1024);
}

const base = (i: Instance) => `http://127.0.0.1:${i.port}`;

async function start(i: Instance): Promise<number> {
  const t = now();
  i.child = startChild(`${i.name} server`, [MAIN], {
    ...process.env,
    NODE_ENV: "test",
    DATA_DIR: i.dataDir,
    ADMIN_TOKEN: i.adminToken,
    LOGLEVEL: "warn",
    NAMESPACE: `bench-store-${i.name}-${randomBytes(3).toString("hex")}`,
    HOST: "127.0.0.1",
    PORT: String(i.port),
    PUBLIC_URL: base(i),
    MONGO_URL: "",
    SERVICES: "all",
    TRANSPORTER: "",
    RATE_LIMIT_PER_MINUTE: "10000000",
    JSON_BODY_LIMIT_BYTES: String(32 * 1024 * 1024),
    REQUEST_TIMEOUT_MS: "120000",
  });
  await waitUntil(`${i.name} /ready`, async () => (await http("GET", `${base(i)}/ready`)).status === 200, START_DEADLINE_MS, [i.child]);
  return now() - t;
}

async function stop(i: Instance): Promise<void> {
  await i.child?.stop();
  i.child = undefined;
}

async function call(i: Instance, method: string, path: string, body?: unknown, expect = [200, 201], retries = method === "GET" ? 2 : 0): Promise<unknown> {
  const res = await http(method, `${base(i)}${path}`, { Authorization: `Bearer ${i.adminToken}` }, body, 300_000).catch((err: Error) => {
    if (retries > 0 && i.child && isRunning(i.child)) return null;
    throw new Error(`${i.name}: ${method} ${path}: ${err.message}; the server ${i.child && isRunning(i.child) ? "runs" : "exited"}:\n${i.child?.tail() ?? ""}`);
  });
  if (res === null) return call(i, method, path, body, expect, retries - 1);
  if (!expect.includes(res.status)) throw new Error(`${i.name}: ${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res.body.length ? JSON.parse(res.body.toString()) : undefined;
}

const pageId = (n: number) => `p${n}`;

/** Runs `work` over 0..count-1, `width` at a time. */
async function inParallel(count: number, width: number, work: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Each space's pages, then REVISIONS rounds changing every page (a commit per BATCH changes), one request at a time. */
async function generate(i: Instance): Promise<void> {
  const t = now();
  const org = (await call(i, "POST", "/v1/orgs", { title: `Store bench ${i.name}` })) as { id: string };
  for (let s = 0; s < i.spaces; s++) i.spaceIds.push(((await call(i, "POST", `/v1/orgs/${org.id}/spaces`, { title: `Space ${s}` })) as { id: string }).id);
  let done = 0;
  await inParallel(i.spaces, 1, async (s) => {
    const spaceId = i.spaceIds[s];
    for (let v = 0; v <= REVISIONS; v++) {
      for (let off = 0; off < SPACE_PAGES; off += BATCH) {
        const changes = [];
        for (let n = off; n < Math.min(SPACE_PAGES, off + BATCH); n++) {
          const body = `${markdown(s * SPACE_PAGES + n)}\nVersion ${v}.\n`;
          changes.push(v === 0 ? { type: "insert_page", id: pageId(n), title: `Page ${n}`, markdown: body } : { type: "update_page", page: pageId(n), markdown: body });
        }
        await call(i, "POST", `/v1/_test/spaces/${spaceId}/changes`, { changes }, [201]);
      }
    }
    if (++done % 10 === 0) process.stderr.write(`${i.name}: ${done}/${i.spaces} spaces written in ${Math.round((now() - t) / 1000)} s\n`);
  });
  i.generateMs = now() - t;
}

/** Reads every page of the instance once (the RSS is taken after), then the sampled reads and writes. */
async function round(i: Instance, r: number): Promise<Round> {
  await stop(i);
  const restartMs = await start(i);
  const sweep = now();
  await inParallel(i.spaceIds.length * SPACE_PAGES, 4, (k) => call(i, "GET", `/v1/spaces/${i.spaceIds[Math.floor(k / SPACE_PAGES)]}/content/page/${pageId(k % SPACE_PAGES)}`).then(() => undefined));
  const sweepS = (now() - sweep) / 1000;
  const rssAfterEveryPageMb = rssMb(i.child?.proc.pid);
  const reads: number[] = [];
  for (let k = 0; k < READS; k++) {
    const spaceId = i.spaceIds[(k * 7919 + r) % i.spaceIds.length];
    const t = now();
    await call(i, "GET", `/v1/spaces/${spaceId}/content/page/${pageId((k * 104729 + r) % SPACE_PAGES)}`);
    reads.push(now() - t);
  }
  const writes: number[] = [];
  for (let k = 0; k < WRITES; k++) {
    const spaceId = i.spaceIds[(k * 31 + r) % i.spaceIds.length];
    const t = now();
    await call(i, "POST", `/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "update_page", page: pageId((k * 613 + r) % SPACE_PAGES), markdown: `# Edited ${r}.${k}\n\nOne more version of this page.\n` }] }, [201]);
    writes.push(now() - t);
  }
  const patches: number[] = [];
  for (let k = 0; k < WRITES; k++) {
    const t = now();
    await call(i, "PATCH", `/v1/spaces/${i.spaceIds[(k * 31 + r) % i.spaceIds.length]}`, { title: `Space edited ${r}.${k}` });
    patches.push(now() - t);
  }
  return { restartMs, sweepS, patchP50: pct(patches, 50), readP50: pct(reads, 50), readP90: pct(reads, 90), writeP50: pct(writes, 50), writeP90: pct(writes, 90), rssAfterEveryPageMb };
}

function du(dir: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const out = (require("node:child_process") as typeof import("node:child_process")).spawnSync("du", ["-sk", dir], { encoding: "utf8" });
  return Math.round(Number(out.stdout.split("\t")[0]) / 1024);
}

async function main(): Promise<void> {
  const make = async (name: string, spaces: number): Promise<Instance> => ({
    name,
    spaces,
    dataDir: tempDir(`docshelf-bench-store-${name}-`),
    port: await freePort(),
    adminToken: `dsk_${randomBytes(24).toString("base64url")}`,
    spaceIds: [],
    generateMs: 0,
  });
  const small = await make("small", 1);
  const large = await make("large", SPACES);
  for (const i of [small, large]) {
    await start(i);
    await generate(i);
    process.stderr.write(`${i.name}: ${i.spaces * SPACE_PAGES} pages written in ${Math.round(i.generateMs / 1000)} s\n`);
    await stop(i);
  }
  const rounds: Record<string, Round[]> = { small: [], large: [] };
  for (let r = 0; r < RUNS; r++) {
    for (const i of r % 2 ? [small, large] : [large, small]) {
      const result = await round(i, r);
      process.stderr.write(`${i.name} round ${r + 1}: ${JSON.stringify(result)}\n`);
      rounds[i.name].push(result);
      await stop(i);
    }
  }
  const m = (name: string, key: keyof Round) => median(rounds[name].map((x) => x[key]));
  const ratio = (key: keyof Round) => (m("large", key) / m("small", key)).toFixed(2);
  const pages = SPACES * SPACE_PAGES;
  const rows: Array<[string, string, string, string, string]> = [
    ["restart to `/ready` (stop, start the process, poll /ready every 100 ms)", `${Math.round(m("large", "restartMs"))} ms`, `${Math.round(m("small", "restartMs"))} ms`, ratio("restartMs"), `≤ 3000 ms: ${m("large", "restartMs") <= 3000 ? "met" : "**not met**"}`],
    [`RSS of the server after reading every page once (${pages.toLocaleString("en")} GETs after the restart)`, `${m("large", "rssAfterEveryPageMb")} MB`, `${m("small", "rssAfterEveryPageMb")} MB`, ratio("rssAfterEveryPageMb"), `≤ 400 MB: ${m("large", "rssAfterEveryPageMb") <= 400 ? "met" : "**not met**"}`],
    [`page read \`GET …/content/page/{id}\` p50 (${READS} spread over the spaces; p90 after the slash)`, `${r1(m("large", "readP50"))} / ${r1(m("large", "readP90"))} ms`, `${r1(m("small", "readP50"))} / ${r1(m("small", "readP90"))} ms`, ratio("readP50"), `≤ 2 ms: ${m("large", "readP50") <= 2 ? "met" : "**not met**"}`],
    [`(for reference) reading every page once, 4 requests at a time, after the restart`, `${Math.round(m("large", "sweepS"))} s`, `${Math.round(m("small", "sweepS"))} s`, ratio("sweepS"), "–"],
    [`(for reference) a one-document write: \`PATCH /v1/spaces/{id}\` (title) p50 (${WRITES} writes)`, `${r1(m("large", "patchP50"))} ms`, `${r1(m("small", "patchP50"))} ms`, ratio("patchP50"), "–"],
    [`page write p50: one \`update_page\` committed as a new revision of its ${SPACE_PAGES.toLocaleString("en")}-page space (${WRITES} writes; p90 after the slash)`, `${r1(m("large", "writeP50"))} / ${r1(m("large", "writeP90"))} ms`, `${r1(m("small", "writeP50"))} / ${r1(m("small", "writeP90"))} ms`, ratio("writeP50"), `≤ 3 ms: ${m("large", "writeP50") <= 3 ? "met" : "**not met**"}`],
  ];
  const text = [
    "<!-- store-server:start -->",
    `### ${pages.toLocaleString("en")} pages through the server (issue 43, \`bench/src/store-server.ts\`)`,
    "",
    `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/store-server.js\`: the embedded system (every service in one process, SQLite store, \`NODE_ENV=test\`, its own temp \`DATA_DIR\`) holding ${SPACES} spaces of ${SPACE_PAGES.toLocaleString("en")} pages (~2 KB of markdown each), every page written and then changed ${REVISIONS} times, ${BATCH.toLocaleString("en")} changes a commit (${(pages * (REVISIONS + 1)).toLocaleString("en")} page versions, ${SPACES * (REVISIONS + 1) * Math.ceil(SPACE_PAGES / BATCH)} revisions of ${SPACE_PAGES.toLocaleString("en")}-page trees; ${du(large.dataDir).toLocaleString("en")} MB on disk). Written through \`POST /v1/_test/spaces/{id}/changes\` in ${Math.round(large.generateMs / 1000)} s. Baseline in the same run: the same server and data for one space (${SPACE_PAGES.toLocaleString("en")} pages, written in ${Math.round(small.generateMs / 1000)} s), measured the same way; rounds alternate large and small. Each round restarts the instance, reads every page once, then sends the sampled reads and writes one at a time from the bench process (\`node:http\`, 127.0.0.1). Medians of ${RUNS} rounds. ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; the machine is shared with other sessions' processes.`,
    "",
    `| measure | ${SPACES} spaces (${pages.toLocaleString("en")} pages) | baseline: 1 space (${SPACE_PAGES.toLocaleString("en")} pages) | ratio | target |`,
    "| --- | ---: | ---: | ---: | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "<!-- store-server:end -->",
  ].join("\n");
  process.stdout.write(`${text}\n`);
  if (WRITE) {
    const file = join(ROOT, "BENCHMARKS.md");
    const current = existsSync(file) ? readFileSync(file, "utf8") : "";
    const at = current.indexOf("<!-- store-server:start -->");
    const end = current.indexOf("<!-- store-server:end -->");
    const anchor = current.indexOf("<!-- store-large-10000:start -->");
    const next =
      at >= 0 && end > at
        ? current.slice(0, at) + text + current.slice(end + "<!-- store-server:end -->".length)
        : anchor >= 0
          ? `${current.slice(0, anchor)}${text}\n${current.slice(anchor)}`
          : `${current.trimEnd()}\n\n${text}\n`;
    writeFileSync(file, next);
  }
}

runBench("store-server", WATCHDOG_MS, main);
