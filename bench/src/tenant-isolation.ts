// Issue 36's measure: how much one organization's heavy import raises another organization's read p99, with
// the pool's work on worker threads (WORKER_ISOLATION=thread) and on worker processes in sessions of their own
// (process), in pairs in the same run (the two systems side by side, the order alternating), medians of
// several. Each measurement: the other tenant's `GET /v1/spaces/{id}` polled by 3 loops for 3 s with nothing
// going on, then while two imports of 4 HTML pages of 300 KiB run (resource-import.test.ts's attack), then
// 3 s quiet again; the rise is the attack's p99 minus the larger quiet p99.
//
// Env: BENCH_RUNS (pairs, default 5), BENCH_ISOLATIONS (default "thread,process"), BENCH_MODES (default
// "nats"; "embedded" runs one process), NATS_URL. Build first (npm run build at the root).
import { strToU8, zipSync } from "fflate";
import { createOrg, createSpace, createUser, probe, startEmbedded, startNats, type ApiClient, type Latencies, type RunningSystem } from "@docshelf/testkit";
import { bounded } from "./systems";

const RUNS = bounded("BENCH_RUNS", 5, 1, 50);
const ISOLATIONS = (process.env.BENCH_ISOLATIONS || "thread,process").split(",").map((s) => s.trim()).filter(Boolean);
const MODES = (process.env.BENCH_MODES || "nats").split(",").map((s) => s.trim()).filter(Boolean);
const LOOPS = 3;
const QUIET_MS = 3000;


async function quiet(api: ApiClient, path: string): Promise<Latencies> {
  const reads = probe(api, path, LOOPS);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  return reads.stop();
}

const numberAt = (seed: number, i: number) => (i * 7919 + seed) % 10007;

/** resource-import.test.ts's attack: `files` HTML pages of about `kib` KiB of nested elements, zipped. */
function htmlZip(files: number, kib: number): Buffer {
  const page = (seed: number) => {
    let body = "";
    for (let i = 0; body.length < kib * 1024; i++) body += `<div id="d${i}"><div><span><span><em>${numberAt(seed, i)}</em></span></span></div></div>`;
    return `<html><head><title>Page ${seed}</title></head><body>${body}</body></html>`;
  };
  return Buffer.from(zipSync(Object.fromEntries(Array.from({ length: files }, (_, f) => [`p${f}.html`, strToU8(page(f))])), { level: 9 }));
}

interface Setup {
  name: string;
  sys: RunningSystem;
  owner: ApiClient;
  orgId: string;
  other: ApiClient;
  otherPath: string;
}

async function setUp(mode: string, isolation: string): Promise<Setup> {
  // A generous time limit: on a loaded shared machine the attack's work alone has taken more than the default 60 s.
  const env = { RATE_LIMIT_PER_MINUTE: "0", WORKER_ISOLATION: isolation, WORKER_TASK_TIMEOUT_MS: "600000" };
  const sys = mode === "embedded" ? await startEmbedded(env) : await startNats({ env });
  const [owner, other] = await Promise.all([createUser(sys.admin), createUser(sys.admin)]);
  const orgId = (await createOrg(owner.api)).id;
  const otherOrg = await createOrg(other.api);
  const otherSpace = (await createSpace(other.api, otherOrg.id, { title: "Other tenant" })).id;
  return { name: `${mode} ${isolation}`, sys, owner: owner.api, orgId, other: other.api, otherPath: `/v1/spaces/${otherSpace}` };
}

interface Measured {
  quietP99: number;
  attackP50: number;
  attackP99: number;
  attackMax: number;
  rise: number;
  importMs: number;
  reads: number;
  failures: number;
}

async function measure(s: Setup, zip: Buffer): Promise<Measured> {
  const spaces = await Promise.all([0, 1].map((n) => createSpace(s.owner, s.orgId, { title: `Heavy ${n}` })));
  const before = await quiet(s.other, s.otherPath);
  const reads = probe(s.other, s.otherPath, LOOPS);
  const started = performance.now();
  const ids: string[] = [];
  for (const space of spaces) {
    const res = await s.owner.post(`/v1/org/${s.orgId}/imports`, { source: { type: "file", files: [`data:application/zip;name=docs.zip;base64,${zip.toString("base64")}`] }, target: { space: space.id } });
    if (res.status !== 201) throw new Error(`import: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(res.body.id);
  }
  for (const id of ids) {
    for (;;) {
      const got = await s.owner.get(`/v1/org/${s.orgId}/imports/${id}`);
      if (!["pending", "in-progress"].includes(got.body.status)) {
        if (got.body.status !== "completed") throw new Error(`import ended ${got.body.status}: ${got.body.reason}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const importMs = performance.now() - started;
  const attack = await reads.stop();
  const after = await quiet(s.other, s.otherPath);
  const quietP99 = Math.max(before.p99, after.p99);
  return { quietP99, attackP50: attack.p50, attackP99: attack.p99, attackMax: attack.max, rise: attack.p99 - quietP99, importMs, reads: attack.count, failures: attack.failures };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (n: number) => String(Math.round(n));

async function main(): Promise<void> {
  const zip = htmlZip(4, 300);
  for (const mode of MODES) {
    const setups: Setup[] = [];
    try {
      for (const isolation of ISOLATIONS) setups.push(await setUp(mode, isolation));
      const results = new Map<string, Measured[]>(setups.map((s) => [s.name, []]));
      console.log(`| mode, isolation | run | quiet p99 ms | attack p50 ms | attack p99 ms | attack max ms | p99 rise ms | imports took ms | reads | failures |`);
      console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
      for (let run = 1; run <= RUNS; run++) {
        // The order alternates, so that neither isolation always goes first on a machine whose load drifts.
        const order = run % 2 ? setups : [...setups].reverse();
        for (const s of order) {
          const m = await measure(s, zip);
          results.get(s.name)!.push(m);
          console.log(`| ${s.name} | ${run} | ${ms(m.quietP99)} | ${ms(m.attackP50)} | ${ms(m.attackP99)} | ${ms(m.attackMax)} | ${ms(m.rise)} | ${ms(m.importMs)} | ${m.reads} | ${m.failures} |`);
        }
      }
      console.log(`\n| mode, isolation | runs | median quiet p99 ms | median attack p99 ms | median p99 rise ms (range) | median imports took ms |`);
      console.log(`| --- | --- | --- | --- | --- | --- |`);
      for (const [name, ms_] of results) {
        const rises = ms_.map((m) => m.rise);
        console.log(`| ${name} | ${ms_.length} | ${ms(median(ms_.map((m) => m.quietP99)))} | ${ms(median(ms_.map((m) => m.attackP99)))} | ${ms(median(rises))} (${ms(Math.min(...rises))}–${ms(Math.max(...rises))}) | ${ms(median(ms_.map((m) => m.importMs)))} |`);
      }
    } finally {
      await Promise.all(setups.map((s) => s.sys.stop()));
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
