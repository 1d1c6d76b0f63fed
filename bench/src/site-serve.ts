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
import { http } from "./procs";
import { now, pct, r1, rnd, WORDS } from "./large-space";
import { largeEmbeddedSystem, timeGets, timeHtmlFloor, reportSection } from "./page-bench";
import { bounded, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 10_000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const DISTINCT = bounded("BENCH_SITE_PAGES", 200, 1, 10_000);
const RUNS = bounded("BENCH_SITE_RUNS", 2000, 10, 100_000);
const WRITE = process.env.BENCH_WRITE !== "0";
const WATCHDOG_MS = 15 * 60_000;
/** One decimal, always shown ("1.0 ms", not "1 ms"). */
const f1 = (x: number): string => r1(x).toFixed(1);

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("site", PAGES, BATCH);
  try {
    const { base, json, orgId, spaceId, paths: all, bytes } = system;
    const site = await json("POST", `/v1/orgs/${orgId}/sites`, { title: "Large docs", spaces: [spaceId] });
    await json("PATCH", `/v1/orgs/${orgId}/sites/${site.id as string}`, { basename: "large" });
    await json("POST", `/v1/orgs/${orgId}/sites/${site.id as string}/publish`);

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
    // The same pages as Markdown for AI tools (issue 37): `{path}.md`, after its own warm-up pass.
    const mdUrls = chosen.map((path) => `${base}/sites/large/${path}.md`);
    const md = await http("GET", mdUrls[0]);
    if (md.status !== 200 || !String(md.headers["content-type"]).startsWith("text/markdown")) throw new Error(`the .md page answered ${md.status}`);
    const warmMd = await timeGets(mdUrls, RUNS, 200);
    // Search as you type (issue 41): the search box's `~search.json?q=` against the search page `~search?q=` over
    // the same queries (a word, a typed prefix, two words), in the same run.
    const SEARCH_RUNS = Math.max(10, Math.round(RUNS / 4));
    const queries = Array.from({ length: 40 }, (_, i) => {
      const word = WORDS[Math.floor(rnd() * WORDS.length)];
      return i % 3 === 0 ? word.slice(0, Math.max(3, word.length - 2)) : i % 3 === 1 ? word : `${word} ${WORDS[Math.floor(rnd() * WORDS.length)]}`;
    });
    const searchPage = await timeGets(queries.map((q) => `${base}/sites/large/~search?q=${encodeURIComponent(q)}`), SEARCH_RUNS, 200);
    const searchJson = await timeGets(queries.map((q) => `${base}/sites/large/~search.json?q=${encodeURIComponent(q)}`), SEARCH_RUNS, 200);
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
    const floorMs = await timeHtmlFloor(system, "site", (await http("GET", urls[0])).body.toString(), RUNS);

    const p50 = pct(warm, 50);
    const rows: Array<[string, string, string]> = [
      [`warm \`GET /sites/{basename}/{path}\` p50 (${RUNS} sequential requests over ${DISTINCT} random pages, ~${Math.round(avgBytes / 1024)} KB of HTML each, after one warm-up pass)`, `${f1(p50)} ms`, `≤ 20 ms: ${p50 <= 20 ? "met" : "**not met**"}`],
      ["warm p95 / p99 of the same", `${f1(pct(warm, 95))} / ${f1(pct(warm, 99))} ms`, "–"],
      [`warm \`GET /sites/{basename}/{path}.md\` p50 / p95 (the same pages as Markdown, issue 37)`, `${f1(pct(warmMd, 50))} / ${f1(pct(warmMd, 95))} ms`, `≤ the HTML page's p50: ${pct(warmMd, 50) <= p50 ? "met" : "**not met**"}`],
      [`search as you type: \`GET …/~search.json?q=\` p50 / p95 (${SEARCH_RUNS} requests over 40 queries: words, typed prefixes, two words; issue 41)`, `${f1(pct(searchJson, 50))} / ${f1(pct(searchJson, 95))} ms`, `≤ the search page's p50 (${f1(pct(searchPage, 50))} ms, same queries, same run): ${pct(searchJson, 50) <= pct(searchPage, 50) ? "met" : "**not met**"} (${(pct(searchJson, 50) / pct(searchPage, 50)).toFixed(2)}×)`],
      [`\`If-None-Match\` → 304 p50 (${Math.min(RUNS, 500)} requests)`, `${f1(pct(withEtag, 50))} ms`, "–"],
      ["first page after publishing (reads the 10,000-page tree, renders the page)", `${Math.round(coldMs)} ms`, "–"],
      ["second page (tree cached, page rendered)", `${f1(secondMs)} ms`, "–"],
      [`floor: bare moleculer-web answering the same HTML as JSON, p50 / p95 (${RUNS} requests)`, `${f1(pct(floorMs, 50))} / ${f1(pct(floorMs, 95))} ms`, "–"],
    ];
    reportSection(
      "site-serve",
      `### Published site (issue 8)`,
      "npm run bench:site -w @docshelf/bench",
      [
        "the embedded system",
        `(\`NODE_ENV=test\`, its own temp \`DATA_DIR\`), one space of ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB of markdown, the large-space`,
        `builder of \`content-large.js\`: 1 % top-level pages, the rest their children), a public site over it published at`,
        "`/sites/large`, then GETs one at a time from the bench process (`node:http`, default agent) on 127.0.0.1.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await system.stop();
  }
}


runBench("site-serve", WATCHDOG_MS, main);
