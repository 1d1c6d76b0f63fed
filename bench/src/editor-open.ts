// Block editor open bench (issue 38): how long a 500-block page takes to open in the block editor, from
// navigation to an editable editor (the script's `data-ready`), in headless Chromium, against the same
// page's read view (server-rendered, no script) loaded in the same run. Target: ≤ 1 s.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `editor-open` markers inside the notes.
//
//   npm run build && node bench/dist/editor-open.js      (or: npm run bench:editor-open -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_EDITOR_BLOCKS (500), BENCH_EDITOR_OPENS (opens of each page, alternating, 10),
// CHROMIUM_PATH (/usr/bin/chromium), BENCH_WRITE (0: do not touch BENCHMARKS.md).
import { chromium } from "playwright-core";
import { markdownToDocument } from "@docshelf/document";
import { pct } from "./large-space";
import { appSignIn, largeEmbeddedSystem, pageMarkdown, reportSection } from "./page-bench";
import { bounded, runBench, WRITE } from "./systems";

const BLOCKS = bounded("BENCH_EDITOR_BLOCKS", 500, 10, 5000);
const OPENS = bounded("BENCH_EDITOR_OPENS", 10, 1, 100);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const WATCHDOG_MS = 10 * 60_000;
const TARGET_MS = 1000;

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("editor-open", 1, 1);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const { base, adminToken, json, spaceId, paths } = system;
    const cookie = await appSignIn(base, adminToken);
    const cr = (await json("POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Editor open bench" })) as { number: number };
    const pageUrl = `${base}/s/${spaceId}/~/changes/${cr.number}/${paths[0]}`;
    const editor = await fetch(`${pageUrl}?edit=blocks`, { headers: { cookie } });
    const csrf = /data-csrf="([^"]+)"/.exec(await editor.text())?.[1];
    if (!csrf) throw new Error(`the editor's page answered ${editor.status}`);
    const document = markdownToDocument(pageMarkdown(BLOCKS, 1));
    const saved = await fetch(pageUrl, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, intent: "save-document", document: JSON.stringify(document) }).toString(),
    });
    if (saved.status !== 200) throw new Error(`saving the page answered ${saved.status}`);

    const context = await browser.newContext();
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: base }]);
    // Requests anywhere else are refused: nothing leaves the machine.
    await context.route((url) => url.origin !== new URL(base).origin, (route) => route.fulfill({ status: 404, body: "" }));
    const editorMs: number[] = [];
    const readMs: number[] = [];
    const open = async (kind: "editor" | "read") => {
      const page = await context.newPage();
      if (kind === "editor") {
        await page.goto(`${pageUrl}?edit=blocks`);
        await page.waitForSelector('#editor-app[data-ready="true"] .ProseMirror[contenteditable="true"]');
        // Milliseconds since the navigation started, read once the editor is editable.
        editorMs.push((await page.evaluate("performance.now()")) as number);
      } else {
        await page.goto(pageUrl, { waitUntil: "load" });
        readMs.push((await page.evaluate("performance.now()")) as number);
      }
      await page.close();
    };
    // One of each to warm the caches (the assets, the server's paths), then alternating.
    await open("editor");
    await open("read");
    editorMs.length = readMs.length = 0;
    for (let i = 0; i < OPENS; i++) {
      for (const kind of i % 2 === 0 ? (["editor", "read"] as const) : (["read", "editor"] as const)) await open(kind);
    }
    const p50 = pct(editorMs, 50);
    const f0 = (x: number) => String(Math.round(x));
    const rows: Array<[string, string, string]> = [
      [`open in the block editor, navigation to editable, p50 (${OPENS} opens, ${document.nodes.length} blocks)`, `${f0(p50)} ms`, `≤ ${TARGET_MS} ms: ${p50 <= TARGET_MS ? "met" : "**not met**"}`],
      ["p90 of the same", `${f0(pct(editorMs, 90))} ms`, "–"],
      ["baseline: the same page's read view (server-rendered, no script), navigation to load, p50", `${f0(pct(readMs, 50))} ms`, "–"],
      ["ratio editor / read view (p50)", (p50 / pct(readMs, 50)).toFixed(2), "–"],
    ];
    reportSection(
      "editor-open",
      "### Block editor open (issue 38)",
      "npm run bench:editor-open -w @docshelf/bench",
      [
        "the embedded",
        "system, a change request's page of mixed blocks (headings, paragraphs with marks and links, lists, hints, code, quotes) saved through",
        "the editor's save; headless Chromium (Debian's) with the session cookie, a new tab per open, the editor's assets cached after the",
        "first open (as a writer's browser has them); the time is the page's `performance.now()` once the editor is editable. The baseline is",
        "the same page's read view in the same run, opens alternating.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await browser.close();
    await system.stop();
  }
}

runBench("editor-open", WATCHDOG_MS, main);
