// App render bench (issue 29): server-side render time of an app page of a 10,000-page space, through the
// gateway with a session cookie, embedded. Target: warm p50 ≤ 20 ms. Beside it, the bare moleculer-web floor
// (floor.js) answering the same HTML in the same run, so the framework's share is visible.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `app-render` markers inside the notes (the other sections are kept).
//
//   npm run build && node bench/dist/app-render.js      (or: npm run bench:app -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_PAGES (10000), BENCH_BATCH (500), BENCH_APP_PAGES (distinct pages read, 200),
// BENCH_APP_RUNS (measured requests, 2000), BENCH_WRITE (0: do not touch BENCHMARKS.md).
// Everything listens on 127.0.0.1; every loop is bounded; children are killed on exit, error or signal.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, isRunning, startChild, waitUntil, type Child } from "./procs";
import { insertLargeSpace, now, pct, r1, rnd } from "./large-space";
import { bounded, FLOOR, MAIN, ROOT, START_DEADLINE_MS, runBench } from "./systems";

const PAGES = bounded("BENCH_PAGES", 10_000, 1, 10_000);
const BATCH = bounded("BENCH_BATCH", 500, 1, 2_000);
const DISTINCT = bounded("BENCH_APP_PAGES", 200, 1, 10_000);
const RUNS = bounded("BENCH_APP_RUNS", 2000, 10, 100_000);
const WRITE = process.env.BENCH_WRITE !== "0";
const WATCHDOG_MS = 15 * 60_000;
/** One decimal, always shown ("1.0 ms", not "1 ms"). */
const f1 = (x: number): string => r1(x).toFixed(1);
const MARK_START = "<!-- app-render:start -->";
const MARK_END = "<!-- app-render:end -->";
const NOTES_END = "<!-- notes:end -->";

interface TreePage {
  path: string;
  pages: TreePage[];
}

function paths(pages: TreePage[], out: string[]): string[] {
  for (const page of pages) {
    out.push(page.path);
    paths(page.pages, out);
  }
  return out;
}

/** Sequential GETs of `urls` (round robin) with these headers, after one warm-up pass; latencies in ms. */
async function timeGets(urls: string[], runs: number, expect: number, headers: Record<string, string> = {}): Promise<number[]> {
  for (const url of urls) {
    const res = await http("GET", url, headers);
    if (res.status !== expect) throw new Error(`GET ${url} answered ${res.status} in the warm-up: ${res.body.toString().slice(0, 300)}`);
  }
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const url = urls[i % urls.length];
    const t = now();
    const res = await http("GET", url, headers);
    ms.push(now() - t);
    if (res.status !== expect) throw new Error(`GET ${url} answered ${res.status}`);
  }
  return ms;
}

/** Replaces (or adds, at the end of the notes) the section between the app-render markers. */
function writeSection(section: string): string {
  const file = join(ROOT, "BENCHMARKS.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const block = `${MARK_START}\n${section}\n${MARK_END}`;
  const start = text.indexOf(MARK_START);
  const end = text.indexOf(MARK_END);
  let next: string;
  if (start >= 0 && end > start) next = `${text.slice(0, start)}${block}${text.slice(end + MARK_END.length)}`;
  else if (text.includes(NOTES_END)) next = text.replace(NOTES_END, `\n${block}\n${NOTES_END}`);
  else next = `${text}\n${block}\n`;
  writeFileSync(file, next);
  return file;
}

/** The value of cookie `name` among a response's Set-Cookie lines. */
function cookieOf(res: Response, name: string): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie (status ${res.status})`);
  return line.slice(name.length + 1).split(";")[0];
}

/** Signs in through the app's form with the API token, as a browser does: answers the session cookie header. */
async function signIn(base: string, token: string): Promise<string> {
  const form = await fetch(`${base}/app/sign-in`, { redirect: "manual" });
  const presession = cookieOf(form, "docshelf_signin");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error("no CSRF token on the sign-in page");
  const res = await fetch(`${base}/app/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `docshelf_signin=${presession}` },
    body: new URLSearchParams({ _csrf: csrf, token }).toString(),
  });
  if (res.status !== 303) throw new Error(`signing in answered ${res.status}`);
  return `docshelf_session=${cookieOf(res, "docshelf_session")}`;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-bench-app-"));
  const floorDir = mkdtempSync(join(tmpdir(), "docshelf-bench-app-floor-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${adminToken}` };
  const children: Child[] = [];
  try {
    const proc = startChild("real (all services)", [MAIN], {
      ...process.env,
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOGLEVEL: "warn",
      NAMESPACE: `bench-app-${randomBytes(4).toString("hex")}`,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      MONGO_URL: "",
      SERVICES: "all",
      TRANSPORTER: "",
      RATE_LIMIT_PER_MINUTE: "10000000",
      RATE_LIMIT_ANON_PER_MINUTE: "10000000",
      SITE_RATE_LIMIT_PER_MINUTE: "10000000",
      JSON_BODY_LIMIT_BYTES: String(16 * 1024 * 1024),
      REQUEST_TIMEOUT_MS: "120000",
    });
    children.push(proc);
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, [proc]);
    const json = async (method: string, path: string, body?: unknown, expect = [200, 201], timeoutMs = 60_000) => {
      const res = await http(method, `${base}${path}`, headers, body, timeoutMs);
      if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
      return JSON.parse(res.body.toString() || "null") as Record<string, unknown>;
    };

    const orgId = (await json("POST", "/v1/orgs", { title: "Acme" })).id as string;
    const spaceId = (await json("POST", `/v1/orgs/${orgId}/spaces`, { title: "Large" })).id as string;
    const insertStart = now();
    const bytes = await insertLargeSpace((path, body) => json("POST", path, body, [201], 120_000), spaceId, PAGES, BATCH, () => {
      if (!isRunning(proc)) throw new Error(`the system exited:\n${proc.tail()}`);
    });
    const insertMs = now() - insertStart;
    const tree = (await json("GET", `/v1/spaces/${spaceId}/content`)) as unknown as { pages: TreePage[] };
    const all = paths(tree.pages, []);
    if (all.length !== PAGES) throw new Error(`the space lists ${all.length} pages, expected ${PAGES}`);
    process.stderr.write(`inserted ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB markdown) in ${Math.round(insertMs)} ms\n`);

    const cookie = { cookie: await signIn(base, adminToken) };
    // The first page reads the 10,000-page tree (kept by the app afterwards) and renders one page: the cold cost.
    let t = now();
    const first = await http("GET", `${base}/s/${spaceId}/${all[PAGES - 1]}`, cookie, undefined, 120_000);
    const coldMs = now() - t;
    if (first.status !== 200) throw new Error(`the first page answered ${first.status}: ${first.body.toString().slice(0, 300)}`);
    t = now();
    await http("GET", `${base}/s/${spaceId}/${all[PAGES - 2]}`, cookie);
    const secondMs = now() - t;

    const chosen = Array.from({ length: DISTINCT }, () => all[Math.floor(rnd() * all.length)]);
    const urls = chosen.map((path) => `${base}/s/${spaceId}/${path}`);
    const warm = await timeGets(urls, RUNS, 200, cookie);
    const sizes = await Promise.all(urls.slice(0, 20).map(async (url) => (await http("GET", url, cookie)).body.length));
    const avgBytes = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);

    // The floor: the same HTML from a bare moleculer-web action that does no work.
    const page = (await http("GET", urls[0], cookie)).body.toString();
    const bodyFile = join(floorDir, "page.json");
    writeFileSync(bodyFile, JSON.stringify({ html: page }));
    const floorPort = await freePort();
    const floor = startChild("floor (gateway + action)", [FLOOR], {
      ...process.env,
      FLOOR_ROLE: "all",
      FLOOR_BODY: bodyFile,
      PORT: String(floorPort),
      HOST: "127.0.0.1",
      TRANSPORTER: "",
      NAMESPACE: `bench-app-floor-${randomBytes(4).toString("hex")}`,
    });
    children.push(floor);
    const floorUrl = `http://127.0.0.1:${floorPort}/v1/spaces/x`;
    await waitUntil("the floor", async () => (await http("GET", floorUrl)).status === 200, START_DEADLINE_MS, [floor]);
    const floorMs = await timeGets([floorUrl], RUNS, 200);

    const p50 = pct(warm, 50);
    const rows: Array<[string, string, string]> = [
      [`warm \`GET /s/{space}/{path}\` with a session cookie, p50 (${RUNS} sequential requests over ${DISTINCT} random pages, ~${Math.round(avgBytes / 1024)} KB of HTML each, after one warm-up pass)`, `${f1(p50)} ms`, `≤ 20 ms: ${p50 <= 20 ? "met" : "**not met**"}`],
      ["warm p90 / p99 of the same", `${f1(pct(warm, 90))} / ${f1(pct(warm, 99))} ms`, "–"],
      ["first page after signing in (reads the 10,000-page tree, renders the page)", `${Math.round(coldMs)} ms`, "–"],
      ["second page (tree kept, page rendered)", `${f1(secondMs)} ms`, "–"],
      [`floor: bare moleculer-web answering the same HTML as JSON, p50 / p90 (${RUNS} requests)`, `${f1(pct(floorMs, 50))} / ${f1(pct(floorMs, 90))} ms`, "–"],
    ];
    const section = [
      `### App page render (issue 29)`,
      "",
      `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/app-render.js\` (\`npm run bench:app -w @docshelf/bench\`): the embedded system`,
      `(\`NODE_ENV=test\`, its own temp \`DATA_DIR\`), one space of ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB of markdown, the large-space`,
      "builder of `content-large.js`), signed in to the app through its sign-in form with an API token, then GETs of",
      "the space's pages (`/s/{space}/{path}`: session and token check, space, tree, page, comments, change requests, render)",
      "one at a time with the session cookie from the bench process (`node:http`, default agent) on 127.0.0.1.",
      `Node ${process.version}; the machine is shared (other sessions' processes were running).`,
      "",
      "| measure | value | target |",
      "| --- | ---: | --- |",
      ...rows.map(([m, v, target]) => `| ${m} | ${v} | ${target} |`),
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (WRITE) process.stdout.write(`wrote ${writeSection(section)}\n`);
  } finally {
    for (const child of children) await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
}

runBench("app-render", WATCHDOG_MS, main);
