// App render bench (issue 29): server-side render time of an app page of a 10,000-page space, through the
// gateway with a session cookie, embedded. Target: warm p50 ≤ 20 ms. Beside it, the bare moleculer-web floor
// (floor.js) answering the same HTML in the same run, so the framework's share is visible.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `app-render` markers inside the notes (the other sections are kept).
//
//   npm run build && node bench/dist/app-render.js      (or: npm run bench:app -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_PAGES (10000), BENCH_BATCH (500), BENCH_APP_PAGES (distinct pages read, 200),
// BENCH_APP_RUNS (measured requests, 2000), BENCH_WRITE (0: do not touch BENCHMARKS.md).
// Everything listens on 127.0.0.1; every loop is bounded; children are killed on exit, error or signal.
import { http } from "./procs";
import { now, pct, r1, rnd } from "./large-space";
import { appSignIn as signIn, largeEmbeddedSystem, timeGets, timeHtmlFloor, reportSection } from "./page-bench";
import { bounded, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 10_000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const DISTINCT = bounded("BENCH_APP_PAGES", 200, 1, 10_000);
const RUNS = bounded("BENCH_APP_RUNS", 2000, 10, 100_000);
const WRITE = process.env.BENCH_WRITE !== "0";
const WATCHDOG_MS = 15 * 60_000;
/** One decimal, always shown ("1.0 ms", not "1 ms"). */
const f1 = (x: number): string => r1(x).toFixed(1);

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("app", PAGES, BATCH);
  try {
    const { base, adminToken, spaceId, paths: all, bytes } = system;
    const cookie = { cookie: await signIn(base, adminToken) };
    // The first page reads the 10,000-page tree (kept by the app afterwards) and renders one page: the cold cost.
    let t = now();
    const first = await http("GET", `${base}/s/${spaceId}/${all[PAGES - 1]}`, cookie, undefined, 120_000);
    const coldMs = now() - t;
    if (first.status !== 200) throw new Error(`the first page answered ${first.status}: ${first.body.toString().slice(0, 300)}`);
    t = now();
    await http("GET", `${base}/s/${spaceId}/${all[PAGES - 2]}`, cookie);
    const secondMs = now() - t;

    const chosen = Array.from({ length: DISTINCT }, () => all[Math.floor(rnd() * all.length)]);
    const urls = chosen.map((path) => `${base}/s/${spaceId}/${path}`);
    const warm = await timeGets(urls, RUNS, 200, cookie);
    const sizes = await Promise.all(urls.slice(0, 20).map(async (url) => (await http("GET", url, cookie)).body.length));
    const avgBytes = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);

    // The floor: the same HTML from a bare moleculer-web action that does no work.
    const floorMs = await timeHtmlFloor(system, "app", (await http("GET", urls[0], cookie)).body.toString(), RUNS);

    const p50 = pct(warm, 50);
    const rows: Array<[string, string, string]> = [
      [`warm \`GET /s/{space}/{path}\` with a session cookie, p50 (${RUNS} sequential requests over ${DISTINCT} random pages, ~${Math.round(avgBytes / 1024)} KB of HTML each, after one warm-up pass)`, `${f1(p50)} ms`, `≤ 20 ms: ${p50 <= 20 ? "met" : "**not met**"}`],
      ["warm p90 / p99 of the same", `${f1(pct(warm, 90))} / ${f1(pct(warm, 99))} ms`, "–"],
      ["first page after signing in (reads the 10,000-page tree, renders the page)", `${Math.round(coldMs)} ms`, "–"],
      ["second page (tree kept, page rendered)", `${f1(secondMs)} ms`, "–"],
      [`floor: bare moleculer-web answering the same HTML as JSON, p50 / p90 (${RUNS} requests)`, `${f1(pct(floorMs, 50))} / ${f1(pct(floorMs, 90))} ms`, "–"],
    ];
    reportSection(
      "app-render",
      `### App page render (issue 29)`,
      "npm run bench:app -w @docshelf/bench",
      [
        "the embedded system",
        `(\`NODE_ENV=test\`, its own temp \`DATA_DIR\`), one space of ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB of markdown, the large-space`,
        "builder of `content-large.js`), signed in to the app through its sign-in form with an API token, then GETs of",
        "the space's pages (`/s/{space}/{path}`: session and token check, space, tree, page, comments, change requests, render)",
        "one at a time with the session cookie from the bench process (`node:http`, default agent) on 127.0.0.1.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await system.stop();
  }
}


runBench("app-render", WATCHDOG_MS, main);
