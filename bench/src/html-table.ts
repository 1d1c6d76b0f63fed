// HTML table conversion bench (issue 36): the import's HTML-to-Markdown conversion (content's
// `htmlToMarkdown`, turndown with the gfm plugin) of one <table> of 100, 200 and 400 KiB, against the
// same conversion of as much HTML in paragraphs (the baseline, same run): time should grow about
// linearly with the table's size, as the paragraphs' does. Then the plugin as it was (every read of
// `table.rows` walking the whole table) at 12.5 and 25 KiB, to show what was fixed.
//
//   npm run build && node bench/dist/html-table.js       (or npm run bench:html-table -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_RUNS (5): runs per measure, the median reported.
import { join } from "node:path";
import { bounded, ROOT } from "./systems";

const RUNS = bounded("BENCH_RUNS", 5, 1, 50);

type Convert = (html: string) => string;

// The built content service's module (bench does not depend on the service's package).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { htmlToMarkdown } = require(join(ROOT, "services/content/dist/website-import/to-markdown.js")) as { htmlToMarkdown: Convert };

/** turndown with the gfm plugin and content's options, without content's fix: the plugin as published. */
function unfixed(): Convert {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const TurndownService = require(join(ROOT, "node_modules/turndown")) as new (options: object) => { use(p: unknown): void; turndown(h: string): string };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { gfm } = require(join(ROOT, "node_modules/@joplin/turndown-plugin-gfm")) as { gfm: unknown };
  const t = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_", strongDelimiter: "**", linkStyle: "inlined" });
  t.use(gfm);
  return (html) => t.turndown(html).trim();
}

function table(kib: number): string {
  let rows = "";
  for (let i = 0; rows.length < kib * 1024; i++) rows += `<tr><td>${i}</td><td><b>b</b></td><td><i>${i % 13}</i></td></tr>`;
  return `<h1>Table</h1><table>${rows}</table>`;
}

function paragraphs(kib: number): string {
  let body = "";
  for (let i = 0; body.length < kib * 1024; i++) body += `<p>${i} <b>b</b> <i>${i % 13}</i></p>`;
  return `<h1>Paragraphs</h1>${body}`;
}

function median(convert: Convert, html: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    convert(html);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function main(): void {
  median(htmlToMarkdown, table(50) + paragraphs(50), 2); // warm up
  const lines = ["| size | table | paragraphs (baseline) | table ÷ baseline | table ms per KiB |", "| ---: | ---: | ---: | ---: | ---: |"];
  for (const kib of [100, 200, 400]) {
    const t = median(htmlToMarkdown, table(kib), RUNS);
    const p = median(htmlToMarkdown, paragraphs(kib), RUNS);
    lines.push(`| ${kib} KiB | ${t.toFixed(0)} ms | ${p.toFixed(0)} ms | ${(t / p).toFixed(2)} | ${(t / kib).toFixed(1)} |`);
  }
  const before = unfixed();
  lines.push("", "| size | the plugin as published | with the fix |", "| ---: | ---: | ---: |");
  for (const kib of [12.5, 25]) {
    const runs = Math.min(RUNS, 3);
    lines.push(`| ${kib} KiB | ${median(before, table(kib), runs).toFixed(0)} ms | ${median(htmlToMarkdown, table(kib), runs).toFixed(0)} ms |`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

main();
