// Live collaboration in the block editor (services/app/README.md, "Live collaboration"), in Chromium: two
// people open the same page of the same change request and type at once; each sees the other's text and
// cursor with their name, and the change request ends up with both texts (saved once, by one editor, no
// doubled seed). An edit made through the API to the open page reaches both editors. At the WebSocket (the
// gateway's relay): no session, another organization's user, a reader, a foreign page (Origin), a wrong
// CSRF token and a missing subprotocol are refused before any frame. Over NATS the system has two gateway
// processes and each person's browser talks to a different one: the relay's broadcast makes them meet. A table
// edited by both, one of them offline, is one even table for both once they meet again.
import { request } from "node:http";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { BrowserContext, Page, WebSocketRoute } from "playwright-core";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { addMember, createUser, startNats, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, signInContext, watch, type ScriptTrace } from "./browser";
import { start, type Mode } from "./modes";
import { Browser, appWorld, csrfOf, pathOf, signIn, type AppWorld } from "./app-fixtures";

const suites = browserSuites("the live collaboration browser suite");

/** Over NATS: two gateways, each in a process of its own, and the other services in a third. */
const GROUPS: ServiceName[][] = [["gateway"], ["gateway"], ALL_SERVICES.filter((s) => s !== "gateway")];

async function system(mode: Mode): Promise<{ sys: RunningSystem; urls: [string, string] }> {
  if (mode === "embedded") {
    const sys = await start(mode);
    return { sys, urls: [sys.url, sys.url] };
  }
  const sys = await startNats({ processes: GROUPS, gatewayPerPort: true, env: { SITE_RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_PER_MINUTE: "0" } });
  return { sys, urls: [sys.urls[0], sys.urls[1]] };
}

/** A WebSocket upgrade to the relay, answered with its HTTP status (101 when it opened; then closed at once). */
function upgrade(base: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, {
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        ...headers,
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

suites("live collaboration in the block editor over %s", (mode) => {
  let sys: RunningSystem;
  let urls: [string, string];
  let w: AppWorld;
  let carol: TestUser;
  let browsers: Array<Awaited<ReturnType<typeof launchBrowser>>> = [];
  let contexts: BrowserContext[];

  beforeAll(async () => {
    ({ sys, urls } = await system(mode));
    // Over NATS the two people's browsers talk to two gateway processes.
    if (mode === "nats") expect(new URL(urls[0]).port).not.toBe(new URL(urls[1]).port);
    w = await appWorld(sys);
    carol = await createUser(sys.admin, { displayName: "Carol" });
    await addMember(w.alice.api, w.orgId, carol.email, "edit");
    browsers = [await launchBrowser(urls[0], [urls[1]]), await launchBrowser(urls[1], [urls[0]])];
    contexts = browsers.map((b) => b.context);
    await signInContext(contexts[0], urls[0], w.alice.token);
    await signInContext(contexts[1], urls[1], carol.token);
  }, 180_000);

  afterAll(async () => {
    for (const b of browsers) await b.close();
    await sys?.stop();
  });

  async function changeRequest(subject: string): Promise<{ path: string; number: string }> {
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBeLessThan(300);
    return { path: pathOf(cr.body.urls.app), number: String(cr.body.number) };
  }

  async function openEditor(who: 0 | 1, crPath: string): Promise<{ page: Page; trace: ScriptTrace; words: string[] }> {
    const page = await contexts[who].newPage();
    const trace = watch(page);
    // The relay's text frames this page receives: its hello, who left, and the word that the content changed.
    const words: string[] = [];
    page.on("websocket", (ws) => ws.on("framereceived", (frame) => typeof frame.payload === "string" && words.push(frame.payload)));
    await page.goto(`${urls[who]}${crPath}/welcome?edit=blocks`);
    await page.waitForSelector('#editor-app[data-ready="true"]');
    await page.waitForSelector('#editor-app[data-ready="true"][data-live="true"]');
    return { page, trace, words };
  }

  /** The revisions the relay said the change request's content moved to, as a page heard them. */
  const changedWords = (words: string[]) => words.map((w) => JSON.parse(w) as { type: string; revision?: string }).filter((w) => w.type === "changed").map((w) => w.revision);

  async function storedMarkdown(number: string): Promise<string> {
    const md = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
    expect(md.status).toBe(200);
    return md.body.markdown as string;
  }

  /** Waits (polling the API) until the change request's page holds every text; its last Markdown. */
  async function storedWith(number: string, texts: string[]): Promise<string> {
    let markdown = "";
    for (let i = 0; i < 120; i++) {
      markdown = await storedMarkdown(number);
      if (texts.every((t) => markdown.includes(t))) return markdown;
      await new Promise((r) => setTimeout(r, 250));
    }
    return markdown;
  }

  const count = (text: string, part: string) => text.split(part).length - 1;

  test("two people type into the same page at once: each sees the other's text and cursor, and the change request has both", async () => {
    const cr = await changeRequest("Written together");
    const alice = await openEditor(0, cr.path);
    const carolEditor = await openEditor(1, cr.path);
    // One shared document: the stored page once, however many opened it (no doubled seed).
    for (const { page } of [alice, carolEditor]) {
      await page.waitForSelector('.editor-content p:has-text("starts here")');
      expect(await page.locator('.editor-content p:has-text("starts here")').count()).toBe(1);
    }
    // Presence: each sees who else is on the page.
    await alice.page.waitForSelector('#editor-people li:has-text("Carol")');
    await carolEditor.page.waitForSelector('#editor-people li:has-text("Alice")');

    // Alice at the end of the page, Carol at its start, typing at the same time.
    await alice.page.click(".editor-content");
    await alice.page.keyboard.press("Control+End");
    await alice.page.keyboard.press("Enter");
    await carolEditor.page.click(".editor-content");
    await carolEditor.page.keyboard.press("Control+Home");
    await Promise.all([
      alice.page.keyboard.type("Alpha line typed by Alice", { delay: 15 }),
      carolEditor.page.keyboard.type("Bravo line typed by Carol", { delay: 15 }).then(() => carolEditor.page.keyboard.press("Enter")),
    ]);
    await alice.page.waitForSelector('.editor-content p:has-text("Bravo line typed by Carol")');
    await carolEditor.page.waitForSelector('.editor-content p:has-text("Alpha line typed by Alice")');
    // Each sees the other's cursor, labelled with their name.
    await alice.page.waitForSelector('.collab-cursor .collab-name:has-text("Carol")');
    await carolEditor.page.waitForSelector('.collab-cursor .collab-name:has-text("Alice")');
    await alice.page.screenshot({ path: join(ARTIFACTS, `editor-collab-${mode}-alice.png`), fullPage: true });

    // The change request holds both lines, once each, and the page's title once.
    const markdown = await storedWith(cr.number, ["Alpha line typed by Alice", "Bravo line typed by Carol"]);
    expect(markdown).toContain("Alpha line typed by Alice");
    expect(markdown).toContain("Bravo line typed by Carol");
    expect(count(markdown, "Alpha line typed by Alice")).toBe(1);
    expect(count(markdown, "The **handbook** starts here.")).toBe(1);
    for (const { trace } of [alice, carolEditor]) {
      expect(trace.errors).toEqual([]);
      expect(trace.dialogs).toEqual([]);
      expect(trace.console.filter((line) => /Content.Security.Policy|WebSocket/i.test(line))).toEqual([]);
    }

    // An edit through the API to the open page reaches both editors (and is not overwritten by their saves).
    const update = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests/${cr.number}/content`, {
      changes: [{ operation: "update_page", page: await pageId(cr.number), document: { markdown: `${markdown.trimEnd()}\n\nCharlie line from the API\n` } }],
    });
    expect(update.status).toBeLessThan(300);
    // Both heard it from the relay (Carol's gateway over NATS is another process than the API's caller's).
    for (const { words } of [alice, carolEditor]) for (let i = 0; i < 100 && !changedWords(words).includes(update.body.revision); i++) await new Promise((r) => setTimeout(r, 100));
    expect(changedWords(alice.words)).toContain(update.body.revision);
    expect(changedWords(carolEditor.words)).toContain(update.body.revision);
    await alice.page.waitForSelector('.editor-content p:has-text("Charlie line from the API")', { timeout: 30_000 });
    await carolEditor.page.waitForSelector('.editor-content p:has-text("Charlie line from the API")', { timeout: 30_000 });
    await alice.page.keyboard.type(" and more");
    const after = await storedWith(cr.number, ["Charlie line from the API", " and more"]);
    expect(after).toContain(" and more");
    expect(after).toContain("Charlie line from the API");
    expect(after).toContain("Bravo line typed by Carol");
    expect(count(after, "Charlie line from the API")).toBe(1);

    await alice.page.close();
    await carolEditor.page.close();
  });

  test("an edit through the API reaches an open editor at once, on the relay's word, with no poll", async () => {
    const cr = await changeRequest("Changed through the API");
    const editor = await openEditor(1, cr.path);
    // The editor's questions for the page as stored (`?edit=state`): one when it opens, then only when told.
    const asked: number[] = [];
    editor.page.on("request", (req) => {
      if (/[?&]edit=state/.test(req.url())) asked.push(Date.now());
    });
    await editor.page.waitForSelector('#save-status[data-state="saved"]');
    const markdown = await storedMarkdown(cr.number);
    // Quiet: no question while nothing changes (the fallback check is a minute away; the poll was every 3 s).
    await editor.page.waitForTimeout(1000);
    asked.length = 0;
    await editor.page.waitForTimeout(4000);
    expect(asked).toEqual([]);
    const update = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests/${cr.number}/content`, {
      changes: [{ operation: "update_page", page: await pageId(cr.number), document: { markdown: `${markdown.trimEnd()}\n\nDelta line from the API\n` } }],
    });
    expect(update.status).toBeLessThan(300);
    await editor.page.waitForSelector('.editor-content p:has-text("Delta line from the API")', { timeout: 20_000 });
    expect(changedWords(editor.words)).toEqual([update.body.revision]);
    expect(asked.length).toBe(1);
    // Typing after it saves on top (no conflict, nothing lost).
    await editor.page.click(".editor-content");
    await editor.page.keyboard.press("Control+End");
    await editor.page.keyboard.type(" Echo");
    const after = await storedWith(cr.number, ["Delta line from the API Echo"]);
    expect(after).toContain("Delta line from the API Echo");
    expect(count(after, "Delta line from the API")).toBe(1);
    expect(editor.trace.errors).toEqual([]);
    await editor.page.close();
  }, 120_000);

  async function pageId(number: string): Promise<string> {
    const page = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome`);
    expect(page.status).toBe(200);
    return page.body.id as string;
  }

  /**
   * Carol opens the change request's page on the second gateway, live with Alice, then goes offline: her connection
   * to the relay goes through the test, which cuts it and refuses new ones until `online()`.
   */
  async function carolGoesOffline(crPath: string, alicePage: Page): Promise<{ page: Page; trace: ScriptTrace; online: () => void; offlineSaves: string[] }> {
    const page = await contexts[1].newPage();
    const trace = watch(page);
    let offline = false;
    // The saves her page posted while it was offline (it was told to hold them: only its WebSocket is cut).
    const offlineSaves: string[] = [];
    page.on("request", (req) => {
      if (offline && req.method() === "POST" && new URL(req.url()).pathname === `${crPath}/welcome`) offlineSaves.push(req.url());
    });
    const open: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/app\/collab\//, async (ws) => {
      if (offline) return ws.close({ code: 4000, reason: "offline" });
      open.push(ws, ws.connectToServer());
    });
    await page.goto(`${urls[1]}${crPath}/welcome?edit=blocks`);
    await page.waitForSelector('#editor-app[data-ready="true"][data-live="true"]');
    await alicePage.waitForSelector('#editor-people li:has-text("Carol")');
    offline = true;
    for (const ws of open.splice(0)) await ws.close({ code: 4000, reason: "offline" });
    await page.waitForSelector('#editor-app[data-live-state="offline"]');
    return {
      page,
      trace,
      offlineSaves,
      online: () => {
        offline = false;
      },
    };
  }

  test("edits made offline merge when the connection returns", async () => {
    const cr = await changeRequest("Offline for a while");
    const alice = await openEditor(0, cr.path);
    const { page, trace, online, offlineSaves } = await carolGoesOffline(cr.path, alice.page);
    // Carol is gone from Alice's page at once (the relay says who left).
    await alice.page.waitForSelector('#editor-people li:has-text("Carol")', { state: "detached" });
    // Both type meanwhile.
    await page.click(".editor-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Typed by Carol while offline");
    await alice.page.click(".editor-content");
    await alice.page.keyboard.press("Control+Home");
    await alice.page.keyboard.type("Typed by Alice meanwhile");
    await alice.page.keyboard.press("Enter");
    expect(await page.locator('.editor-content p:has-text("Typed by Alice meanwhile")').count()).toBe(0);
    // Alice's edit is stored before Carol asks to save hers: offline, Carol's editor keeps it for the room.
    await storedWith(cr.number, ["Typed by Alice meanwhile"]);
    await page.keyboard.press("Control+s");
    await page.waitForSelector('#save-status[data-state="offline"]');
    online();
    await alice.page.waitForSelector('.editor-content p:has-text("Typed by Carol while offline")', { timeout: 30_000 });
    await page.waitForSelector('.editor-content p:has-text("Typed by Alice meanwhile")', { timeout: 30_000 });
    const markdown = await storedWith(cr.number, ["Typed by Carol while offline", "Typed by Alice meanwhile"]);
    expect(markdown).toContain("Typed by Carol while offline");
    expect(markdown).toContain("Typed by Alice meanwhile");
    expect(count(markdown, "The **handbook** starts here.")).toBe(1);
    expect(count(markdown, "Typed by Alice meanwhile")).toBe(1);
    expect(count(markdown, "Typed by Carol while offline")).toBe(1);
    expect(offlineSaves).toEqual([]);
    expect(trace.errors).toEqual([]);
    await alice.page.close();
    await page.close();
  });

  test("a column added by one person while the other, offline, added a row: one even table for both, no cell twice", async () => {
    const cr = await changeRequest("A table for two");
    const table = "| Item | Count |\n| --- | --- |\n| pens | 2 |\n";
    expect((await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests/${cr.number}/content`, { changes: [{ operation: "update_page", page: await pageId(cr.number), document: { markdown: `Stock.\n\n${table}` } }] })).status).toBeLessThan(300);
    const alice = await openEditor(0, cr.path);
    const cell = (row: number, column: number) => `.editor-content table.table tr:nth-child(${row}) > :nth-child(${column})`;
    const cells = (p: Page) => p.locator(".editor-content table.table tr > *").count();
    const { page, trace, online, offlineSaves } = await carolGoesOffline(cr.path, alice.page);
    // Alice adds a column, and it is stored; Carol, offline, adds a row and asks to save it (Mod-s). Had her
    // editor saved, the answer (a conflict with Alice's table) would have brought Alice's column in a second
    // time when the two met again, and dropped Carol's row; it keeps the row for the room instead.
    await alice.page.click(cell(2, 2));
    await alice.page.click('.block-bar:not([hidden]) button[data-action="column-right"]');
    await storedWith(cr.number, ["| Item | Count |  |"]);
    await page.click(cell(2, 1));
    await page.click('.block-bar:not([hidden]) button[data-action="row-below"]');
    expect([await cells(alice.page), await cells(page)]).toEqual([6, 6]);
    await page.keyboard.press("Control+s");
    await page.waitForSelector('#save-status[data-state="offline"]');
    online();
    // Back: each has the other's edit; the table is uneven (Carol's row is short) but no one filled it in twice.
    await alice.page.waitForSelector(cell(3, 1));
    await page.waitForSelector(cell(1, 3));
    // Alice types in Carol's row: her edit evens the table, and Carol gets it so.
    await alice.page.click(cell(3, 1));
    await alice.page.keyboard.type("ink");
    await page.waitForSelector(`${cell(3, 1)}:has-text("ink")`);
    await page.waitForSelector(cell(3, 3));
    for (const p of [alice.page, page]) {
      expect(await p.locator(".editor-content table.table tr").count()).toBe(3);
      expect(await cells(p)).toBe(9);
    }
    const markdown = await storedWith(cr.number, ["| ink |"]);
    expect(markdown).toContain("| Item | Count |  |\n| --- | --- | --- |\n| pens | 2 |  |\n| ink |  |  |");
    expect(offlineSaves).toEqual([]);
    expect(trace.errors).toEqual([]);
    expect(alice.trace.errors).toEqual([]);
    await alice.page.close();
    await page.close();
  });

  test("a check for edits elsewhere whose answer crosses a save is dropped: the next save is no conflict and merges nothing", async () => {
    const cr = await changeRequest("Checked while saving");
    const page = await contexts[0].newPage();
    const trace = watch(page);
    const saves: number[] = [];
    page.on("response", (res) => {
      if (res.request().method() === "POST" && new URL(res.url()).pathname.endsWith(`${cr.path}/welcome`)) saves.push(res.status());
    });
    // The first check is answered as the page was when it asked (no save yet), but handed to the page only after
    // a save made a newer revision: the answer names an older revision than the editor's own save made.
    let held: (() => void) | undefined;
    const asked = new Promise<void>((resolve) => {
      void page.route(/[?&]edit=state/, async (route) => {
        if (held !== undefined || saves.length) return route.continue();
        const answer = await route.fetch();
        const body = await answer.text();
        await new Promise<void>((release) => {
          held = release;
          resolve();
        });
        await route.fulfill({ response: answer, body });
      });
    });
    await page.goto(`${urls[0]}${cr.path}/welcome?edit=blocks`);
    await page.waitForSelector('#editor-app[data-ready="true"][data-live="true"]');
    await asked;
    await page.click(".editor-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Typed while a check waited.");
    await page.keyboard.press("Control+s");
    await page.waitForSelector('#save-status[data-state="saved"]');
    expect(saves).toEqual([200]);
    held!();
    // The stale answer arrives; then more typing and a second save.
    await page.waitForTimeout(300);
    await page.keyboard.type(" And after it.");
    await page.keyboard.press("Control+s");
    for (let i = 0; i < 100 && saves.length < 2; i++) await page.waitForTimeout(100);
    await page.waitForSelector('#save-status[data-state="saved"]');
    const markdown = await storedWith(cr.number, ["Typed while a check waited. And after it."]);
    expect(markdown).toContain("Typed while a check waited. And after it.");
    // No save met a conflict (a 409 would mean the editor had taken the stale revision for its own), and nothing was merged in.
    expect(saves.filter((status) => status !== 200)).toEqual([]);
    expect(await page.getAttribute("#save-status", "data-state")).not.toBe("merged");
    expect(trace.errors).toEqual([]);
    await page.close();
  }, 120_000);

  test("the relay refuses, before any frame, who may not edit the page, and a page not the app's own", async () => {
    const cr = await changeRequest("Guarded");
    const path = `/app/collab/${w.spaceId}/${cr.number}/welcome`;
    const reader = await createUser(sys.admin, { displayName: "Reader" });
    await addMember(w.alice.api, w.orgId, reader.email, "read");
    const [alice, readerBrowser, bob] = [new Browser(urls[0]), new Browser(urls[0]), new Browser(urls[0])];
    await Promise.all([signIn(alice, w.alice.token), signIn(readerBrowser, reader.token), signIn(bob, w.bob.token)]);
    const tokenOf = async (b: Browser) => csrfOf((await b.get("/app/account")).text);
    const asked = async (b: Browser | null, csrf: string, extra: Record<string, string> = {}) =>
      upgrade(urls[0], path, {
        Origin: urls[0],
        "Sec-WebSocket-Protocol": `docshelf-collab, csrf.${csrf}`,
        ...(b ? { Cookie: b.cookieHeader() } : {}),
        ...extra,
      });
    const aliceCsrf = await tokenOf(alice);
    // Alice, an editor, gets in.
    expect(await asked(alice, aliceCsrf)).toBe(101);
    // No session; another session's token; no subprotocol; a page of another origin.
    expect(await asked(null, aliceCsrf)).toBe(401);
    expect(await asked(alice, await tokenOf(readerBrowser))).toBe(403);
    expect(await asked(alice, aliceCsrf, { "Sec-WebSocket-Protocol": "chat" })).toBe(403);
    expect(await asked(alice, aliceCsrf, { Origin: "https://evil.example" })).toBe(403);
    // A reader of the organization may not edit: refused. Another organization's user: not found.
    expect(await asked(readerBrowser, await tokenOf(readerBrowser))).toBe(403);
    expect(await asked(bob, await tokenOf(bob))).toBe(404);
    // A change request or page that is not there, and a path that is not the relay's.
    expect(await upgrade(urls[0], `/app/collab/${w.spaceId}/99999/welcome`, { Origin: urls[0], Cookie: alice.cookieHeader(), "Sec-WebSocket-Protocol": `docshelf-collab, csrf.${aliceCsrf}` })).toBe(404);
    expect(await upgrade(urls[0], `/app/collab/${w.spaceId}/${cr.number}/no-such-page`, { Origin: urls[0], Cookie: alice.cookieHeader(), "Sec-WebSocket-Protocol": `docshelf-collab, csrf.${aliceCsrf}` })).toBe(404);
    expect(await upgrade(urls[0], "/v1/user", { Origin: urls[0] })).toBe(404);
    // Another protocol asked for on a plain GET (curl --http2's h2c) is still answered as the GET it is.
    expect(await upgrade(urls[0], "/health", { Upgrade: "h2c", Connection: "Upgrade, HTTP2-Settings", "HTTP2-Settings": "AAMAAABkAARAAAAAAAIAAAAA" })).toBe(200);
  });
});
