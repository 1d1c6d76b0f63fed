// Import commit bench (issue 36): the longest turn of the event loop while content commits an import as
// large as a ZIP may make (BENCH_PAGES pages of BENCH_KIB KiB of Markdown: 50 of 1 MiB, the 50 MiB cap).
// The changes applied at once (`applyChanges`, one synchronous block: the baseline, same run) against
// applied in turns (`applyChangesInTurns`, what `commitChanges` does), then the whole `commitChanges`
// on an in-memory embedded store (applying, then one store write per page body, then the revision).
//
//   npm run build && node bench/dist/commit-turns.js
//
// Env (optional, bounded): BENCH_RUNS (3), BENCH_PAGES (50), BENCH_KIB (1024).
import { join } from "node:path";
import { bounded, ROOT } from "./systems";

const RUNS = bounded("BENCH_RUNS", 3, 1, 20);
const PAGES = bounded("BENCH_PAGES", 50, 1, 2000);
const KIB = bounded("BENCH_KIB", 1024, 1, 5120);

interface Change {
  type: "insert_page";
  title: string;
  markdown: string;
}
interface Revision {
  id: string;
  spaceId: string;
  [key: string]: unknown;
}
interface Collection {
  insert(doc: object): Promise<unknown>;
  findOne(filter: object): Promise<Record<string, unknown> | null>;
}

// The built content service's and store's modules (bench does not depend on the service's package).
/* eslint-disable @typescript-eslint/no-require-imports */
const tree = require(join(ROOT, "services/content/dist/revisions/tree.js")) as {
  applyChanges(base: Revision, changes: Change[], now: string): unknown;
  applyChangesInTurns(base: Revision, changes: Change[], now: string): Promise<unknown>;
};
const { commitChanges } = require(join(ROOT, "services/content/dist/revisions/commit.js")) as {
  commitChanges(store: object, space: { id: string }, base: Revision, changes: Change[], options: { move: boolean }): Promise<unknown>;
};
const { collections } = require(join(ROOT, "services/content/dist/models.js")) as { collections: Record<string, object> };
const { openStore } = require(join(ROOT, "packages/store/dist/index.js")) as {
  openStore(service: string, options: { memory: boolean }): Promise<{ collection(spec: object): Promise<Collection>; close(): Promise<void> }>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

function changes(salt: string): Change[] {
  const line = (i: number) => `Line ${i} ${salt}: ${"x".repeat(60)}\n`;
  return Array.from({ length: PAGES }, (_, i) => ({ type: "insert_page", title: `P${i}`, markdown: `# P${i} ${salt}\n\n${line(i).repeat(Math.ceil((KIB * 1024) / line(i).length))}` }));
}

/** The longest time between two turns of the event loop (one setImmediate each) until stopped. */
function longestTurn(): () => number {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    return longest;
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const store = await openStore("content", { memory: true });
  const service = {
    spaces: await store.collection(collections.spaces),
    revisions: await store.collection(collections.revisions),
    documents: await store.collection(collections.documents),
    nowIso: () => new Date().toISOString(),
    revisionChanged: async () => undefined,
  };
  const base: Revision = { id: "r0", spaceId: "s1", parents: [], type: "edits", pages: [], files: [], reusableContents: [], variables: {}, createdAt: "2026-01-01T00:00:00.000Z" };
  await service.revisions.insert(base);
  await service.spaces.insert({ id: "s1", organizationId: "o1", revision: "r0", createdAt: base.createdAt, updatedAt: base.createdAt });
  const atOnce: number[] = [];
  const inTurns: number[] = [];
  const commit: number[] = [];
  const commitTotal: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const batch = changes(`a${run}`);
    const started = performance.now();
    tree.applyChanges(base, batch, "now");
    atOnce.push(performance.now() - started);
    let stop = longestTurn();
    await tree.applyChangesInTurns(base, batch, "now");
    inTurns.push(stop());
    const space = (await service.spaces.findOne({ id: "s1" })) as { id: string; revision: string };
    const from = (await service.revisions.findOne({ id: space.revision })) as Revision;
    stop = longestTurn();
    const began = performance.now();
    await commitChanges(service, space, from, changes(`c${run}`), { move: true });
    commitTotal.push(performance.now() - began);
    commit.push(stop());
  }
  await store.close();
  const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;
  process.stdout.write(
    [
      `${PAGES} pages of ${KIB} KiB, median of ${RUNS} runs`,
      "",
      "| applied at once (one block, baseline) | applied in turns: longest turn | in turns ÷ at once | commitChanges: longest turn | commitChanges in all |",
      "| ---: | ---: | ---: | ---: | ---: |",
      `| ${ms(atOnce)} | ${ms(inTurns)} | ${(median(inTurns) / median(atOnce)).toFixed(2)} | ${ms(commit)} | ${ms(commitTotal)} |`,
    ].join("\n") + "\n",
  );
}

void main();
