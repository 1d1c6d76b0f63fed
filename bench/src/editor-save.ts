// Block editor save bench (issue 38): the server's CPU per save of a 500-block page from the block editor
// (`intent: save-document`, the page's GitBook JSON document) against the Markdown editor's save of the same
// page (`intent: save`, its Markdown) measured in the same run: the ratio says what saving the document
// costs beyond saving Markdown. Target: ≤ 20 ms of server CPU per save.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `editor-save` markers inside the notes.
//
//   npm run build && node bench/dist/editor-save.js      (or: npm run bench:editor -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_EDITOR_BLOCKS (500), BENCH_EDITOR_SAVES (saves per batch, 20),
// BENCH_EDITOR_ROUNDS (batches of each kind, alternating, 5), BENCH_WRITE (0: do not touch BENCHMARKS.md).
import { documentToMarkdown, markdownToDocument } from "@docshelf/document";
import { cpuTimeMs, http } from "./procs";
import { now, pct } from "./large-space";
import { appSignIn, largeEmbeddedSystem, pageMarkdown, reportSection } from "./page-bench";
import { bounded, median, runBench, WRITE } from "./systems";

const BLOCKS = bounded("BENCH_EDITOR_BLOCKS", 500, 10, 5000);
const SAVES = bounded("BENCH_EDITOR_SAVES", 20, 1, 200);
const ROUNDS = bounded("BENCH_EDITOR_ROUNDS", 5, 1, 20);
const WATCHDOG_MS = 10 * 60_000;
const TARGET_MS = 20;

async function main(): Promise<void> {
  const system = await largeEmbeddedSystem("editor", 1, 1);
  try {
    const { base, adminToken, json, spaceId, paths, children } = system;
    const pid = children[0].proc.pid;
    const cookie = { cookie: await appSignIn(base, adminToken) };
    const cr = (await json("POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Editor bench" })) as { number: number };
    const pageUrl = `${base}/s/${spaceId}/~/changes/${cr.number}/${paths[0]}`;
    const editor = await http("GET", `${pageUrl}?edit=blocks`, cookie);
    const csrf = /data-csrf="([^"]+)"/.exec(editor.body.toString())?.[1];
    if (editor.status !== 200 || !csrf) throw new Error(`the editor's page answered ${editor.status}`);

    // Two versions of the page, saved in turn, so that every save changes it.
    const markdowns = [pageMarkdown(BLOCKS, 1), pageMarkdown(BLOCKS, 2)];
    const documents = markdowns.map((m) => JSON.stringify(markdownToDocument(m)));
    const blockCount = (JSON.parse(documents[0]) as { nodes: unknown[] }).nodes.length;
    // The two saves store the same page: the document's Markdown is the Markdown's.
    if (documentToMarkdown(JSON.parse(documents[0])) !== documentToMarkdown(markdownToDocument(markdowns[0]))) throw new Error("the two saves differ");
    // The four bodies, encoded once (the bench process's own work stays out of the timings).
    const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const bodies = {
      document: documents.map((document) => encode({ _csrf: csrf, intent: "save-document", document })),
      markdown: markdowns.map((markdown) => encode({ _csrf: csrf, intent: "save", markdown })),
    };
    const form = (kind: "document" | "markdown", i: number) => bodies[kind][i % 2];
    const headers = { ...cookie, "content-type": "application/x-www-form-urlencoded" };
    // A url-encoded form (the procs helper sends JSON): fetch, to the loopback address the system listens on.
    const save = async (kind: "document" | "markdown", i: number): Promise<number> => {
      const t = now();
      const res = await fetch(pageUrl, { method: "POST", headers, body: form(kind, i), redirect: "manual", signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      if (res.status !== (kind === "document" ? 200 : 303)) throw new Error(`a ${kind} save answered ${res.status}: ${text.slice(0, 300)}`);
      return now() - t;
    };
    // Warm-up: both paths compiled and cached.
    for (let i = 0; i < 4; i++) {
      await save("document", i);
      await save("markdown", i);
    }
    const cpu: Record<"document" | "markdown", number[]> = { document: [], markdown: [] };
    const wall: Record<"document" | "markdown", number[]> = { document: [], markdown: [] };
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which kind goes first, so drift on the shared machine falls on both.
      for (const kind of round % 2 === 0 ? (["document", "markdown"] as const) : (["markdown", "document"] as const)) {
        const before = cpuTimeMs(pid);
        for (let i = 0; i < SAVES; i++) wall[kind].push(await save(kind, n++));
        cpu[kind].push((cpuTimeMs(pid) - before) / SAVES);
      }
    }
    const docCpu = median(cpu.document);
    const mdCpu = median(cpu.markdown);
    const f1 = (x: number) => x.toFixed(1);
    const rows: Array<[string, string, string]> = [
      [`server CPU per block-editor save (\`save-document\`, ${blockCount} blocks, ${Math.round(documents[0].length / 1024)} KB of JSON), median of ${ROUNDS} batches of ${SAVES}`, `${f1(docCpu)} ms`, `≤ ${TARGET_MS} ms: ${docCpu <= TARGET_MS ? "met" : "**not met**"}`],
      [`baseline: server CPU per Markdown save of the same page (\`save\`, ${Math.round(markdowns[0].length / 1024)} KB)`, `${f1(mdCpu)} ms`, "–"],
      ["ratio block-editor save / Markdown save", (docCpu / mdCpu).toFixed(2), "–"],
      ["wall time per save p50, block editor / Markdown", `${f1(pct(wall.document, 50))} / ${f1(pct(wall.markdown, 50))} ms`, "–"],
    ];
    reportSection(
      "editor-save",
      "### Block editor save (issue 38)",
      "npm run bench:editor -w @docshelf/bench",
      [
        "the embedded",
        "system (`NODE_ENV=test`, its own temp `DATA_DIR`), signed in to the app with an API token; a page of a change request saved",
        "alternately in two versions (every save a new revision), one request at a time from the bench process on 127.0.0.1; the server's",
        "CPU is its process's user + system time from /proc over each batch (10 ms ticks, hence batches). The baseline is the same page",
        "saved as Markdown through the Markdown editor's form, in the same run, batches alternating.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await system.stop();
  }
}

runBench("editor-save", WATCHDOG_MS, main);
