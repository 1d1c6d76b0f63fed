// Merge bench (issue 5): in a 10,000-page space, merging a change request that touches 50 pages
// (target ≤ 300 ms), and 20 change requests merged at once into the same space (target: all land, each
// as its own revision, every edit in main afterwards). Writes its section of BENCHMARKS.md (in the kept notes).
//
//   npm run build && node bench/dist/merge.js       (or npm run bench:merge -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_PAGES (10000), BENCH_BATCH (500), BENCH_MERGE_RUNS (5), BENCH_WRITE (0: print only).
// Everything listens on 127.0.0.1; every loop is bounded; the child is killed on exit, error or signal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, isRunning, startChild, stopAll, waitUntil, type Child } from "./procs";
import { insertLargeSpace, now, pct, r1, rnd } from "./large-space";
import { bounded, MAIN, ROOT, START_DEADLINE_MS, WRITE, runBench } from "./systems";
import { embeddedServerEnv } from "./page-bench";

const PAGES = bounded("BENCH_PAGES", 10_000, 60, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const RUNS = bounded("BENCH_MERGE_RUNS", 5, 1, 50);
const TOUCHED = 50;
const CONCURRENT = 20;
const TARGET_MS = 300;
const WATCHDOG_MS = 15 * 60_000;

type Json = Record<string, unknown>;

function pageIdsOf(node: unknown, out: string[]): string[] {
  const pages = (node as { pages?: unknown[] } | null)?.pages;
  if (!Array.isArray(pages)) return out;
  for (const page of pages) {
    const id = (page as { id?: unknown }).id;
    if (typeof id === "string") out.push(id);
    pageIdsOf(page, out);
  }
  return out;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-bench-merge-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${adminToken}` };
  let child: Child | undefined;
  try {
    child = startChild("real (all services)", [MAIN], embeddedServerEnv({ dataDir, adminToken, port, label: "merge" }, {
      JSON_BODY_LIMIT_BYTES: String(16 * 1024 * 1024),
      REQUEST_TIMEOUT_MS: "120000",
    }));
    const system = child;
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, [system]);
    const json = async (method: string, path: string, body?: unknown, expect = [200, 201]): Promise<Json> => {
      const res = await http(method, `${base}${path}`, headers, body, 120_000);
      if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
      return res.body.length ? (JSON.parse(res.body.toString()) as Json) : {};
    };

    const orgId = (await json("POST", "/v1/orgs", { title: "Acme" })).id as string;
    const spaceId = (await json("POST", `/v1/orgs/${orgId}/spaces`, { title: "Large" })).id as string;
    const crs = `/v1/spaces/${spaceId}/change-requests`;
    await insertLargeSpace((path, body) => json("POST", path, body, [201]), spaceId, PAGES, BATCH, () => {
      if (!isRunning(system)) throw new Error(`the system exited:\n${system.tail()}`);
    });
    const ids = pageIdsOf(await json("GET", `/v1/spaces/${spaceId}/content`), []);
    if (ids.length !== PAGES) throw new Error(`the space has ${ids.length} pages, expected ${PAGES}`);
    process.stderr.write(`inserted ${PAGES} pages\n`);

    /** A change request on main's current revision editing `pages` (one marker line each). */
    const changeRequest = async (pages: string[], marker: string): Promise<string> => {
      const id = (await json("POST", crs, { subject: marker })).id as string;
      const changes = pages.map((page) => ({ operation: "update_page", page, document: { markdown: `# Edited ${page}\n\n${marker}\n` } }));
      await json("POST", `${crs}/${id}/content`, { changes });
      return id;
    };

    // 1. One change request touching 50 pages, merged alone, RUNS times (a fresh one each time). Main
    // moves (another page edited) after the change request is made, so each merge is a real three-way
    // merge of the whole tree, not a fast-forward.
    const mergeMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const pages = new Set<string>();
      while (pages.size < TOUCHED + 1) pages.add(ids[Math.floor(rnd() * ids.length)]);
      const [elsewhere, ...touched] = [...pages];
      const cr = await changeRequest(touched, `run-${run}`);
      await json("POST", `/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "update_page", page: elsewhere, markdown: `# Main moved ${run}\n` }] }, [201]);
      const t = now();
      const answer = await json("POST", `${crs}/${cr}/merge`);
      mergeMs.push(now() - t);
      if (answer.result !== "merge") throw new Error(`merge ${run} answered ${JSON.stringify(answer)}`);
    }

    // 2. CONCURRENT change requests, each touching its own page, merged at the same moment.
    const chosen = ids.slice(-CONCURRENT);
    const concurrent = await Promise.all(chosen.map((page, i) => changeRequest([page], `together-${i}`)));
    const started = now();
    const answers = await Promise.all(concurrent.map((cr) => json("POST", `${crs}/${cr}/merge`)));
    const togetherMs = now() - started;
    const merged = answers.filter((a) => a.result === "merge").length;
    const revisions = new Set<string>();
    for (const cr of concurrent) {
      const got = await json("GET", `${crs}/${cr}`);
      if (got.status === "merged" && typeof got.revisionMerged === "string") revisions.add(got.revisionMerged);
    }
    let present = 0;
    for (const [i, page] of chosen.entries()) {
      const body = await json("GET", `/v1/spaces/${spaceId}/content/page/${encodeURIComponent(page)}`);
      if (String(body.markdown ?? "").includes(`together-${i}`)) present++;
    }

    const p50 = r1(pct(mergeMs, 50));
    const lines = [
      `### Merges (issue 5)`,
      ``,
      `\`node bench/dist/merge.js\` (${new Date().toISOString().slice(0, 16)}Z, embedded, one process, ${PAGES.toLocaleString("en")} pages): a`,
      `change request touching ${TOUCHED} pages merged alone, ${RUNS} times, each a fresh change request after which main moved`,
      `(another page edited), so every merge is a three-way merge of the whole tree, not a fast-forward;`,
      `then ${CONCURRENT} change requests (one page each) merged at the same moment.`,
      ``,
      `| measure | value | target | met |`,
      `| --- | ---: | ---: | --- |`,
      `| merge of ${TOUCHED} pages, p50 | ${p50} ms | ≤ ${TARGET_MS} ms | ${p50 <= TARGET_MS ? "yes" : "**no**"} |`,
      `| merge of ${TOUCHED} pages, max | ${r1(Math.max(...mergeMs))} ms | | |`,
      `| ${CONCURRENT} concurrent merges: merged | ${merged} / ${CONCURRENT} | all | ${merged === CONCURRENT ? "yes" : "**no**"} |`,
      `| … each its own revision | ${revisions.size} distinct | ${CONCURRENT} | ${revisions.size === CONCURRENT ? "yes" : "**no**"} |`,
      `| … every edit in main afterwards | ${present} / ${CONCURRENT} | all | ${present === CONCURRENT ? "yes" : "**no**"} |`,
      `| … wall time for all ${CONCURRENT} | ${Math.round(togetherMs)} ms | | |`,
      ``,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    if (WRITE) {
      const file = join(ROOT, "BENCHMARKS.md");
      const text = readFileSync(file, "utf8");
      const section = `<!-- merge:start -->\n${lines.join("\n")}<!-- merge:end -->`;
      const start = text.indexOf("<!-- merge:start -->");
      const end = text.indexOf("<!-- merge:end -->");
      const next =
        start >= 0 && end > start
          ? `${text.slice(0, start)}${section}${text.slice(end + "<!-- merge:end -->".length)}`
          : text.replace("<!-- notes:end -->", `${section}\n\n<!-- notes:end -->`);
      writeFileSync(file, next);
      process.stderr.write("wrote BENCHMARKS.md\n");
    }
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench("merge bench", WATCHDOG_MS, main);
