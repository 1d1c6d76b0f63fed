// Published site bench (issue 8): a public site over the 10,000-page space of large-space.ts, embedded, then
// warm GETs of its pages at /sites/{basename}/{path}, one at a time. Target: warm p50 ≤ 20 ms. Beside it, the
// bare moleculer-web floor (floor.js) answering the same HTML, so the framework's share is visible.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `site-serve` markers inside the notes (kept across `npm run bench` reruns).
//
//   npm run build && node bench/dist/site-serve.js      (or: npm run bench:site -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_PAGES (10000), BENCH_BATCH (500), BENCH_SITE_PAGES (distinct pages read, 200),
// BENCH_SITE_RUNS (measured requests, 2000), BENCH_WRITE (0: do not touch BENCHMARKS.md).
// Everything listens on 127.0.0.1; every loop is bounded; children are killed on exit, error or signal.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, isRunning, startChild, waitUntil, type Child } from "./procs";
import { insertLargeSpace, now, pct, r1, rnd } from "./large-space";
import { bounded, FLOOR, MAIN, ROOT, START_DEADLINE_MS, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 10_000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const DISTINCT = bounded("BENCH_SITE_PAGES", 200, 1, 10_000);
const RUNS = bounded("BENCH_SITE_RUNS", 2000, 10, 100_000);
const WRITE = process.env.BENCH_WRITE !== "0";
const WATCHDOG_MS = 15 * 60_000;
/** One decimal, always shown ("1.0 ms", not "1 ms"). */
const f1 = (x: number): string => r1(x).toFixed(1);
const MARK_START = "<!-- site-serve:start -->";
const MARK_END = "<!-- site-serve:end -->";
const NOTES_END = "<!-- notes:end -->";

interface TreePage {
  path: string;
  pages: TreePage[];
}

function paths(pages: TreePage[], out: string[]): string[] {
  for (const page of pages) {
    out.push(page.path);
    paths(page.pages, out);
  }
  return out;
}

/** Sequential GETs of `urls` (round robin), after one warm-up pass; latencies in ms. */
async function timeGets(urls: string[], runs: number, expect: number): Promise<number[]> {
  for (const url of urls) {
    const res = await http("GET", url);
    if (res.status !== expect) throw new Error(`GET ${url} answered ${res.status} in the warm-up: ${res.body.toString().slice(0, 300)}`);
  }
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const url = urls[i % urls.length];
    const t = now();
    const res = await http("GET", url);
    ms.push(now() - t);
    if (res.status !== expect) throw new Error(`GET ${url} answered ${res.status}`);
  }
  return ms;
}

/** Replaces (or adds, at the end of the notes) the section between the site-serve markers. */
function writeSection(section: string): string {
  const file = join(ROOT, "BENCHMARKS.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const block = `${MARK_START}\n${section}\n${MARK_END}`;
  const start = text.indexOf(MARK_START);
  const end = text.indexOf(MARK_END);
  let next: string;
  if (start >= 0 && end > start) next = `${text.slice(0, start)}${block}${text.slice(end + MARK_END.length)}`;
  else if (text.includes(NOTES_END)) next = text.replace(NOTES_END, `\n${block}\n${NOTES_END}`);
  else next = `${text}\n${block}\n`;
  writeFileSync(file, next);
  return file;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-bench-site-"));
  const floorDir = mkdtempSync(join(tmpdir(), "docshelf-bench-site-floor-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${adminToken}` };
  const children: Child[] = [];
  try {
    const proc = startChild("real (all services)", [MAIN], {
      ...process.env,
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOGLEVEL: "warn",
      NAMESPACE: `bench-site-${randomBytes(4).toString("hex")}`,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      MONGO_URL: "",
      SERVICES: "all",
      TRANSPORTER: "",
      RATE_LIMIT_PER_MINUTE: "10000000",
      SITE_RATE_LIMIT_PER_MINUTE: "10000000",
      JSON_BODY_LIMIT_BYTES: String(16 * 1024 * 1024),
      REQUEST_TIMEOUT_MS: "120000",
    });
    children.push(proc);
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, [proc]);
    const json = async (method: string, path: string, body?: unknown, expect = [200, 201], timeoutMs = 60_000) => {
      const res = await http(method, `${base}${path}`, headers, body, timeoutMs);
      if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
      return JSON.parse(res.body.toString() || "null") as Record<string, unknown>;
    };

    const orgId = (await json("POST", "/v1/orgs", { title: "Acme" })).id as string;
    const spaceId = (await json("POST", `/v1/orgs/${orgId}/spaces`, { title: "Large" })).id as string;
    const insertStart = now();
    const bytes = await insertLargeSpace((path, body) => json("POST", path, body, [201], 120_000), spaceId, PAGES, BATCH, () => {
      if (!isRunning(proc)) throw new Error(`the system exited:\n${proc.tail()}`);
    });
    const insertMs = now() - insertStart;
    const site = await json("POST", `/v1/orgs/${orgId}/sites`, { title: "Large docs", spaces: [spaceId] });
    await json("PATCH", `/v1/orgs/${orgId}/sites/${site.id as string}`, { basename: "large" });
    await json("POST", `/v1/orgs/${orgId}/sites/${site.id as string}/publish`);
    const tree = (await json("GET", `/v1/spaces/${spaceId}/content`)) as unknown as { pages: TreePage[] };
    const all = paths(tree.pages, []);
    if (all.length !== PAGES) throw new Error(`the space lists ${all.length} pages, expected ${PAGES}`);
    process.stderr.write(`inserted ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB markdown) in ${Math.round(insertMs)} ms; site published\n`);

    // The first request after publishing reads the 10,000-page tree and renders one page: the cold cost.
    let t = now();
    const first = await http("GET", `${base}/sites/large/${all[PAGES - 1]}`);
    const coldMs = now() - t;
    if (first.status !== 200) throw new Error(`the first page answered ${first.status}`);
    t = now();
    await http("GET", `${base}/sites/large/${all[PAGES - 2]}`);
    const secondMs = now() - t;

    const chosen = Array.from({ length: DISTINCT }, () => all[Math.floor(rnd() * all.length)]);
    const urls = chosen.map((path) => `${base}/sites/large/${path}`);
    const warm = await timeGets(urls, RUNS, 200);
    const sizes = await Promise.all(urls.slice(0, 20).map(async (url) => (await http("GET", url)).body.length));
    const avgBytes = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
    const withEtag = await (async () => {
      const res = await http("GET", urls[0]);
      const etag = String(res.headers.etag ?? "");
      const ms: number[] = [];
      for (let i = 0; i < Math.min(RUNS, 500); i++) {
        const s = now();
        const r = await http("GET", urls[0], { "If-None-Match": etag });
        ms.push(now() - s);
        if (r.status !== 304) throw new Error(`If-None-Match answered ${r.status}`);
      }
      return ms;
    })();

    // The floor: the same HTML from a bare moleculer-web action that does no work.
    const page = (await http("GET", urls[0])).body.toString();
    const bodyFile = join(floorDir, "page.json");
    writeFileSync(bodyFile, JSON.stringify({ html: page }));
    const floorPort = await freePort();
    const floor = startChild("floor (gateway + action)", [FLOOR], {
      ...process.env,
      FLOOR_ROLE: "all",
      FLOOR_BODY: bodyFile,
      PORT: String(floorPort),
      HOST: "127.0.0.1",
      TRANSPORTER: "",
      NAMESPACE: `bench-site-floor-${randomBytes(4).toString("hex")}`,
    });
    children.push(floor);
    const floorUrl = `http://127.0.0.1:${floorPort}/v1/spaces/x`;
    await waitUntil("the floor", async () => (await http("GET", floorUrl)).status === 200, START_DEADLINE_MS, [floor]);
    const floorMs = await timeGets([floorUrl], RUNS, 200);

    const p50 = pct(warm, 50);
    const rows: Array<[string, string, string]> = [
      [`warm \`GET /sites/{basename}/{path}\` p50 (${RUNS} sequential requests over ${DISTINCT} random pages, ~${Math.round(avgBytes / 1024)} KB of HTML each, after one warm-up pass)`, `${f1(p50)} ms`, `≤ 20 ms: ${p50 <= 20 ? "met" : "**not met**"}`],
      ["warm p95 / p99 of the same", `${f1(pct(warm, 95))} / ${f1(pct(warm, 99))} ms`, "–"],
      [`\`If-None-Match\` → 304 p50 (${Math.min(RUNS, 500)} requests)`, `${f1(pct(withEtag, 50))} ms`, "–"],
      ["first page after publishing (reads the 10,000-page tree, renders the page)", `${Math.round(coldMs)} ms`, "–"],
      ["second page (tree cached, page rendered)", `${f1(secondMs)} ms`, "–"],
      [`floor: bare moleculer-web answering the same HTML as JSON, p50 / p95 (${RUNS} requests)`, `${f1(pct(floorMs, 50))} / ${f1(pct(floorMs, 95))} ms`, "–"],
    ];
    const section = [
      `### Published site (issue 8)`,
      "",
      `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/site-serve.js\` (\`npm run bench:site -w @docshelf/bench\`): the embedded system`,
      `(\`NODE_ENV=test\`, its own temp \`DATA_DIR\`), one space of ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB of markdown, the large-space`,
      `builder of \`content-large.js\`: 1 % top-level pages, the rest their children), a public site over it published at`,
      "`/sites/large`, then GETs one at a time from the bench process (`node:http`, default agent) on 127.0.0.1.",
      `Node ${process.version}; the machine is shared (other sessions' processes were running).`,
      "",
      "| measure | value | target |",
      "| --- | ---: | --- |",
      ...rows.map(([m, v, target]) => `| ${m} | ${v} | ${target} |`),
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (WRITE) process.stdout.write(`wrote ${writeSection(section)}\n`);
  } finally {
    for (const child of children) await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
}

runBench("site-serve", WATCHDOG_MS, main);
