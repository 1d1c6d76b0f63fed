// The embedded store beyond memory: pages of many spaces with history, in the SQLite store on files and (as the
// baseline measured in the same run) in an in-memory SQLite database: the same engine, queries and JSON with no
// disk and no fsync, so the ratios say what keeping the data on disk, durably, costs. Each is measured in a child
// process of its own (a clean RSS): opening the store with its collections (what start-up waits for; the
// in-memory one has nothing to open, it is filled in the measuring process), RSS after reading every page once,
// then page reads by id and page writes (one $set) one after another, p50 and p99.
//
//   npm run build && node bench/dist/store-large.js
//
// Env: BENCH_PAGES (10000; the issue's target is 100000), BENCH_SPACES (100), BENCH_REVISIONS (3: each page is
// written, then changed this many more times; every version is kept as a revision document, as content keeps
// history), BENCH_SAMPLES (2000 reads and writes), BENCH_ADAPTERS (sqlite,memory), BENCH_WRITE (0: do not change
// BENCHMARKS.md). The in-memory baseline holds everything in RAM (about 1.2 GB at 100,000 pages).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { newId, SqliteStore, type Collection, type Store } from "@docshelf/store";

const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);
const SPACES = Number(process.env.BENCH_SPACES ?? 100);
const REVISIONS = Number(process.env.BENCH_REVISIONS ?? 3);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2000);
const ADAPTERS = (process.env.BENCH_ADAPTERS ?? "sqlite,memory").split(",").filter(Boolean) as Adapter[];
const WRITE = process.env.BENCH_WRITE !== "0";
const ROOT = join(__dirname, "..", "..");

/** `sqlite`: the embedded store on files (what the server runs); `memory`: the same engine in memory, the baseline. */
type Adapter = "sqlite" | "memory";

interface PageDoc {
  id: string;
  spaceId: string;
  title: string;
  path: string;
  markdown: string;
  updatedAt: string;
  version: number;
}

interface RevisionDoc {
  id: string;
  spaceId: string;
  pageId: string;
  version: number;
  markdown: string;
  createdAt: string;
}

interface Result {
  adapter: Adapter;
  openMs: number;
  rssAfterReadMb: number;
  readP50Ms: number;
  readP99Ms: number;
  writeP50Ms: number;
  writeP99Ms: number;
  diskMb: number;
}

const SPECS = {
  pages: { name: "pages", indexes: [{ fields: ["spaceId", "path"] }, { fields: ["spaceId", "updatedAt"] }] },
  revisions: { name: "revisions", indexes: [{ fields: ["pageId", "version"] }, { fields: ["spaceId", "createdAt"] }] },
};

function open(adapter: Adapter, dir: string): Store {
  return adapter === "sqlite" ? new SqliteStore({ dir }) : new SqliteStore({});
}

/** About 2 KB of markdown, different per page and version. */
function markdown(n: number, version: number): string {
  const line = `Paragraph ${n}.${version}: configure the gateway, install the agent and read the runbook before the release. `;
  return `# Page ${n}\n\n${line.repeat(18)}`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function duSync(dir: string): number {
  const out = spawnSync("du", ["-sk", dir], { encoding: "utf8" });
  return Number(out.stdout.split("\t")[0]) / 1024;
}

/** Child: fills `dir` with the data set (sqlite: in batches of transactions through the store itself). */
async function fill(adapter: Adapter, dir: string, into?: Store): Promise<string[]> {
  const store = into ?? open(adapter, dir);
  const pages = (await store.collection<PageDoc>(SPECS.pages)) as Collection<PageDoc>;
  const revisions = (await store.collection<RevisionDoc>(SPECS.revisions)) as Collection<RevisionDoc>;
  const ids: string[] = [];
  // Filling is not what is measured: SQLite and the adapter skip their fsyncs meanwhile (the measuring process
  // reopens the store, which fsyncs the WAL after every commit again).
  if (adapter === "sqlite") {
    const connection = (store as unknown as { connection: { db: { exec(sql: string): void }; wal?: unknown } }).connection;
    connection.db.exec("PRAGMA synchronous = OFF");
    connection.wal = undefined;
  }
  for (let n = 0; n < PAGES; n++) {
    const id = newId();
    const spaceId = `space-${n % SPACES}`;
    const at = new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
    await pages.insert({ id, spaceId, title: `Page ${n}`, path: `section-${n % 37}/page-${n}`, markdown: markdown(n, 0), updatedAt: at, version: 0 });
    await revisions.insert({ id: newId(), spaceId, pageId: id, version: 0, markdown: markdown(n, 0), createdAt: at });
    for (let v = 1; v <= REVISIONS; v++) {
      await revisions.insert({ id: newId(), spaceId, pageId: id, version: v, markdown: markdown(n, v), createdAt: at });
    }
    if (REVISIONS) await pages.updateOne({ id }, { $set: { markdown: markdown(n, REVISIONS), version: REVISIONS } });
    ids.push(id);
  }
  if (!into) await store.close();
  return ids;
}

/** Child: measures one adapter on a filled directory. */
async function measureChild(adapter: Adapter, dir: string, filled: string[]): Promise<Result> {
  const began = process.hrtime.bigint();
  const store = open(adapter, dir);
  const pages = (await store.collection<PageDoc>(SPECS.pages)) as Collection<PageDoc>;
  await store.collection<RevisionDoc>(SPECS.revisions);
  const openMs = adapter === "memory" ? Number.NaN : Number(process.hrtime.bigint() - began) / 1e6;
  const ids = adapter === "memory" ? await fill(adapter, dir, store) : filled;
  for (const id of ids) if (!(await pages.findOne({ id }))) throw new Error(`page ${id} missing`);
  global.gc?.();
  const rssAfterReadMb = process.memoryUsage().rss / 1024 / 1024;
  const reads: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const id = ids[(i * 7919) % ids.length];
    let t = process.hrtime.bigint();
    await pages.findOne({ id });
    reads.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await pages.updateOne({ id }, { $set: { title: `Page edited ${i}`, updatedAt: new Date().toISOString() } });
    writes.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  reads.sort((a, b) => a - b);
  writes.sort((a, b) => a - b);
  await store.close();
  return {
    adapter,
    openMs,
    rssAfterReadMb,
    readP50Ms: percentile(reads, 50),
    readP99Ms: percentile(reads, 99),
    writeP50Ms: percentile(writes, 50),
    writeP99Ms: percentile(writes, 99),
    diskMb: duSync(dir),
  };
}

function runChild(args: string[]): string {
  const out = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=8192", __filename, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`child ${args[0]} failed (${out.status})`);
  return out.stdout;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

function table(results: Result[]): string {
  const base = results.find((r) => r.adapter === "memory");
  const rows = results.map((r) => {
    const ratio = (mine: number, theirs: number | undefined) => (theirs && r !== base ? ` (${fmt(mine / theirs, 2)}×)` : "");
    const name = r.adapter === "memory" ? "sqlite in memory (baseline)" : "sqlite on files";
    // NaN comes back from the measuring child as null (JSON).
    const openMs = !Number.isFinite(r.openMs) ? "–" : `${fmt(r.openMs, 0)} ms`;
    const disk = r.adapter === "memory" ? "–" : `${fmt(r.diskMb, 0)} MB`;
    return `| ${name} | ${openMs} | ${fmt(r.rssAfterReadMb, 0)} MB${ratio(r.rssAfterReadMb, base?.rssAfterReadMb)} | ${fmt(r.readP50Ms, 3)}${ratio(r.readP50Ms, base?.readP50Ms)} / ${fmt(r.readP99Ms, 3)} ms | ${fmt(r.writeP50Ms, 3)}${ratio(r.writeP50Ms, base?.writeP50Ms)} / ${fmt(r.writeP99Ms, 3)} ms | ${disk} |`;
  });
  return ["| store | open with its collections | RSS after reading every page | page read p50 / p99 | page write p50 / p99 | on disk |", "|---|---|---|---|---|---|", ...rows].join("\n");
}

async function main(): Promise<void> {
  const [role, adapter, dir, idsFile] = process.argv.slice(2);
  if (role === "fill") {
    writeFileSync(idsFile, JSON.stringify(await fill(adapter as Adapter, dir)));
    return;
  }
  if (role === "measure") {
    process.stdout.write(JSON.stringify(await measureChild(adapter as Adapter, dir, JSON.parse(readFileSync(idsFile, "utf8")) as string[])));
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "docshelf-store-bench-"));
  const results: Result[] = [];
  try {
    for (const a of ADAPTERS) {
      const d = join(work, a);
      const file = join(work, `${a}.ids.json`);
      const t = Date.now();
      if (a === "memory") writeFileSync(file, "[]");
      else runChild(["fill", a, d, file]);
      if (a !== "memory") process.stdout.write(`${a}: ${PAGES} pages over ${SPACES} spaces with ${REVISIONS} later versions each written in ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
      const result = JSON.parse(runChild(["measure", a, d, file])) as Result;
      process.stdout.write(`${a}: ${JSON.stringify(result)}\n`);
      results.push(result);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const text = [
    `<!-- store-large-${PAGES}:start -->`,
    `### The embedded store at ${PAGES.toLocaleString("en")} pages (\`bench/src/store-large.ts\`)`,
    ``,
    `${PAGES.toLocaleString("en")} pages (~2 KB of markdown each) over ${SPACES} spaces, each page changed ${REVISIONS} times after it was written, every version kept as a revision document (${(PAGES * (REVISIONS + 1)).toLocaleString("en")} revisions). Each store measured in a process of its own, on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, ${new Date().toISOString().slice(0, 10)}. ${results.some((r) => r.adapter === "memory") ? "Ratios against the same engine in memory (node:sqlite `:memory:`, same queries, no disk, no fsync; filled in its measuring process, so it has no open time), measured in the same run: what keeping the data on disk, durably, costs." : "The in-memory baseline left out at this size."} Reads are \`findOne({id})\`, writes \`updateOne({id}, {$set})\` (each one transaction, acknowledged once its write-ahead log was fsynced), one at a time.`,
    ``,
    table(results),
    `<!-- store-large-${PAGES}:end -->`,
  ].join("\n");
  process.stdout.write(`\n${text}\n`);
  if (WRITE) {
    const file = join(ROOT, "BENCHMARKS.md");
    const current = existsSync(file) ? readFileSync(file, "utf8") : "";
    const at = current.indexOf(`<!-- store-large-${PAGES}:start -->`);
    const end = current.indexOf(`<!-- store-large-${PAGES}:end -->`);
    const notesEnd = current.indexOf("<!-- notes:end -->");
    const next =
      at >= 0 && end > at
        ? current.slice(0, at) + text + current.slice(end + `<!-- store-large-${PAGES}:end -->`.length)
        : notesEnd >= 0
          ? `${current.slice(0, notesEnd)}${text}\n${current.slice(notesEnd)}`
          : `${current.trimEnd()}\n\n${text}\n`;
    writeFileSync(file, next);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
