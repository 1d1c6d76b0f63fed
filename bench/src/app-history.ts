// App history bench: the first (cold) load of a space's history page (`/s/{space}/~/history[?at=…]`, 20
// revisions a page) on a space of 3,000 pages, through the gateway with a session cookie, embedded. The app
// keeps revision summaries once read, so each cold sample starts from a revision whose 20 rows nobody read yet
// (windows of 20 revisions, newest to oldest); then the same pages again (kept). Prints a markdown table; it
// writes nothing. Run it on two builds to compare (e.g. before and after content.revisionLog).
//
//   npm run build && node bench/dist/app-history.js
//
// Env (optional, bounded): BENCH_PAGES (3000), BENCH_BATCH (500), BENCH_HISTORY_WINDOWS (cold samples, 7).
// Everything listens on 127.0.0.1; every loop is bounded; children are killed on exit, error or signal.
import { http } from "./procs";
import { now, pct, r1 } from "./large-space";
import { appSignIn as signIn, largeEmbeddedSystem, reportSection } from "./page-bench";
import { bounded, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 3000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const WINDOWS = bounded("BENCH_HISTORY_WINDOWS", 7, 1, 20);
const PAGE_SIZE = 20;
const WATCHDOG_MS = 20 * 60_000;

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("app-history", PAGES, BATCH);
  try {
    const { base, adminToken, spaceId, json } = system;
    // Small edits on top of the large space: each is a revision of all its pages.
    const edits = WINDOWS * PAGE_SIZE;
    const revisions: string[] = [];
    const t0 = now();
    for (let i = 0; i < edits; i++) {
      const applied = await json("POST", `/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "insert_page", title: `Edit ${i}`, markdown: `Edit ${i}.` }] }, [201], 120_000);
      revisions.push(applied.revision as string);
    }
    process.stderr.write(`made ${edits} revisions in ${Math.round(now() - t0)} ms\n`);
    const cookie = { cookie: await signIn(base, adminToken) };
    // Newest first: window w starts at the (w * 20)th newest revision (the first without `at`).
    const newestFirst = [...revisions].reverse();
    const urls = Array.from({ length: WINDOWS }, (_, w) => `${base}/s/${spaceId}/~/history${w === 0 ? "" : `?at=${newestFirst[w * PAGE_SIZE]}`}`);
    const time = async (url: string): Promise<number> => {
      const t = now();
      const res = await http("GET", url, cookie, undefined, 120_000);
      const ms = now() - t;
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
      const rows = (res.body.toString().match(/name="from"/g) ?? []).length;
      if (rows < PAGE_SIZE) process.stderr.write(`${url}: ${rows} rows\n`);
      return ms;
    };
    const cold: number[] = [];
    for (const url of urls) cold.push(await time(url));
    const kept: number[] = [];
    for (const url of urls) kept.push(await time(url));
    process.stderr.write(`cold: ${cold.map((x) => Math.round(x)).join(", ")} ms\nkept: ${kept.map((x) => r1(x)).join(", ")} ms\n`);
    reportSection(
      "app-history",
      "### App history page, first load",
      "node bench/dist/app-history.js",
      [
        `the embedded system (\`NODE_ENV=test\`, its own temp \`DATA_DIR\`), one space of ${PAGES} pages and ${edits} more revisions`,
        `(one small page each), signed in to the app; ${WINDOWS} history pages of ${PAGE_SIZE} revisions, each read first cold`,
        "(rows nobody read before), then again (kept), one at a time from the bench process on 127.0.0.1.",
      ],
      [
        [`first load of a history page (20 rows), median of ${WINDOWS} (min / max)`, `${Math.round(pct(cold, 50))} ms (${Math.round(Math.min(...cold))} / ${Math.round(Math.max(...cold))})`, "–"],
        [`the same page again, median of ${WINDOWS}`, `${r1(pct(kept, 50))} ms`, "–"],
      ],
      false,
    );
  } finally {
    await system.stop();
  }
}

runBench("app-history", WATCHDOG_MS, main);
