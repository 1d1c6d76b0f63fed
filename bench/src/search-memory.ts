// What a space's search index really holds in memory, against what the search LRU's budget counts for it
// (services/content/src/search/search-index.ts `approximateBytes`): the index of content-large's 10,000 pages
// (large-space.ts: a 100-word vocabulary), and of the same pages with distinct words added (every page 20
// words of its own), whose difference gives the memory per distinct indexed word (term).
//
//   npm run build && node --expose-gc bench/dist/search-memory.js
//
// Env: BENCH_PAGES (10000). Prints a table; writes nothing.
import { markdown } from "./large-space";
import { bounded } from "./systems";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SpaceIndex } = require("@docshelf/content/dist/search/space-index") as typeof import("@docshelf/content/dist/search/space-index");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { approximateBytes } = require("@docshelf/content/dist/search/search-index") as typeof import("@docshelf/content/dist/search/search-index");

const PAGES = bounded("BENCH_PAGES", 10_000, 100, 100_000);

type Index = ReturnType<typeof SpaceIndex.build>;

function used(): number {
  for (let i = 0; i < 4; i++) global.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Pages of content-large's corpus, each with `extraWords` words of its own. */
function pagesOf(extraWords: number): Array<{ id: string; title: string; path: string; markdown: string }> {
  const pages = [];
  for (let i = 0; i < PAGES; i++) {
    let md = markdown(i);
    if (extraWords) md += `\n${Array.from({ length: extraWords }, (_, w) => `zq${(i * extraWords + w).toString(36)}x`).join(" ")}\n`;
    pages.push({ id: `page${i}`, title: `Page ${i}`, path: `section/page-${i}`, markdown: md });
  }
  return pages;
}

/** Builds an index of freshly made pages and returns it with the memory it retains (its pages included). */
function measure(extraWords: number): { index: Index; bytes: number } {
  const before = used();
  const index = SpaceIndex.build("space", "rev", pagesOf(extraWords));
  return { index, bytes: used() - before };
}

function main(): void {
  if (!global.gc) throw new Error("run with node --expose-gc");
  const plain = measure(0);
  const plainEstimate = approximateBytes(plain.index);
  const plainTerms = plain.index.termCount;
  // Keep nothing of the first while measuring the second.
  const plainRow = { terms: plainTerms, bytes: plain.bytes, estimate: plainEstimate };
  (plain as { index: Index | null }).index = null;
  const rich = measure(20);
  const richEstimate = approximateBytes(rich.index);
  const richTerms = rich.index.termCount;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const lines = [
    `Search index memory, ${PAGES} pages of content-large's corpus, Node ${process.version}:`,
    "",
    "| corpus | distinct terms | measured (heap + array buffers, after gc) | approximateBytes | estimate / measured |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| content-large pages | ${plainRow.terms} | ${mb(plainRow.bytes)} MB | ${mb(plainRow.estimate)} MB | ${(plainRow.estimate / plainRow.bytes).toFixed(2)} |`,
    `| the same + 20 words of its own per page | ${richTerms} | ${mb(rich.bytes)} MB | ${mb(richEstimate)} MB | ${(richEstimate / rich.bytes).toFixed(2)} |`,
    "",
    `Per added distinct term: measured ${Math.round((rich.bytes - plainRow.bytes) / (richTerms - plainRow.terms))} B, estimated ${Math.round((richEstimate - plainRow.estimate) / (richTerms - plainRow.terms))} B ` +
      "(the added words' text in the pages, their postings and their dictionary and side-index entries together).",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main();
