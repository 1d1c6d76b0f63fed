// What the page benches (site-serve.ts, app-render.ts) share: the embedded system with a large space in
// it, timed sequential GETs, the floor answering the same HTML, and writing a bench's section into
// BENCHMARKS.md between its own markers.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, http, isRunning, startChild, waitUntil, type Child } from "./procs";
import { insertLargeSpace, now } from "./large-space";
import { FLOOR, MAIN, ROOT, START_DEADLINE_MS } from "./systems";

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

type Json = Record<string, unknown>;

export interface LargeSystem {
  base: string;
  adminToken: string;
  /** A JSON request as the instance administrator; throws unless the status is one of `expect`. */
  json(method: string, path: string, body?: unknown, expect?: number[], timeoutMs?: number): Promise<Json>;
  orgId: string;
  spaceId: string;
  /** Every page's path, in tree order. */
  paths: string[];
  /** Markdown bytes inserted, and how long the insert took. */
  bytes: number;
  insertMs: number;
  /** Children started for this bench (the system, floors added later); all stopped by `stop`. */
  children: Child[];
  stop(): Promise<void>;
}

/**
 * Starts the embedded system (every service in one process, `NODE_ENV=test`, its own temp `DATA_DIR`, no
 * rate limit that could answer 429) and fills one space of an organization with `pages` pages of the
 * large-space builder in batches of `batch`.
 */
export async function largeEmbeddedSystem(label: string, pages: number, batch: number): Promise<LargeSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), `docshelf-bench-${label}-`));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${adminToken}` };
  const children: Child[] = [];
  const stop = async () => {
    for (const child of children) await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const proc = startChild("real (all services)", [MAIN], embeddedServerEnv({ dataDir, adminToken, port, label }, {
      SITE_RATE_LIMIT_PER_MINUTE: "10000000",
      JSON_BODY_LIMIT_BYTES: String(16 * 1024 * 1024),
      REQUEST_TIMEOUT_MS: "120000",
    }));
    children.push(proc);
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, [proc]);
    const json = async (method: string, path: string, body?: unknown, expect = [200, 201], timeoutMs = 60_000): Promise<Json> => {
      const res = await http(method, `${base}${path}`, headers, body, timeoutMs);
      if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
      return JSON.parse(res.body.toString() || "null") as Json;
    };
    const orgId = (await json("POST", "/v1/orgs", { title: "Acme" })).id as string;
    const spaceId = (await json("POST", `/v1/orgs/${orgId}/spaces`, { title: "Large" })).id as string;
    const insertStart = now();
    const bytes = await insertLargeSpace((path, body) => json("POST", path, body, [201], 120_000), spaceId, pages, batch, () => {
      if (!isRunning(proc)) throw new Error(`the system exited:\n${proc.tail()}`);
    });
    const insertMs = now() - insertStart;
    const tree = (await json("GET", `/v1/spaces/${spaceId}/content`)) as unknown as { pages: TreePage[] };
    const all = paths(tree.pages, []);
    if (all.length !== pages) throw new Error(`the space lists ${all.length} pages, expected ${pages}`);
    process.stderr.write(`inserted ${pages} pages (${(bytes / 1e6).toFixed(1)} MB markdown) in ${Math.round(insertMs)} ms\n`);
    return { base, adminToken, json, orgId, spaceId, paths: all, bytes, insertMs, children, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Sequential GETs of `urls` (round robin) with these headers, after one warm-up pass; latencies in ms. */
export async function timeGets(urls: string[], runs: number, expect: number, headers: Record<string, string> = {}): Promise<number[]> {
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

/**
 * The floor of a page bench: a bare moleculer-web action (floor.js) answering `html` with no work, started
 * beside `system` (and stopped with it); answers the latencies of `runs` sequential GETs of it.
 */
export async function timeHtmlFloor(system: LargeSystem, label: string, html: string, runs: number): Promise<number[]> {
  const floorDir = mkdtempSync(join(tmpdir(), `docshelf-bench-${label}-floor-`));
  try {
    const bodyFile = join(floorDir, "page.json");
    writeFileSync(bodyFile, JSON.stringify({ html }));
    const floorPort = await freePort();
    const floor = startChild("floor (gateway + action)", [FLOOR], {
      ...process.env,
      FLOOR_ROLE: "all",
      FLOOR_BODY: bodyFile,
      PORT: String(floorPort),
      HOST: "127.0.0.1",
      TRANSPORTER: "",
      NAMESPACE: `bench-${label}-floor-${randomBytes(4).toString("hex")}`,
    });
    system.children.push(floor);
    const floorUrl = `http://127.0.0.1:${floorPort}/v1/spaces/x`;
    await waitUntil("the floor", async () => (await http("GET", floorUrl)).status === 200, START_DEADLINE_MS, [floor]);
    return await timeGets([floorUrl], runs, 200);
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
  }
}

/**
 * The environment of a one-process server for a bench (every service, the embedded store in `dataDir`, on
 * 127.0.0.1:`port`, `NODE_ENV=test` for the test-only routes that fill it), its rate limits out of the way;
 * `extra` on top.
 */
export function embeddedServerEnv(options: { dataDir: string; adminToken: string; port: number; label: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "test",
    DATA_DIR: options.dataDir,
    ADMIN_TOKEN: options.adminToken,
    LOGLEVEL: "warn",
    NAMESPACE: `bench-${options.label}-${randomBytes(4).toString("hex")}`,
    HOST: "127.0.0.1",
    PORT: String(options.port),
    PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    MONGO_URL: "",
    SERVICES: "all",
    TRANSPORTER: "",
    RATE_LIMIT_PER_MINUTE: "10000000",
    RATE_LIMIT_ANON_PER_MINUTE: "10000000",
    ...extra,
  };
}

/**
 * A bench's BENCHMARKS.md section: its heading, "Measured <now> with `node bench/dist/<name>.js` (`<command>`)"
 * followed by `how` (what was measured, how, against which baseline), the Node version, and a table of
 * measure / value / target rows. Printed, and written between its markers unless `write` is false.
 */
export function reportSection(name: string, heading: string, command: string, how: string[], rows: Array<[string, string, string]>, write: boolean): void {
  const section = [
    heading,
    "",
    `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/${name}.js\` (\`${command}\`): ${how[0]}`,
    ...how.slice(1),
    `Node ${process.version}; the machine is shared (other sessions' processes were running).`,
    "",
    "| measure | value | target |",
    "| --- | ---: | --- |",
    ...rows.map(([m, v, target]) => `| ${m} | ${v} | ${target} |`),
  ].join("\n");
  process.stdout.write(`${section}\n`);
  if (write) process.stdout.write(`wrote ${writeMarkedSection(name, section)}\n`);
}

/** Replaces (or adds, at the end of the notes) BENCHMARKS.md's section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function writeMarkedSection(name: string, section: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const notesEnd = "<!-- notes:end -->";
  const file = join(ROOT, "BENCHMARKS.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const block = `${start}\n${section}\n${end}`;
  const at = text.indexOf(start);
  const until = text.indexOf(end);
  let next: string;
  if (at >= 0 && until > at) next = `${text.slice(0, at)}${block}${text.slice(until + end.length)}`;
  else if (text.includes(notesEnd)) next = text.replace(notesEnd, `\n${block}\n${notesEnd}`);
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
export async function appSignIn(base: string, token: string): Promise<string> {
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

/** A page of `blocks` blocks of the kinds a documentation page has, `variant` changing one word in each. */
export function pageMarkdown(blocks: number, variant: number): string {
  const kinds = [
    (i: number) => `## Section ${i} v${variant}`,
    (i: number) => `Paragraph ${i} with **bold**, _italic_, \`code\` and a [link](https://example.com/${i}) (v${variant}).`,
    (i: number) => `* item ${i} one\n* item ${i} two v${variant}`,
    (i: number) => `{% hint style="info" %}\nHint ${i} v${variant}.\n{% endhint %}`,
    (i: number) => `\`\`\`js\nconst x${i} = ${variant};\nconsole.log(x${i});\n\`\`\``,
    (i: number) => `> A quote ${i} v${variant}.`,
  ];
  return Array.from({ length: blocks }, (_, i) => kinds[i % kinds.length](i)).join("\n\n") + "\n";
}
