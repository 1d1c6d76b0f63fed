// Live collaboration bench (issue 38): how long a keystroke typed in one browser's block editor takes to show
// in another browser's editor of the same page, through the gateway's WebSocket relay, in headless Chromium,
// against a baseline of the same run: one HTTP round trip (`fetch` of the app's stylesheet, no-store) from the
// receiving page to the same gateway. Target: p50 ≤ 100 ms.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `editor-collab` markers inside the notes.
//
//   npm run build && node bench/dist/editor-collab.js      (or: npm run bench:editor-collab -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_COLLAB_KEYS (timed keystrokes, 40), CHROMIUM_PATH (/usr/bin/chromium),
// BENCH_WRITE (0: do not touch BENCHMARKS.md).
import { chromium, type Page } from "playwright-core";
import { pct } from "./large-space";
import { appSignIn, largeEmbeddedSystem, reportSection } from "./page-bench";
import { bounded, runBench, WRITE } from "./systems";

const KEYS = bounded("BENCH_COLLAB_KEYS", 40, 5, 500);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const WATCHDOG_MS = 10 * 60_000;
const TARGET_MS = 100;

/** In the typing page: remembers when the last key went down (epoch ms, the event's own time). */
const RECORD_KEYDOWN = `document.addEventListener("keydown", (e) => { window.__lastKeyAt = performance.timeOrigin + e.timeStamp; }, true); true`;
const LAST_KEY = "window.__lastKeyAt";
/** In the receiving page: a promise of the epoch ms at which `marker` first shows in the editor. */
const seen = (marker: string) => `new Promise((resolve) => {
  const root = document.querySelector(".editor-content");
  const check = () => { if (root.textContent.includes(${JSON.stringify(marker)})) { observer.disconnect(); resolve(performance.timeOrigin + performance.now()); } };
  const observer = new MutationObserver(check);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  check();
})`;
const ROUND_TRIP = `(async () => { const t = performance.now(); await fetch("/app/style.css", { cache: "no-store" }); return performance.now() - t; })()`;

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("editor-collab", 1, 1);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const { base, adminToken, json, spaceId, paths } = system;
    const cookie = await appSignIn(base, adminToken);
    const cr = (await json("POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Live editing bench" })) as { number: number };
    const pageUrl = `${base}/s/${spaceId}/~/changes/${cr.number}/${paths[0]}?edit=blocks`;
    const open = async (): Promise<Page> => {
      const context = await browser.newContext();
      const [name, value] = cookie.split("=");
      await context.addCookies([{ name, value, url: base }]);
      await context.route((url) => url.origin !== new URL(base).origin, (route) => route.fulfill({ status: 404, body: "" }));
      const page = await context.newPage();
      await page.goto(pageUrl);
      await page.waitForSelector('#editor-app[data-ready="true"][data-live="true"]');
      return page;
    };
    const typing = await open();
    const watching = await open();
    await typing.evaluate(RECORD_KEYDOWN);
    await typing.click(".editor-content");
    await typing.keyboard.press("Control+End");
    await typing.keyboard.press("Enter");
    const latency: number[] = [];
    const roundTrip: number[] = [];
    for (let i = -3; i < KEYS; i++) {
      // A marker ends with the timed key: "k{i}" is typed, then "q", whose keydown is the start.
      const marker = `k${i + 10}q`;
      await typing.keyboard.type(marker.slice(0, -1));
      const shown = watching.evaluate(seen(marker)) as Promise<number>;
      await typing.keyboard.press("q");
      const at = (await shown) - ((await typing.evaluate(LAST_KEY)) as number);
      await typing.keyboard.press("Space");
      const rt = (await watching.evaluate(ROUND_TRIP)) as number;
      // The first three warm the path (the relay's room, the script's code paths) and are not counted.
      if (i < 0) continue;
      latency.push(at);
      roundTrip.push(rt);
    }
    const p50 = pct(latency, 50);
    const base50 = pct(roundTrip, 50);
    const f1 = (x: number) => x.toFixed(1);
    const rows: Array<[string, string, string]> = [
      [`keystroke in one browser to the other browser's editor, p50 (${KEYS} keys)`, `${f1(p50)} ms`, `≤ ${TARGET_MS} ms: ${p50 <= TARGET_MS ? "met" : "**not met**"}`],
      ["p90 of the same", `${f1(pct(latency, 90))} ms`, "–"],
      ["baseline: one HTTP round trip from the receiving page to the gateway (the app's stylesheet, no-store), p50", `${f1(base50)} ms`, "–"],
      ["ratio keystroke / round trip (p50)", (p50 / base50).toFixed(2), "–"],
    ];
    reportSection(
      "editor-collab",
      "### Live collaboration: a keystroke to the other browser (issue 38)",
      "npm run bench:editor-collab -w @docshelf/bench",
      [
        "the embedded",
        "system (one process: the gateway's WebSocket relay in it), two headless Chromium contexts (Debian's) with the same session on",
        "the same page of a change request; the time runs from the keydown event of a key in the typing page to the moment a",
        "MutationObserver in the other page sees it in its editor (both pages' clocks are the machine's: `performance.timeOrigin`). The",
        "baseline is an HTTP round trip from the receiving page to the same gateway, right after each key, in the same run.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await browser.close();
    await system.stop();
  }
}

runBench("editor-collab", WATCHDOG_MS, main);
