// Headless Chromium for the browser suites (Debian's `chromium`, driven by playwright-core): finding it,
// declaring the suites (skipped and said so without a browser; a failure with REQUIRE_BROWSER=1),
// launching a context that reaches only the system under test, and watching what a page's script did.
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { appWorld, type AppWorld } from "./app-fixtures";
import { BROWSER_MODES, start, type Mode } from "./modes";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
/** Where the suites write their screenshots. */
export const ARTIFACTS = join(__dirname, "..", "artifacts");
const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether Chromium can be started: looked up when the suite is collected, so a browser installed later in a long run is not seen. */
function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `describe.each(BROWSER_MODES)` for a browser suite (one mode: see modes.ts). Without a browser: skipped (and said so loudly), or, with
 * REQUIRE_BROWSER=1, not declared at all and one failing test in its place, so the failure is the only
 * thing CI counts. `what` names the suite in that message.
 */
export function browserSuites(what: string): (name: string, fn: (mode: Mode) => void) => void {
  if (executable(CHROMIUM)) return describe.each(BROWSER_MODES);
  const requireBrowser = process.env.REQUIRE_BROWSER === "1";
  const banner = "!".repeat(78);
  const message = `Chromium is not at ${CHROMIUM} (set CHROMIUM_PATH): ${what} DID NOT RUN.`;
  console.warn(`\n${banner}\n${message}\n${banner}\n`);
  if (requireBrowser) {
    test("a browser is available (REQUIRE_BROWSER=1)", () => {
      throw new Error(`${message} REQUIRE_BROWSER=1 makes this a failure.`);
    });
    return () => undefined;
  }
  return describe.skip.each(BROWSER_MODES);
}

/** A fresh browser profile whose requests anywhere but `origin` are refused: nothing leaves the machine. */
/** A Chromium whose pages reach only `origin` (and the `alsoAllowed` origins, e.g. a loopback API a test starts): anything else is a 404. */
export async function launchBrowser(origin: string, alsoAllowed: string[] = []): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "docshelf-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: BROWSER_ARGS,
    chromiumSandbox: false,
    viewport: { width: 1280, height: 900 },
  });
  await context.route(
    (url) => url.origin !== new URL(origin).origin && !alsoAllowed.includes(url.origin),
    (route) => route.fulfill({ status: 404, body: "" }),
  );
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did that only script could do: dialogs, errors, console output. */
export interface ScriptTrace {
  dialogs: string[];
  errors: string[];
  console: string[];
}

export function watch(page: Page): ScriptTrace {
  const trace: ScriptTrace = { dialogs: [], errors: [], console: [] };
  page.on("dialog", (dialog) => {
    trace.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on("pageerror", (err) => trace.errors.push(err.message));
  page.on("console", (msg) => {
    // A refused request (an external image, a missing favicon) is the network's message, not a script's.
    if (!msg.text().startsWith("Failed to load resource")) trace.console.push(`${msg.type()}: ${msg.text()}`);
  });
  return trace;
}

/** Opens the app's `url` signed out, which leads to the sign-in page; signs in there with an API token and waits to be back at `url`. */
export async function signInWithToken(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.waitForURL(/\/app\/sign-in\?return=/);
  await page.fill("#token", token);
  await page.click('button:text-is("Sign in")');
  await page.waitForURL(url);
}

/** Signs the context's browser in to the app with an API token (its sign-in page), so its next pages are signed in. */
export async function signInContext(context: BrowserContext, origin: string, token: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${origin}/app/sign-in`);
  await page.fill("#token", token);
  await page.click('button:text-is("Sign in")');
  await page.waitForURL(`${origin}/app`);
  await page.close();
}

/**
 * Waits until `expression` is true in the page, asked from outside through the DevTools protocol's evaluate, which a
 * page's CSP does not govern. page.waitForFunction runs its predicate with the page's own eval once the first check
 * fails, and the app's and the sites' `script-src 'self'` refuses that (an EvalError, only when the page is slow).
 */
export async function waitForTrue(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate<boolean>(expression).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What `aliceInChromium` fills in before the suite's tests. */
export interface AliceInChromium {
  sys: RunningSystem;
  w: AppWorld;
  context: BrowserContext;
  /** A new tab on the block editor of the change request at `crPath` (its Welcome page), once the editor is ready. */
  openEditor(crPath: string): Promise<{ page: Page; trace: ScriptTrace }>;
  /** Waits until the editor says everything is saved (a selector: the page's CSP refuses evaluated strings). */
  saved(page: Page): Promise<void>;
}

/**
 * The editor suites' setting: the shared system of `mode`, the app's world (appWorld) and one Chromium signed in
 * as Alice, made before the suite's tests (its fields are set then) and closed after them.
 */
export function aliceInChromium(mode: Mode): AliceInChromium {
  const world = {
    async openEditor(crPath: string) {
      const page = await world.context.newPage();
      const trace = watch(page);
      await page.goto(`${world.sys.url}${crPath}/welcome?edit=blocks`);
      await page.waitForSelector('#editor-app[data-ready="true"]');
      return { page, trace };
    },
    async saved(page: Page) {
      await page.waitForSelector('#save-status[data-state="saved"]', { timeout: 20_000 });
    },
  } as AliceInChromium;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    world.sys = await start(mode);
    world.w = await appWorld(world.sys);
    browser = await launchBrowser(world.sys.url);
    world.context = browser.context;
    await signInContext(world.context, world.sys.url, world.w.alice.token);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await world.sys?.stop();
  });
  return world;
}
