// Live collaboration bench (issue 38): how long a keystroke typed in one browser's block editor takes to show
// in another browser's editor of the same page, through the gateway's WebSocket relay, in headless Chromium,
// against a baseline of the same run: one HTTP round trip (`fetch` of the app's stylesheet, no-store) from the
// receiving page to the same gateway. Embedded, and over NATS with the two browsers on two gateway processes.
// Target: p50 ≤ 100 ms.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `editor-collab` markers inside the notes.
//
//   npm run build && node bench/dist/editor-collab.js      (or: npm run bench:editor-collab -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_COLLAB_KEYS (timed keystrokes, 40), BENCH_MODES (embedded,nats; nats is skipped
// without a loopback NATS_URL that answers), CHROMIUM_PATH (/usr/bin/chromium), BENCH_WRITE (0: do not touch BENCHMARKS.md).
import { chromium, type Browser, type Page } from "playwright-core";
import { pct } from "./large-space";
import { appSignIn, largeEmbeddedSystem, reportSection } from "./page-bench";
import { freePort, http, isLoopback, natsReachable, startChild, waitUntil } from "./procs";
import { bounded, MAIN, MODES, NATS_URL, nodeArgs, RATE_LIMIT, runBench, START_DEADLINE_MS, startRealSystem, stopSystem, tempDir, WRITE } from "./systems";

const KEYS = bounded("BENCH_COLLAB_KEYS", 40, 5, 500);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const WATCHDOG_MS = 10 * 60_000;
const TARGET_MS = 100;

/** In the typing page: remembers when the last key went down (epoch ms, the event's own time). */
const RECORD_KEYDOWN = `document.addEventListener("keydown", (e) => { window.__lastKeyAt = performance.timeOrigin + e.timeStamp; }, true); true`;
const LAST_KEY = "window.__lastKeyAt";
/** In the receiving page: a promise of the epoch ms at which `marker` first shows in the editor. */
const seen = (marker: string) => `new Promise((resolve) => {
  const root = document.querySelector(".editor-content");
  const check = () => { if (root.textContent.includes(${JSON.stringify(marker)})) { observer.disconnect(); resolve(performance.timeOrigin + performance.now()); } };
  const observer = new MutationObserver(check);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  check();
})`;
const ROUND_TRIP = `(async () => { const t = performance.now(); await fetch("/app/style.css", { cache: "no-store" }); return performance.now() - t; })()`;

interface Measured {
  latency: number[];
  roundTrip: number[];
}

/** Two browsers on the same page (the first through `bases[0]`, the second through `bases[1]`): the keystrokes timed. */
async function measure(browser: Browser, bases: [string, string], cookie: string, pagePath: string): Promise<Measured> {
  const open = async (base: string): Promise<Page> => {
    const context = await browser.newContext();
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: base }]);
    await context.route((url) => !bases.some((b) => url.origin === new URL(b).origin), (route) => route.fulfill({ status: 404, body: "" }));
    const page = await context.newPage();
    await page.goto(`${base}${pagePath}?edit=blocks`);
    await page.waitForSelector('#editor-app[data-ready="true"][data-live="true"]');
    return page;
  };
  const typing = await open(bases[0]);
  const watching = await open(bases[1]);
  await typing.evaluate(RECORD_KEYDOWN);
  await typing.click(".editor-content");
  await typing.keyboard.press("Control+End");
  await typing.keyboard.press("Enter");
  const latency: number[] = [];
  const roundTrip: number[] = [];
  for (let i = -3; i < KEYS; i++) {
    // A marker ends with the timed key: "k{i}" is typed, then "q", whose keydown is the start.
    const marker = `k${i + 10}q`;
    await typing.keyboard.type(marker.slice(0, -1));
    const shown = watching.evaluate(seen(marker)) as Promise<number>;
    await typing.keyboard.press("q");
    const at = (await shown) - ((await typing.evaluate(LAST_KEY)) as number);
    await typing.keyboard.press("Space");
    const rt = (await watching.evaluate(ROUND_TRIP)) as number;
    // The first three warm the path (the relay's room, the script's code paths) and are not counted.
    if (i < 0) continue;
    latency.push(at);
    roundTrip.push(rt);
  }
  await typing.context().close();
  await watching.context().close();
  return { latency, roundTrip };
}

const f1 = (x: number) => x.toFixed(1);

function rowsOf(label: string, m: Measured): Array<[string, string, string]> {
  const p50 = pct(m.latency, 50);
  const base50 = pct(m.roundTrip, 50);
  return [
    [`${label}: keystroke in one browser to the other browser's editor, p50 (${KEYS} keys)`, `${f1(p50)} ms`, `≤ ${TARGET_MS} ms: ${p50 <= TARGET_MS ? "met" : "**not met**"}`],
    [`${label}: p90 of the same`, `${f1(pct(m.latency, 90))} ms`, "–"],
    [`${label}: baseline, one HTTP round trip from the receiving page to its gateway (the app's stylesheet, no-store), p50`, `${f1(base50)} ms`, "–"],
    [`${label}: ratio keystroke / round trip (p50)`, (p50 / base50).toFixed(2), "–"],
  ];
}

/** Over NATS: every service in a process of its own, and a second gateway process the second browser goes through. */
async function natsRows(browser: Browser): Promise<Array<[string, string, string]>> {
  if (!isLoopback(new URL(NATS_URL).hostname) || !(await natsReachable(NATS_URL))) return [["nats", `skipped: no NATS at ${NATS_URL}`, "–"]];
  const env = { SITE_RATE_LIMIT_PER_MINUTE: "10000000" };
  const system = await startRealSystem("nats", "collab", env);
  try {
    const port = await freePort();
    const second = `http://127.0.0.1:${port}`;
    const dataDir = tempDir("docshelf-bench-collab-gw2-");
    system.tempDirs.push(dataDir);
    const adminToken = system.headers.Authorization.slice("Bearer ".length);
    system.children.push(
      startChild("real gateway 2", nodeArgs("nats", "real-gateway-2", MAIN), {
        ...process.env,
        ...env,
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        LOGLEVEL: "warn",
        NAMESPACE: system.natsNamespace,
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: second,
        MONGO_URL: "",
        RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
        SERVICES: "gateway",
        TRANSPORTER: NATS_URL,
        NODE_ID: `${system.natsNamespace}-gateway-2`,
      }),
    );
    await waitUntil("the second gateway's /ready", async () => (await http("GET", `${second}/ready`)).status === 200, START_DEADLINE_MS, system.children);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await http(method, `${system.url}${path}`, system.headers, body, 60_000);
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
      return JSON.parse(res.body.toString() || "null") as Record<string, unknown>;
    };
    const org = await call("POST", "/v1/orgs", { title: "Acme" });
    const space = await call("POST", `/v1/orgs/${org.id as string}/spaces`, { title: "Live" });
    const cr = await call("POST", `/v1/spaces/${space.id as string}/change-requests`, { subject: "Live editing bench" });
    await call("POST", `/v1/spaces/${space.id as string}/change-requests/${cr.number as number}/content`, {
      changes: [{ operation: "insert_page", title: "Bench", document: { markdown: "A page typed into from two gateways.\n" } }],
    });
    const cookie = await appSignIn(system.url, adminToken);
    const measured = await measure(browser, [system.url, second], cookie, `/s/${space.id as string}/~/changes/${cr.number as number}/bench`);
    return rowsOf("nats, two gateway processes", measured);
  } finally {
    await stopSystem(system);
  }
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const rows: Array<[string, string, string]> = [];
  try {
    const system = await largeEmbeddedSystem("editor-collab", 1, 1);
    try {
      const { base, adminToken, json, spaceId, paths } = system;
      const cookie = await appSignIn(base, adminToken);
      const cr = (await json("POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Live editing bench" })) as { number: number };
      rows.push(...rowsOf("embedded", await measure(browser, [base, base], cookie, `/s/${spaceId}/~/changes/${cr.number}/${paths[0]}`)));
    } finally {
      await system.stop();
    }
    if (MODES.includes("nats")) rows.push(...(await natsRows(browser)));
    reportSection(
      "editor-collab",
      "### Live collaboration: a keystroke to the other browser (issue 38)",
      "npm run bench:editor-collab -w @docshelf/bench",
      [
        "the embedded",
        "system (one process, the gateway's WebSocket relay in it) and, over NATS, one process per service plus a second gateway process",
        "(the second browser goes through it: each keystroke crosses NATS as the relay's broadcast); two headless Chromium contexts (Debian's)",
        "with the same session on the same page of a change request; the time runs from the keydown event of a key in the typing page to",
        "the moment a MutationObserver in the other page sees it in its editor (both pages' clocks are the machine's:",
        "`performance.timeOrigin`). The baseline is an HTTP round trip from the receiving page to its gateway, right after each key, in the",
        "same run.",
      ],
      rows,
      WRITE,
    );
  } finally {
    await browser.close();
  }
}

runBench("editor-collab", WATCHDOG_MS, main);
