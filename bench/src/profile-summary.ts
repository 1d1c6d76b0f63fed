// Summarizes a V8 .cpuprofile (from BENCH_CPU_PROF=<dir> npm run bench): self time by package and by function.
//
//   node bench/dist/profile-summary.js <file.cpuprofile | dir> [top=25]
//
// PROFILE_SKIP_S=<s>: leave out each profile's first s seconds (a child's profile starts with the process, so
// loading modules, seeding and warm-ups otherwise weigh on what a measured run did). PROFILE_BUSY=1: shares of
// the busy time (idle left out) instead of the sampled time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const SKIP_US = Math.max(0, Number(process.env.PROFILE_SKIP_S ?? 0) || 0) * 1e6;
const BUSY = process.env.PROFILE_BUSY === "1";

function files(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => join(target, f));
}

/** Which package (or part of the runtime) a script URL belongs to. */
function owner(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ws = /\/(packages|services|bench)\/([^/]+)\//.exec(url);
  if (ws) return `@docshelf/${ws[2]}`;
  return url;
}

function summarize(file: string, top: number): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  let elapsed = 0;
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    elapsed += dt;
    if (elapsed < SKIP_US) continue;
    if (BUSY && idleIds.has(profile.samples[i])) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const idle = new Set(["(idle)", "(program)", "(garbage collector)"]);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const pkg = idle.has(functionName) ? functionName : owner(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const key = `${functionName || "(anonymous)"}  ${url ? `${url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "")}:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  process.stdout.write(`\n== ${file}  (${(total / 1e6).toFixed(1)} s ${BUSY ? "busy" : "sampled"}${SKIP_US ? `, after the first ${SKIP_US / 1e6} s` : ""})\n-- self time by package\n`);
  for (const [k, v] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(v)}  ${k}\n`);
  process.stdout.write(`-- self time by function\n`);
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(v)}  ${k}\n`);

  // Inclusive time: a function's self time plus everything it called (counted once per stack, recursion included once).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const { functionName, url, lineNumber } = node.callFrame;
      if (!url) continue;
      const key = `${functionName || "(anonymous)"}  ${url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "")}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  process.stdout.write(`-- inclusive time by function\n`);
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(v)}  ${k}\n`);
}

const [target, topArg] = process.argv.slice(2);
if (!target) {
  process.stderr.write("usage: node bench/dist/profile-summary.js <file.cpuprofile | dir> [top]\n");
  process.exit(2);
}
const top = Math.min(Math.max(Number(topArg) || 25, 1), 200);
for (const file of files(target)) summarize(file, top);
