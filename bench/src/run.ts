// Throughput of GET /v1/spaces/{spaceId}: the real system against a bare moleculer-web floor that answers the
// same bytes without work, once with everything in one process and once with one process per service over NATS.
// Real and floor runs alternate so that noise on this machine affects both. Writes BENCHMARKS.md at the repo root.
//
//   npm run bench            (builds, then node bench/dist/run.js)
//
// Env (all optional, all bounded): BENCH_RUNS (5), BENCH_DURATION (5 s), BENCH_WARMUP (1 s),
// BENCH_CONNECTIONS (10), BENCH_MODES (embedded,nats), NATS_URL (nats://127.0.0.1:4222, loopback only),
// BENCH_CPU_PROF (a directory: children run with --cpu-prof into it), BENCH_WRITE (0: do not write BENCHMARKS.md),
// BENCH_QUIET_WAIT (15 s: how long to wait before each run for the rest of the machine to go quiet), BENCH_REVISION.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { ALL_SERVICES } from "@docshelf/config";
import { isLoopback, natsReachable } from "./procs";
import {
  CONNECTIONS, DURATION_S, FLOOR, MAIN, MODES, NATS_URL, QUIET_CPU_PCT, QUIET_WAIT_S, ROOT, RUNS, TARGET, WARMUP_S, WRITE, watchdogMs, measure, median, startFloor, startReal, stopSystem, type Mode, type ModeResult, type Sample, type System, runBench, revision,
} from "./systems";


const MOLECULER_WEB_VERSION = (require("moleculer-web/package.json") as { version: string }).version;

async function runMode(mode: Mode): Promise<ModeResult> {
  const description =
    mode === "embedded"
      ? "every service in one process vs. one bare moleculer-web process"
      : `${ALL_SERVICES.join(", ")} in ${ALL_SERVICES.length} processes over NATS vs. bare gateway process + action process over NATS`;
  const result: ModeResult = { mode, description, real: [], floor: [], bodyBytes: 0 };
  if (mode === "nats") {
    const { hostname } = new URL(NATS_URL);
    if (!isLoopback(hostname)) throw new Error(`NATS_URL must point at a loopback address, got ${hostname}`);
    if (!(await natsReachable(NATS_URL))) {
      result.skipped = `no NATS server answers at ${NATS_URL}`;
      process.stdout.write(`${mode}: skipped, ${result.skipped}\n`);
      return result;
    }
  }
  let real: System | undefined;
  let floor: System | undefined;
  try {
    process.stdout.write(`${mode}: starting the real system and the floor\n`);
    const started = await startReal(mode);
    real = started.system;
    result.bodyBytes = started.body.length;
    floor = await startFloor(mode, started.spaceId, started.body);
    for (let run = 0; run < RUNS; run++) {
      // Alternate which goes first, so that neither always follows the other.
      const order: Array<["real" | "floor", System]> = run % 2 === 0 ? [["real", real], ["floor", floor]] : [["floor", floor], ["real", real]];
      for (const [kind, system] of order) {
        const sample = await measure(system);
        result[kind].push(sample);
        process.stdout.write(`${mode} run ${run + 1}/${RUNS} ${kind.padEnd(5)} ${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms  ${sample.cpuUsPerReq} µs CPU/req  system ${sample.serverCpu}% loader ${sample.loaderCpu}% other ${sample.otherCpu}%\n`);
      }
    }
  } finally {
    await stopSystem(floor);
    await stopSystem(real);
  }
  return result;
}

interface Summary {
  realRps: number;
  floorRps: number;
  realP99: number;
  floorP99: number;
  ratio: number;
  /** median(floor CPU µs/req) / median(real CPU µs/req): what the ratio would be if both were CPU-bound, less noisy. */
  cpuRatio: number;
  /**
   * Each run's real req/s over the same run's floor req/s (the two are measured one right after the other), the
   * median of those and their range: a drift of the machine's speed between runs cancels out within a pair.
   */
  pairRatio: number;
  pairMin: number;
  pairMax: number;
  realCpu: number;
  floorCpu: number;
}

function summarize(r: ModeResult): Summary | undefined {
  if (!r.real.length || !r.floor.length) return undefined;
  const realRps = median(r.real.map((s) => s.rps));
  const floorRps = median(r.floor.map((s) => s.rps));
  const pairs = r.real.flatMap((s, i) => (r.floor[i] && r.floor[i].rps > 0 ? [s.rps / r.floor[i].rps] : []));
  return {
    realRps,
    floorRps,
    realP99: Math.round(median(r.real.map((s) => s.p99)) * 100) / 100,
    floorP99: Math.round(median(r.floor.map((s) => s.p99)) * 100) / 100,
    ratio: realRps / floorRps,
    realCpu: median(r.real.map((s) => s.cpuUsPerReq)),
    floorCpu: median(r.floor.map((s) => s.cpuUsPerReq)),
    cpuRatio: median(r.floor.map((s) => s.cpuUsPerReq)) / median(r.real.map((s) => s.cpuUsPerReq)),
    pairRatio: median(pairs),
    pairMin: Math.min(...pairs),
    pairMax: Math.max(...pairs),
  };
}

function resultsTable(results: ModeResult[], date: string): string {
  const rows = [
    "| date | mode | real req/s | real p99 ms | real CPU µs/req | floor req/s | floor p99 ms | floor CPU µs/req | ratio real/floor req/s | target | met | ratio by CPU µs/req | median of each run's ratio (range) |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
  ];
  for (const r of results) {
    const s = summarize(r);
    if (!s) {
      rows.push(`| ${date} | ${r.mode} | – | – | – | – | – | – | – | ≥ ${TARGET.toFixed(2)} | skipped: ${r.skipped ?? "no samples"} | – | – |`);
      continue;
    }
    const failed = [...r.real, ...r.floor].reduce((n, x) => n + x.non2xx + x.errors, 0);
    const verdict = failed ? `**invalid: ${failed} non-2xx answers or errors**` : s.ratio >= TARGET ? "yes" : "**no**";
    rows.push(
      `| ${date} | ${r.mode} | ${s.realRps.toFixed(0)} | ${s.realP99} | ${s.realCpu} | ${s.floorRps.toFixed(0)} | ${s.floorP99} | ${s.floorCpu} | ${s.ratio.toFixed(2)} | ≥ ${TARGET.toFixed(2)} | ${verdict} | ${s.cpuRatio.toFixed(2)} | ${s.pairRatio.toFixed(2)} (${s.pairMin.toFixed(2)}–${s.pairMax.toFixed(2)}) |`,
    );
  }
  return rows.join("\n");
}

function runsTable(results: ModeResult[]): string {
  const rows = [
    "| mode | run | real req/s | real p50 ms | real p99 ms | real CPU µs/req | real CPU % | loader CPU % | other CPU % | floor req/s | floor p50 ms | floor p99 ms | floor CPU µs/req | floor CPU % | loader CPU % | other CPU % | non-2xx / errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of results) {
    for (let i = 0; i < Math.max(r.real.length, r.floor.length); i++) {
      const a = r.real[i];
      const b = r.floor[i];
      const cells = (x: Sample | undefined) => (x ? [x.rps.toFixed(0), x.p50, x.p99, x.cpuUsPerReq, x.serverCpu, x.loaderCpu, x.otherCpu] : ["–", "–", "–", "–", "–", "–", "–"]).join(" | ");
      const failed = (a ? a.non2xx + a.errors : 0) + (b ? b.non2xx + b.errors : 0);
      rows.push(`| ${r.mode} | ${i + 1} | ${cells(a)} | ${cells(b)} | ${failed} |`);
    }
  }
  return rows.join("\n");
}

const NOTES_START = "<!-- notes:start -->";
const NOTES_END = "<!-- notes:end -->";

/** Hand-written findings between the notes markers survive a new run. */
function keptNotes(file: string): string {
  if (!existsSync(file)) return "";
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(NOTES_START);
  const end = text.indexOf(NOTES_END);
  if (start < 0 || end < start) return "";
  return text.slice(start + NOTES_START.length, end).trim();
}

function report(results: ModeResult[], started: Date, notes: string): string {
  const date = started.toISOString().slice(0, 10);
  const cpu = cpus()[0]?.model?.trim() || "unknown CPU";
  const bodyBytes = results.find((r) => r.bodyBytes)?.bodyBytes ?? 0;
  return `# Benchmarks

## What is measured

Throughput and tail latency of \`GET /v1/spaces/{spaceId}\` (${bodyBytes ? `${bodyBytes}-byte` : "the"} space JSON, authenticated with the
instance administrator's bearer token, who is an admin of the space's organization) against a **floor**: a bare
moleculer-web ${MOLECULER_WEB_VERSION} gateway with a single route \`GET /v1/spaces/:spaceId\` mapped to an action that returns the very
same JSON, captured from the real API just before, without doing any work (no auth, no validation, no store, no
project middleware; Moleculer's default broker options with the JSON serializer). The ratio \`median(real req/s) / median(floor req/s)\` says how much of the framework's throughput the
project's own code keeps.

| mode | real system | floor |
| --- | --- | --- |
| embedded | \`node packages/server/dist/main.js\`, every service in one process, embedded SQLite store in a fresh temp \`DATA_DIR\` | one process: moleculer-web gateway and the action, no transporter |
| nats | one process per service (\`SERVICES=${ALL_SERVICES.join("`, `")}\`) over \`TRANSPORTER=${NATS_URL}\` | 2 processes over the same NATS: the bare gateway, and the action |

Load: [autocannon](https://github.com/mcollina/autocannon) in the benchmark's own process, ${CONNECTIONS} connections,
no pipelining, ${WARMUP_S} s warm-up (discarded) then ${DURATION_S} s measured, ${RUNS} runs per system. Real and floor runs
alternate (real first on odd runs, floor first on even ones) so that noise on the machine affects both; both systems stay up
for the whole mode, idle while the other is measured. Every process logs at \`warn\`; each run uses its own Moleculer
namespace. Everything listens on 127.0.0.1 only.

**Target: ratio ≥ ${TARGET.toFixed(2)}** in each mode.

## Machine

- ${cpus().length} CPUs (\`nproc\`), ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM
- Node ${process.version} on ${process.platform}/${process.arch}
- The load generator, the system under test and (in nats mode) nats-server share these ${cpus().length} cores, so the absolute
  numbers are low and say little about production; the ratio is what to watch.

## How to run

\`\`\`sh
npm run bench          # = npm run build && node bench/dist/run.js
\`\`\`

Optional env: \`BENCH_RUNS\` (5), \`BENCH_DURATION\` (5 s), \`BENCH_WARMUP\` (1 s), \`BENCH_CONNECTIONS\` (10),
\`BENCH_MODES\` (\`embedded,nats\`), \`NATS_URL\` (\`nats://127.0.0.1:4222\`, loopback only; nats mode is skipped when no
server answers), \`BENCH_CPU_PROF=<dir>\` (children run with \`--cpu-prof\`, one folder per process),
\`BENCH_WRITE=0\` (do not rewrite this file), \`BENCH_QUIET_WAIT\` (15 s, 0 = never wait), \`BENCH_REVISION\` (label for
the code measured; default: the git commit). The run stops by itself and stops every process it started; it rewrites
this file except the notes at the end, which are kept.

Tools for finding out where the time goes (after \`npm run build\`; none of them writes files):

\`\`\`sh
node bench/dist/ablate.js                 # real vs. floor vs. floor with the project's broker options vs. the real
                                          # gateway in front of stub services (BENCH_ABLATE=broker: one broker option off at a time;
                                          # BENCH_ABLATE=features: the real system without rate limiting too)
node bench/dist/micro.js                  # per-call µs of the pieces (broker call, content.getSpace, store findOne, sha256, ...)
node bench/dist/inproc.js                 # the real gateway's and the floor's request handlers in one process, through
                                          # sockets that drop what is written: the JavaScript of a request without the kernel
node bench/dist/store-large.js            # the embedded store (SQLite) against SQLite in memory at BENCH_PAGES pages (10000; the full
                                          # size: BENCH_PAGES=100000 BENCH_ADAPTERS=sqlite): open, RSS, read/write p50, p99
node bench/dist/store-server.js           # 100 spaces × 1,000 pages with history through the embedded server against one
                                          # such space: restart to /ready, RSS after reading every page, read/write p50
node --expose-gc bench/dist/search-memory.js   # a space's search index: measured memory against the LRU's estimate
BENCH_CPU_PROF=/tmp/prof BENCH_WRITE=0 node bench/dist/run.js && node bench/dist/profile-summary.js /tmp/prof
\`\`\`

## Results (${started.toISOString().replace(/\.\d+Z$/, "Z")}, code at ${revision()})

Medians over the runs. \`CPU µs/req\` is the CPU time (user + system, from /proc) of all the system's processes
divided by the answered requests: it depends much less than req/s on what else the machine is doing, so
\`ratio by CPU µs/req\` = floor CPU µs/req ÷ real CPU µs/req is a steadier estimate of the same ratio (it leaves out
nats-server's own CPU, which the real system's extra NATS traffic also costs). The last column pairs each real run with
the floor run next to it; the verdict stays with the ratio of the medians. Before each run the benchmark waits up to
${QUIET_WAIT_S} s (\`BENCH_QUIET_WAIT\`) for the machine's other processes to use less than ${QUIET_CPU_PCT}% of a core.

${resultsTable(results, date)}

Every run (\`CPU %\` in % of one core during the run: the system's processes, the load generator, and every other
process on the machine, nats-server included in nats mode; a high \`other CPU %\` means the run was disturbed):

${runsTable(results)}

## Notes

${NOTES_START}
${notes}
${NOTES_END}
`;
}

async function main(): Promise<void> {
  const started = new Date();
  for (const file of [MAIN, FLOOR]) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  process.stdout.write(
    `bench: ${RUNS} runs × (${WARMUP_S} s warm-up + ${DURATION_S} s) per system, ${CONNECTIONS} connections, modes ${MODES.join(", ")}\n`,
  );
  const results: ModeResult[] = [];
  for (const mode of MODES) results.push(await runMode(mode));

  const table = resultsTable(results, started.toISOString().slice(0, 10));
  process.stdout.write(`\n${table}\n\n`);
  if (WRITE) {
    const file = join(ROOT, "BENCHMARKS.md");
    writeFileSync(file, report(results, started, keptNotes(file)));
    process.stdout.write(`wrote ${file}\n`);
  }
}

runBench("bench", watchdogMs(2), main);
