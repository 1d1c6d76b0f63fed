// Published page at the edge (issue 41, "Serve readers like a CDN would"): in one go, docshelf (embedded, every
// service in one process) serving a public page of about 4 KB at /sites/{basename}/{path}, and a bare node:http
// server (bare-http.ts) answering the very same bytes (body and headers), each loaded with autocannon (50
// connections by default), a few runs each, alternating; medians, and docshelf's share of the bare server's
// requests/s. Target: ≥ 0.6. Writes its table into BENCHMARKS.md between the `site-edge` markers (BENCH_WRITE=0: not).
//
//   npm run build && node bench/dist/site-edge.js      (or: npm run bench:site-edge -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_RUNS (5), BENCH_DURATION (5 s), BENCH_WARMUP (1 s), BENCH_CONNECTIONS (here 50),
// BENCH_QUIET_WAIT (15 s), BENCH_WRITE. Everything listens on 127.0.0.1; children are killed on exit, error or signal.
import "./site-edge-env";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, startChild, waitUntil } from "./procs";
import { embeddedServerEnv, writeMarkedSection } from "./page-bench";
import { CONNECTIONS, DURATION_S, load, MAIN, median, measure, nodeArgs, RATE_LIMIT, RUNS, START_DEADLINE_MS, stopSystem, tempDir, WARMUP_S, runBench, type Sample, type System } from "./systems";

const TARGET = 0.6;
const WRITE = process.env.BENCH_WRITE !== "0";
/** Seconds of load on each server before the first measured run. */
const SETTLE_S = 5;
/** Headers of one answer that are not its content (they change per request or per connection). */
const NOT_CONTENT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "x-request-id", "age"]);

/** The page: a few paragraphs, a list and a code block, so that the whole HTML answer is about 4 KB. */
const MARKDOWN = [
  "Install the command-line tool, then sign in with the token from your account settings.",
  "",
  "## Steps",
  "",
  "1. Download the release for your platform.",
  "2. Put it on your PATH.",
  "3. Run `tool login` and paste the token.",
  "",
  "```bash\ntool login --token \"$TOKEN\"\ntool status\n```",
  "",
  "The tool keeps its settings in your home folder; remove that folder to start over.",
  "",
  "## Troubleshooting",
  "",
  "If the login fails, check that the token has not expired and that your clock is right: tokens are refused when",
  "the time on your machine is more than five minutes off. Behind a proxy, set `HTTPS_PROXY` before running the tool.",
  "",
  "| Platform | Archive | Notes |",
  "| --- | --- | --- |",
  "| Linux | tool-linux-x64.tar.gz | glibc 2.28 or later |",
  "| macOS | tool-darwin-arm64.zip | signed and notarized |",
  "| Windows | tool-windows-x64.zip | run from PowerShell |",
  "",
  "Uninstalling is removing the binary from your PATH and the settings folder from your home folder.",
  "",
].join("\n");

async function docshelf(): Promise<{ system: System; body: Buffer; headers: Record<string, string | string[]> }> {
  const dataDir = tempDir("docshelf-bench-site-edge-");
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const system: System = { label: "docshelf (embedded)", url: base, headers: {}, children: [], tempDirs: [dataDir] };
  try {
    system.children.push(
      startChild("docshelf (all services)", nodeArgs("embedded", "site-edge", MAIN), embeddedServerEnv({ dataDir, adminToken, port, label: "site-edge" }, {
        RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
        // The readers' limiter stays in the path (its cost is real) without ever answering 429.
        SITE_RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
      })),
    );
    await waitUntil("docshelf /ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, system.children);
    const auth = { Authorization: `Bearer ${adminToken}` };
    const json = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await http(method, `${base}${path}`, auth, body);
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString()}`);
      return JSON.parse(res.body.toString() || "{}") as Record<string, unknown>;
    };
    const org = await json("POST", "/v1/orgs", { title: "Acme" });
    const space = await json("POST", `/v1/orgs/${org.id as string}/spaces`, { title: "Handbook" });
    await json("POST", `/v1/_test/spaces/${space.id as string}/changes`, {
      changes: [
        { type: "insert_page", id: "intro", title: "Introduction", markdown: "Welcome.\n" },
        { type: "insert_page", id: "install", title: "Install", description: "Getting the tool onto your machine", markdown: MARKDOWN },
        { type: "insert_page", id: "faq", title: "FAQ", markdown: "Questions.\n" },
      ],
    });
    const site = await json("POST", `/v1/orgs/${org.id as string}/sites`, { title: "Docs", spaces: [space.id], visibility: "public" });
    await json("PATCH", `/v1/orgs/${org.id as string}/sites/${site.id as string}`, { basename: "docs" });
    await json("POST", `/v1/orgs/${org.id as string}/sites/${site.id as string}/publish`);
    system.url = `${base}/sites/docs/install`;
    const page = await http("GET", system.url);
    if (page.status !== 200 || !String(page.headers["cache-control"]).startsWith("public")) throw new Error(`the page answered ${page.status} ${String(page.headers["cache-control"])}`);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(page.headers)) if (value !== undefined && !NOT_CONTENT.has(name)) headers[name] = value;
    return { system, body: page.body, headers };
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

async function bare(body: Buffer, headers: Record<string, string | string[]>): Promise<System> {
  const dir = tempDir("docshelf-bench-bare-");
  writeFileSync(join(dir, "body"), body);
  writeFileSync(join(dir, "headers.json"), JSON.stringify(headers));
  const port = await freePort();
  const system: System = { label: "bare node:http", url: `http://127.0.0.1:${port}/sites/docs/install`, headers: {}, children: [], tempDirs: [dir] };
  try {
    system.children.push(startChild("bare node:http", nodeArgs("embedded", "bare-http", join(__dirname, "bare-http.js")), { ...process.env, PORT: String(port), HOST: "127.0.0.1", BARE_BODY: join(dir, "body"), BARE_HEADERS: join(dir, "headers.json") }));
    await waitUntil("bare node:http", async () => (await http("GET", system.url)).status === 200, START_DEADLINE_MS, system.children);
    const got = await http("GET", system.url);
    if (!got.body.equals(body)) throw new Error("the bare server answers other bytes");
    return system;
  } catch (err) {
    await stopSystem(system);
    throw err;
  }
}

const f0 = (x: number) => Math.round(x).toLocaleString("en-US");
const f2 = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const real = await docshelf();
  let floor: System | undefined;
  try {
    floor = await bare(real.body, real.headers);
    // Both warmed alike before the measured runs (JIT, and the work docshelf does after a site is published).
    for (const system of [real.system, floor]) await load(system, SETTLE_S);
    const samples: { real: Sample[]; bare: Sample[] } = { real: [], bare: [] };
    for (let run = 0; run < RUNS; run++) {
      // Alternating, so that the machine's other load weighs on both alike.
      samples.real.push(await measure(real.system));
      samples.bare.push(await measure(floor));
      process.stderr.write(`  run ${run + 1}/${RUNS}: docshelf ${f0(samples.real[run].rps)} req/s, bare ${f0(samples.bare[run].rps)} req/s\n`);
    }
    const rps = { real: median(samples.real.map((s) => s.rps)), bare: median(samples.bare.map((s) => s.rps)) };
    const ratios = samples.real.map((s, i) => s.rps / samples.bare[i].rps);
    const ratio = rps.real / rps.bare;
    const row = (label: string, s: Sample[]) =>
      `| ${label} | ${f0(median(s.map((x) => x.rps)))} | ${f2(median(s.map((x) => x.p50)))} | ${f2(median(s.map((x) => x.p99)))} | ${f0(median(s.map((x) => x.cpuUsPerReq)))} | ${f0(median(s.map((x) => x.otherCpu)))} % | ${s.reduce((n, x) => n + x.non2xx + x.errors, 0)} |`;
    const section = [
      "### Published page at the edge (issue 41)",
      "",
      `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/site-edge.js\` (\`npm run bench:site-edge -w @docshelf/bench\`): docshelf embedded`,
      `(every service in one process, its own temp \`DATA_DIR\`, the readers' rate limiter in the path) serving a public page of`,
      `${real.body.length} bytes of HTML at \`/sites/docs/install\`, and bare \`node:http\` (bench/src/bare-http.ts) answering the very same`,
      `body and headers; autocannon, ${CONNECTIONS} connections, no Accept-Encoding, ${SETTLE_S} s of load on each first, then ${RUNS} runs of ${DURATION_S} s each after ${WARMUP_S} s of warm-up,`,
      `alternating; medians. Node ${process.version}; 2 cores, shared with other sessions' processes (the "others' CPU" column).`,
      "",
      "| server | requests/s | p50 ms | p99 ms | CPU µs / request | others' CPU | non-2xx + errors |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      row("docshelf, public page (gateway edge cache)", samples.real),
      row("bare node:http, same bytes", samples.bare),
      "",
      `**Ratio (median requests/s): ${f2(ratio)} of bare node:http** (per run: ${ratios.map(f2).join(", ")}); target ≥ ${TARGET}: ${ratio >= TARGET ? "met" : "**not met**"}.`,
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (WRITE) process.stdout.write(`wrote ${writeMarkedSection("site-edge", section)}\n`);
  } finally {
    await stopSystem(floor);
    await stopSystem(real.system);
  }
}

runBench("site-edge", 30 * 60_000, main);
