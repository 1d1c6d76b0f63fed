// A change request's page tree in Chromium (the arrange page, `…/changes/{n}/~pages`, with the app's script):
// a page dragged onto another goes before, inside or after it, as the API's tree then shows; a title renamed in
// place; a page deleted with its subpage and brought back by Undo, at its place; no serious axe-core violation.
// The keyboard's and no-script way (Up, Down, Nest, Un-nest, the rename and delete forms) is app-arrange's.
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { RunningSystem } from "@docshelf/testkit";
import { ARTIFACTS, browserSuites, launchBrowser, signInWithToken, watch } from "./browser";
import { seriousViolations } from "./axe";
import { start } from "./modes";
import { appWorld, pathOf, type AppWorld } from "./app-fixtures";

interface TreePage {
  id: string;
  title: string;
  pages?: TreePage[];
}

const suites = browserSuites("the page tree browser suite");
suites("the page tree in Chromium over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    browser = await launchBrowser(sys.url);
    const page = await browser.context.newPage();
    await signInWithToken(page, `${sys.url}${pathOf(w.urls.space)}`, w.alice.token);
    await page.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  async function changeRequest(subject: string, changes: unknown[]) {
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBe(201);
    const api = `/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}`;
    expect((await w.alice.api.post(`${api}/content`, { changes })).status).toBe(200);
    return { api, app: `/s/${w.spaceId}/~/changes/${cr.body.number}` };
  }
  async function tree(api: string): Promise<TreePage[]> {
    const res = await w.alice.api.get(`${api}/content`);
    expect(res.status).toBe(200);
    return res.body.pages;
  }
  const titles = (pages: TreePage[]): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages)] : p.title));
  const row = (title: string) => `.tree-row:has(> .page-title:text-is("${title}"))`;

  /** Drags one row onto a point of another (its top, middle or bottom) and waits for the page the move answers. */
  async function drag(page: Page, from: string, onto: string, where: "top" | "middle" | "bottom") {
    const box = await page.locator(row(onto)).boundingBox();
    if (!box) throw new Error(`no row ${onto}`);
    const y = where === "top" ? 3 : where === "bottom" ? box.height - 3 : box.height / 2;
    await Promise.all([page.waitForNavigation(), page.dragAndDrop(row(from), row(onto), { targetPosition: { x: 20, y } })]);
  }

  test("pages dragged before, inside and after others move as the API's tree shows; renamed in place; deleted and undone", async () => {
    const md = (text: string) => ({ markdown: text });
    const cr = await changeRequest("Tree", [
      { operation: "insert_page", title: "Alpha", document: md("a") },
      { operation: "insert_page", title: "Beta", document: md("b") },
      { operation: "insert_page", title: "Gamma", document: md("c") },
    ]);
    const start = titles(await tree(cr.api));
    expect(start.slice(-3)).toEqual(["Alpha", "Beta", "Gamma"]);
    const before = start.slice(0, -3);
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}${cr.app}/~pages`);
    await page.waitForSelector(`${row("Gamma")}[draggable="true"]`);

    // Gamma onto Alpha's top: before it.
    await drag(page, "Gamma", "Alpha", "top");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Gamma", "Alpha", "Beta"]);
    // Beta onto Gamma's middle: inside it.
    await drag(page, "Beta", "Gamma", "middle");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual([["Gamma", ["Beta"]], "Alpha"]);
    // Gamma (with Beta) onto Alpha's bottom: after it.
    await drag(page, "Gamma", "Alpha", "bottom");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Alpha", ["Gamma", ["Beta"]]]);
    // Never into its own subpage: nothing is posted.
    await page.dragAndDrop(row("Gamma"), row("Beta"), { targetPosition: { x: 20, y: 5 } });
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Alpha", ["Gamma", ["Beta"]]]);
    await page.screenshot({ path: join(ARTIFACTS, `app-tree-${mode}.png`), fullPage: true });

    // Rename in place: Escape gives up, Enter saves.
    await page.click(`${row("Alpha")} summary`);
    await page.keyboard.type("Nope");
    await page.keyboard.press("Escape");
    expect(await page.locator(".title-edit").count()).toBe(0);
    await page.dblclick(`${row("Alpha")} > .page-title`);
    await page.keyboard.press("Control+a");
    await page.keyboard.type("Alpha renamed");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await page.waitForSelector(row("Alpha renamed"));
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Alpha renamed", ["Gamma", ["Beta"]]]);

    // Delete Gamma (and Beta under it), then Undo: both back where they were, Beta's content too.
    await Promise.all([page.waitForNavigation(), page.click(`${row("Gamma")} button:has-text("Delete")`)]);
    await page.waitForSelector('#undo-delete:has-text("Deleted “Gamma” and 1 page under it")');
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Alpha renamed"]);
    expect(await seriousViolations(page)).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('#undo-delete button:has-text("Undo")')]);
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Alpha renamed", ["Gamma", ["Beta"]]]);
    expect(await page.locator("#undo-delete").count()).toBe(0);
    const beta = await w.alice.api.get(`${cr.api}/content/path/gamma/beta?format=markdown`);
    expect(beta.status).toBe(200);
    expect(beta.body.markdown).toContain("b");

    expect(trace.errors).toEqual([]);
    expect(trace.console.filter((line) => /Content.Security.Policy/i.test(line))).toEqual([]);
    await page.close();
  }, 120_000);

  test("a page group added from the tree (Add group) is a group at the top level; a page dragged into it; deleted and undone, it is a group again", async () => {
    const md = (text: string) => ({ markdown: text });
    const cr = await changeRequest("Groups in the tree", [
      { operation: "insert_page", title: "Kappa", document: md("k") },
      { operation: "insert_page", title: "Lambda", document: md("l") },
    ]);
    const before = titles(await tree(cr.api)).slice(0, -2);
    const page = await browser.context.newPage();
    const trace = watch(page);
    await page.goto(`${sys.url}${cr.app}/~pages`);
    await page.fill("#new-title", "Reference");
    await Promise.all([page.waitForNavigation(), page.click('button[name="kind"][value="group"]')]);
    const pages = (await tree(cr.api)) as Array<TreePage & { kind?: string }>;
    expect(pages.slice(before.length).map((p) => [p.title, p.kind])).toEqual([["Kappa", "sheet"], ["Lambda", "sheet"], ["Reference", "group"]]);
    await page.waitForSelector(`${row("Reference")}[data-type="group"][draggable="true"]`);
    // The group has no Nest button (it stays at the top level); Lambda goes into it by a drag onto its middle.
    expect(await page.locator(`${row("Reference")} button[value="in"]`).count()).toBe(0);
    await drag(page, "Lambda", "Reference", "middle");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Kappa", ["Reference", ["Lambda"]]]);
    // The group goes before a page; dropped on a page's middle, it goes after it, never into it.
    await drag(page, "Reference", "Kappa", "top");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual([["Reference", ["Lambda"]], "Kappa"]);
    await drag(page, "Reference", "Kappa", "middle");
    expect(titles(await tree(cr.api)).slice(before.length)).toEqual(["Kappa", ["Reference", ["Lambda"]]]);
    await page.screenshot({ path: join(ARTIFACTS, `app-tree-group-${mode}.png`), fullPage: true });

    // Deleted with its page, then Undo: a group again, at the top level, with Lambda in it.
    await Promise.all([page.waitForNavigation(), page.click(`${row("Reference")} button:has-text("Delete")`)]);
    await page.waitForSelector('#undo-delete:has-text("Deleted “Reference” and 1 page under it")');
    await Promise.all([page.waitForNavigation(), page.click('#undo-delete button:has-text("Undo")')]);
    const back = (await tree(cr.api)) as Array<TreePage & { kind?: string }>;
    expect(titles(back).slice(before.length)).toEqual(["Kappa", ["Reference", ["Lambda"]]]);
    expect(back.find((p) => p.title === "Reference")?.kind).toBe("group");
    expect(trace.errors).toEqual([]);
    await page.close();
  }, 120_000);
});
