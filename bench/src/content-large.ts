// Large space bench (issue 4): a space of 10,000 pages (~20 MB of markdown) in the real system, then
// GET …/content, GET …/content/page/{id}, search, duplicate, and the system process's RSS after all of it.
// Targets: content p50 ≤ 150 ms, page p50 ≤ 10 ms, search p50 ≤ 30 ms (after one warm-up search),
// duplicate ≤ 2 s, RSS ≤ 500 MB. Search is measured twice: common words (every page matches) and selective
// queries (a page number, a few pages match). Prints a markdown table; exits 0 even when a target is missed.
//
//   npm run build && node bench/dist/content-large.js
//
// Env (optional, bounded): BENCH_PAGES (10000), BENCH_BATCH (pages per insert batch, 500), BENCH_LARGE_MODE
// (`embedded`, the default: every service in one process; `nats`: the gateway, content and the other services in
// three processes over NATS_URL, default nats://127.0.0.1:4222, loopback only; RSS is then the content process's).
// Everything listens on 127.0.0.1; every loop is bounded; the children are killed on exit, error or signal.
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { ALL_SERVICES } from "@docshelf/config";
import { cpuTimeMs, freePort, http, isLoopback, natsReachable, startChild, waitUntil, isRunning, type Child } from "./procs";
import { insertLargeSpace, now, pct, r1, rnd, word } from "./large-space";
import { bounded, dropNamespaceStreams, MAIN, NATS_URL, START_DEADLINE_MS, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 10_000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const CONTENT_RUNS = 20;
const PAGE_RUNS = 200;
const SEARCH_RUNS = 50;
const WATCHDOG_MS = 15 * 60_000;
const MODE = process.env.BENCH_LARGE_MODE === "nats" ? "nats" : "embedded";
/** Services per process: all in one, or the gateway and content apart (their streamed answers cross NATS). */
const GROUPS: string[][] =
  MODE === "nats" ? [["gateway"], ["content"], ALL_SERVICES.filter((name) => name !== "gateway" && name !== "content")] : [["all"]];

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

function walkPages(node: unknown, out: string[]): void {
  if (!node || typeof node !== "object") return;
  const pages = (node as { pages?: unknown[] }).pages;
  if (!Array.isArray(pages)) return;
  for (const p of pages) {
    const id = (p as { id?: unknown }).id;
    if (typeof id === "string") out.push(id);
    walkPages(p, out);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-bench-large-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${adminToken}` };
  const namespace = `bench-large-${randomBytes(4).toString("hex")}`;
  const children: Child[] = [];
  try {
    if (MODE === "nats" && (!isLoopback(new URL(NATS_URL).hostname) || !(await natsReachable(NATS_URL)))) {
      throw new Error(`BENCH_LARGE_MODE=nats needs a NATS server on the loopback at NATS_URL (${NATS_URL})`);
    }
    const startAll = () =>
      GROUPS.map((group, i) =>
        startChild(`real (${group.join(", ")})`, [MAIN], {
          ...process.env,
          NODE_ENV: "test",
          DATA_DIR: dataDir,
          ADMIN_TOKEN: adminToken,
          LOGLEVEL: "warn",
          NAMESPACE: namespace,
          NODE_ID: `${namespace}-${i}`,
          HOST: "127.0.0.1",
          PORT: String(port),
          PUBLIC_URL: base,
          MONGO_URL: "",
          SERVICES: group.join(","),
          TRANSPORTER: MODE === "nats" ? NATS_URL : "",
          RATE_LIMIT_PER_MINUTE: "10000000",
          JSON_BODY_LIMIT_BYTES: String(16 * 1024 * 1024),
          REQUEST_TIMEOUT_MS: "120000",
        }),
      );
    children.push(...startAll());
    // The process holding the content service (embedded: everything): its RSS is the one reported.
    const proc = children[MODE === "nats" ? 1 : 0];
    /** CPU used so far by the processes answering GET …/content (gateway and content), in ms. */
    const servingCpuMs = () => children.slice(0, 2).reduce((sum, child) => sum + cpuTimeMs(child.proc.pid), 0);
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, children);

    const json = async (method: string, path: string, body?: unknown, expect = [200, 201], timeoutMs = 60_000) => {
      const res = await http(method, `${base}${path}`, headers, body, timeoutMs);
      if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
      return res;
    };
    const orgId = (JSON.parse((await json("POST", "/v1/orgs", { title: "Acme" })).body.toString()) as { id: string }).id;
    const spaceId = (JSON.parse((await json("POST", `/v1/orgs/${orgId}/spaces`, { title: "Large" })).body.toString()) as { id: string }).id;

    // 1 % of the pages are sections at the top level, the rest their children (large-space.ts).
    const insertStart = now();
    const bytes = await insertLargeSpace((path, body) => json("POST", path, body, [201], 120_000), spaceId, PAGES, BATCH, () => {
      const exited = children.find((child) => !isRunning(child));
      if (exited) throw new Error(`the system exited:\n${exited.tail()}`);
    });
    const insertMs = now() - insertStart;
    process.stderr.write(`inserted ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB markdown) in ${Math.round(insertMs)} ms\n`);

    // GET …/content
    const contentMs: number[] = [];
    let contentBytes = 0;
    let pageIds: string[] = [];
    const contentCpuStart = servingCpuMs();
    for (let i = 0; i < CONTENT_RUNS; i++) {
      const t = now();
      const res = await json("GET", `/v1/spaces/${spaceId}/content`);
      contentMs.push(now() - t);
      if (i === 0) {
        contentBytes = res.body.length;
        walkPages(JSON.parse(res.body.toString()), pageIds);
      }
    }
    const contentCpuMs = (servingCpuMs() - contentCpuStart) / CONTENT_RUNS;
    if (pageIds.length !== PAGES) throw new Error(`GET …/content lists ${pageIds.length} pages, expected ${PAGES}`);

    // GET …/content/page/{id} over random pages
    const pageMs: number[] = [];
    for (let i = 0; i < PAGE_RUNS; i++) {
      const id = pageIds[Math.floor(rnd() * pageIds.length)];
      const t = now();
      await json("GET", `/v1/spaces/${spaceId}/content/page/${encodeURIComponent(id)}`);
      pageMs.push(now() - t);
    }
    const somePage = pageIds[0];
    pageIds = [];
    const rssBeforeSearch = rssMb(proc.proc.pid);

    // Search: one warm-up (builds the index), then SEARCH_RUNS queries.
    let t = now();
    await json("GET", `/v1/spaces/${spaceId}/search?query=install`, undefined, [200], 120_000);
    const warmupMs = now() - t;
    const searchMs: number[] = [];
    let hits = 0;
    for (let i = 0; i < SEARCH_RUNS; i++) {
      const q = i % 2 ? `${word()} ${word()}` : word();
      t = now();
      const res = await json("GET", `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(q)}`);
      searchMs.push(now() - t);
      const items = (JSON.parse(res.body.toString()) as { items?: unknown[] }).items;
      if (Array.isArray(items) && items.length) hits++;
    }
    // Selective queries: a page number, found in a few pages' titles and headings only.
    const rareMs: number[] = [];
    let rareHits = 0;
    for (let i = 0; i < SEARCH_RUNS; i++) {
      const q = String(Math.floor(rnd() * PAGES));
      t = now();
      const res = await json("GET", `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(q)}`);
      rareMs.push(now() - t);
      const items = (JSON.parse(res.body.toString()) as { items?: unknown[] }).items;
      if (Array.isArray(items) && items.length) rareHits++;
    }

    // Duplicate
    t = now();
    await json("POST", `/v1/spaces/${spaceId}/duplicate`, undefined, [200, 201], 120_000);
    const duplicateMs = now() - t;

    const rss = rssMb(proc.proc.pid);

    // A restart on the same DATA_DIR (two spaces of PAGES pages now): time to /ready, then the first page read.
    await Promise.all(children.splice(0).map((child) => child.stop()));
    t = now();
    children.push(...startAll());
    await waitUntil("/ready after a restart", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, children);
    const restartMs = now() - t;
    t = now();
    await json("GET", `/v1/spaces/${spaceId}/content/page/${encodeURIComponent(somePage)}`);
    const firstPageAfterRestartMs = now() - t;

    const rows: Array<[string, string, string, boolean]> = [
      [`GET /v1/spaces/{id}/content p50 (${CONTENT_RUNS} requests, ${(contentBytes / 1e6).toFixed(1)} MB body; p95 ${r1(pct(contentMs, 95))} ms)`, `${r1(pct(contentMs, 50))} ms`, "≤ 150 ms", pct(contentMs, 50) <= 150],
      [`GET /v1/spaces/{id}/content/page/{pageId} p50 (${PAGE_RUNS} random pages; p95 ${r1(pct(pageMs, 95))} ms)`, `${r1(pct(pageMs, 50))} ms`, "≤ 10 ms", pct(pageMs, 50) <= 10],
      [`GET /v1/spaces/{id}/search p50, common words (${SEARCH_RUNS} queries of 1–2 words from the 100-word vocabulary every page is written in, ${hits} with results, after one warm-up of ${Math.round(warmupMs)} ms; p95 ${r1(pct(searchMs, 95))} ms)`, `${r1(pct(searchMs, 50))} ms`, "≤ 30 ms", pct(searchMs, 50) <= 30],
      [`GET /v1/spaces/{id}/search p50, selective queries (${SEARCH_RUNS} page numbers, ${rareHits} with results; p95 ${r1(pct(rareMs, 95))} ms)`, `${r1(pct(rareMs, 50))} ms`, "≤ 30 ms", pct(rareMs, 50) <= 30],
      ["POST /v1/spaces/{id}/duplicate", `${Math.round(duplicateMs)} ms`, "≤ 2000 ms", duplicateMs <= 2000],
      [`(for reference) CPU per GET …/content request, ${MODE === "nats" ? "gateway and content processes" : "the system process"} (user + system)`, `${r1(contentCpuMs)} ms`, "–", true],
      [`RSS of the ${MODE === "nats" ? "content" : "system"} process after all of the above (VmRSS)`, `${rss} MB`, "≤ 500 MB", rss <= 500],
      ["(for reference) RSS after inserts, content and page reads, before the first search", `${rssBeforeSearch} MB`, "–", true],
      [`restart on the same DATA_DIR to /ready (${2 * PAGES} pages with the duplicate)`, `${Math.round(restartMs)} ms`, "≤ 3000 ms", restartMs <= 3000],
      ["(for reference) first page read after the restart", `${r1(firstPageAfterRestartMs)} ms`, "–", true],
    ];
    const out = [
      `Large space bench: ${PAGES} pages, ${(bytes / 1e6).toFixed(1)} MB of markdown (inserted in batches of ${BATCH} through POST /v1/_test/spaces/{id}/changes in ${(insertMs / 1000).toFixed(1)} s), ${MODE === "nats" ? "over NATS (gateway, content, the other services: 3 processes)" : "embedded"}, node ${process.version}`,
      "",
      "| measure | value | target | met |",
      "| --- | ---: | ---: | --- |",
      ...rows.map(([m, v, target, met]) => `| ${m} | ${v} | ${target} | ${target === "–" ? "–" : met ? "yes" : "**no**"} |`),
    ];
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    if (MODE === "nats") await dropNamespaceStreams(namespace);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench("content-large", WATCHDOG_MS, main);
