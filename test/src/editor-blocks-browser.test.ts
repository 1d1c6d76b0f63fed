// GitBook's tables and images edited in place in the block editor, in Chromium (playwright-core): a table's
// rows and columns added and removed from the block bar, its cells filled moving with Tab, and the API then
// answers the expected GitBook table; an image's caption and width set in the block bar come back from the
// API as the image's fields, and an image set through the API opens in the editor with them; an image's alt
// text and a column's alignment, the same both ways; and on a phone's 390 px wide screen, the bar of a table
// and of an image is inside the screen and its controls are clicked and work.
import { join } from "node:path";
import type { Page } from "playwright-core";
import { checkDocument, type JSONDocument } from "@docshelf/document";
import { expectValid } from "@docshelf/document/dist/gitbook-schema";
import { ARTIFACTS, browserSuites, aliceInChromium } from "./browser";
import { seriousViolations } from "./axe";
import { pathOf } from "./app-fixtures";

const suites = browserSuites("the block editor's tables and images");

interface TableBlock {
  type: "table";
  data: { view: { columns: string[] }; definition: Record<string, { title: string; textAlignment: string }>; records: Record<string, { orderIndex: string; values: Record<string, string> }> };
  fragments: Array<{ fragment: string; nodes: Array<{ nodes: Array<{ object: string; leaves?: Array<{ text: string }> }> }> }>;
}

/** A GitBook table as rows of cell texts, its titles first, its records in their order. */
function tableRows(table: TableBlock): string[][] {
  const text = (fragment: string | undefined) =>
    (table.fragments.find((f) => f.fragment === fragment)?.nodes ?? []).map((p) => p.nodes.map((n) => (n.leaves ?? []).map((l) => l.text).join("")).join("")).join("");
  const records = Object.values(table.data.records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
  return [table.data.view.columns.map((c) => table.data.definition[c].title), ...records.map((r) => table.data.view.columns.map((c) => text(r.values[c])))];
}

suites("tables and images in the block editor in Chromium over %s", (mode) => {
  const world = aliceInChromium(mode);

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `editor-blocks-${mode}-${name}.png`), fullPage: true });

  async function changeRequest(subject: string): Promise<{ id: string; path: string }> {
    const cr = await world.w.alice.api.post(`/v1/spaces/${world.w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBeLessThan(300);
    return { id: cr.body.id as string, path: pathOf(cr.body.urls.app) };
  }

  async function stored(crId: string): Promise<{ document: JSONDocument; markdown: string }> {
    const base = `/v1/spaces/${world.w.spaceId}/change-requests/${crId}/content/path/welcome`;
    const doc = await world.w.alice.api.get(`${base}?format=document`);
    const md = await world.w.alice.api.get(`${base}?format=markdown`);
    expect(doc.status).toBe(200);
    return { document: checkDocument(doc.body.document), markdown: md.body.markdown as string };
  }

  /** A new empty paragraph right after the page's first block, for the slash menu. */
  async function newParagraphAfterTitle(page: Page): Promise<void> {
    await page.click(".editor-content");
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
  }

  const cell = (row: number, column: number) => `.editor-content table.table tr:nth-child(${row}) > :nth-child(${column})`;
  const action = (id: string) => `.block-bar:not([hidden]) button[data-action="${id}"]`;

  test("a table's cells filled with Tab, a row and a column added and others removed from the block bar: the API answers that table", async () => {
    const cr = await changeRequest("A table in place");
    const { page, trace } = await world.openEditor(cr.path);
    const k = page.keyboard;
    await newParagraphAfterTitle(page);
    await k.type("/table");
    await page.waitForSelector("#slash-menu:not([hidden])");
    await k.press("Enter");
    await page.waitForSelector(".editor-content table.table th");
    // The cursor is in the first title; Tab selects the next cell's text, so typing replaces it.
    for (const text of ["Count", "Ann", "3", "Bob", "5"]) {
      await k.press("Tab");
      await k.type(text);
    }
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Table rows and columns"]');
    // The titles' row has no row above it and is not deleted.
    await page.click(cell(1, 1));
    expect(await page.isDisabled(action("row-above"))).toBe(true);
    expect(await page.isDisabled(action("row-delete"))).toBe(true);
    // From Bob's count: a row below, a column on the right; Tab goes on into them.
    await page.click(cell(3, 2));
    expect(await page.isDisabled(action("row-delete"))).toBe(false);
    await page.click(action("row-below"));
    await page.click(action("column-right"));
    expect(await page.locator(".editor-content table.table tr").count()).toBe(4);
    expect(await page.locator(`${cell(1, 3)}`).count()).toBe(1);
    await k.press("Tab");
    await k.type("late");
    await k.press("Tab");
    await k.type("Cy");
    await shot(page, "table-grown");
    // The table and its bar pass axe-core's WCAG 2.1 A/AA rules.
    expect(await seriousViolations(page)).toEqual([]);
    // Ann's row removed, then the Count column.
    await page.click(cell(2, 1));
    await page.click(action("row-delete"));
    await page.click(cell(2, 2));
    await page.click(action("column-delete"));
    expect(await page.locator(".editor-content table.table tr").count()).toBe(3);
    await world.saved(page);

    const { document, markdown } = await stored(cr.id);
    expectValid(document);
    const table = document.nodes.find((n) => n.type === "table") as unknown as TableBlock;
    expect(tableRows(table)).toEqual([
      ["Column 1", ""],
      ["Bob", "late"],
      ["Cy", ""],
    ]);
    expect(markdown).toContain("| Column 1 |  |\n| --- | --- |\n| Bob | late |\n| Cy |  |");

    // Opened again: the same cells, editable; the read view renders the table.
    await page.reload();
    await page.waitForSelector('#editor-app[data-ready="true"]');
    expect(await page.textContent(cell(2, 2))).toBe("late");
    await page.goto(`${world.sys.url}${cr.path}/welcome`);
    expect(await page.textContent("article table")).toContain("late");
    expect(trace.errors).toEqual([]);
    expect(trace.dialogs).toEqual([]);
    await page.close();
  });

  test("an image's caption and width set in the block bar come back from the API; an image set through the API opens with them", async () => {
    const cr = await changeRequest("An image in place");
    const { page, trace } = await world.openEditor(cr.path);
    page.removeAllListeners("dialog");
    page.on("dialog", (dialog) => void dialog.accept("https://example.com/diagram.png"));
    await newParagraphAfterTitle(page);
    await page.keyboard.type("/image");
    await page.waitForSelector("#slash-menu:not([hidden])");
    await page.keyboard.press("Enter");
    await page.click(".editor-content figure.atom-image");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Image settings"]');
    await page.fill("#block-image-caption", "How the parts fit");
    // A width that is none is marked and not kept; a percentage is.
    await page.fill("#block-image-width", "wide");
    expect(await page.getAttribute("#block-image-width", "aria-invalid")).toBe("true");
    await page.fill("#block-image-width", "60%");
    expect(await page.getAttribute("#block-image-width", "aria-invalid")).toBe("false");
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    expect(await page.getAttribute(".editor-content figure.atom-image img", "width")).toBe("60%");
    expect(await page.textContent(".editor-content figure.atom-image figcaption")).toBe("How the parts fit");
    await world.saved(page);

    const { document, markdown } = await stored(cr.id);
    expectValid(document);
    const images = document.nodes.find((n) => n.type === "images");
    if (images?.type !== "images") throw new Error("no image block stored");
    const image = images.nodes[0];
    expect(image.data).toMatchObject({ ref: { kind: "url", url: "https://example.com/diagram.png" }, width: { unit: "%", value: 60 } });
    expect(image.fragments).toEqual([{ object: "fragment", fragment: "caption", type: "caption", nodes: [expect.objectContaining({ type: "paragraph" })] }]);
    expect(JSON.stringify(image.fragments)).toContain("How the parts fit");
    expect(markdown).toContain('<img src="https://example.com/diagram.png" alt="" width="60%"><figcaption><p>How the parts fit</p></figcaption>');

    // Set through the API (pixels, another caption): the editor opens with those in the image and its bar.
    const edited = await world.w.alice.api.post(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "update_page", page: (await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.id}/content/path/welcome`)).body.id, document: { markdown: markdown.replace('width="60%"', 'width="320"').replace("How the parts fit", "Sent by the API") } }],
    });
    expect(edited.status).toBe(200);
    await page.reload();
    await page.waitForSelector('#editor-app[data-ready="true"]');
    expect(await page.getAttribute(".editor-content figure.atom-image img", "width")).toBe("320");
    await page.click(".editor-content figure.atom-image");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Image settings"]');
    expect(await page.inputValue("#block-image-width")).toBe("320");
    expect(await page.inputValue("#block-image-caption")).toBe("Sent by the API");
    // Emptied: no width and no caption stored.
    await page.fill("#block-image-caption", "");
    await page.fill("#block-image-width", "");
    await page.keyboard.press("Escape");
    await world.saved(page);
    const after = await stored(cr.id);
    const cleared = (after.document.nodes.find((n) => n.type === "images") as { nodes: Array<{ data: Record<string, unknown>; fragments: unknown[] }> }).nodes[0];
    expect(cleared.data.width).toBeUndefined();
    expect(cleared.fragments).toEqual([]);
    expect(trace.errors).toEqual([]);
    await shot(page, "image");
    await page.close();
  });

  /** After the page's title, from the slash menu: a table (titles "Column 1" and "Count", a row Ann 3 and an empty one), then an image of `url`. */
  async function tableAndImage(page: Page, url: string): Promise<void> {
    const k = page.keyboard;
    page.removeAllListeners("dialog");
    page.on("dialog", (dialog) => void dialog.accept(url));
    await newParagraphAfterTitle(page);
    await k.type("/image");
    await page.waitForSelector("#slash-menu:not([hidden])");
    await k.press("Enter");
    await page.waitForSelector(".editor-content figure.atom-image");
    await newParagraphAfterTitle(page);
    await k.type("/table");
    await page.waitForSelector("#slash-menu:not([hidden])");
    await k.press("Enter");
    await page.waitForSelector(".editor-content table.table th");
    // The cursor is in the first title; Tab selects the next cell's text, so typing replaces it.
    for (const text of ["Count", "Ann", "3"]) {
      await k.press("Tab");
      await k.type(text);
    }
  }

  // (The test project has no DOM types: the browser's, typed as far as these need.)
  type Dom = { getComputedStyle(el: unknown): { textAlign: string }; document: { elementFromPoint(x: number, y: number): unknown } };
  type Box = { getBoundingClientRect(): { left: number; top: number; width: number; height: number }; contains(other: unknown): boolean };
  /** An element's computed text alignment (a function run through the DevTools protocol: no eval in the page). */
  const textAlign = (page: Page, selector: string) => page.locator(selector).evaluate((el) => (globalThis as unknown as Dom).getComputedStyle(el).textAlign);

  test("an image's alt text and a table column's alignment set in the block bar come back from the API and the Markdown, and open again as set", async () => {
    const cr = await changeRequest("Alt text and alignment");
    const { page, trace } = await world.openEditor(cr.path);
    await tableAndImage(page, "https://example.com/parts.png");
    // Count's column centred from Ann's count.
    await page.click(cell(2, 2));
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Table rows and columns"]');
    expect(await page.getAttribute(action("align-left"), "aria-pressed")).toBe("true");
    await page.click(action("align-center"));
    expect(await page.getAttribute(action("align-center"), "aria-pressed")).toBe("true");
    expect(await page.getAttribute(action("align-left"), "aria-pressed")).toBe("false");
    for (const row of [1, 2, 3]) expect(await textAlign(page, cell(row, 2))).toBe("center");
    expect(await textAlign(page, cell(2, 1))).toBe("left");
    // The image's alt text, characters the Markdown's attribute must escape included.
    await page.click(".editor-content figure.atom-image");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Image settings"]');
    const alt = 'Parts "A" & <B>';
    await page.fill("#block-image-alt", alt);
    await page.keyboard.press("Escape");
    expect(await page.getAttribute(".editor-content figure.atom-image img", "alt")).toBe(alt);
    expect(await seriousViolations(page)).toEqual([]);
    await world.saved(page);

    const { document, markdown } = await stored(cr.id);
    expectValid(document);
    const table = document.nodes.find((n) => n.type === "table") as unknown as TableBlock;
    expect(table.data.view.columns.map((c) => table.data.definition[c].textAlignment)).toEqual(["left", "center"]);
    expect(markdown).toContain("| Column 1 | Count |\n| --- | :-: |\n| Ann | 3 |");
    const images = document.nodes.find((n) => n.type === "images");
    expect(images?.type === "images" ? images.nodes[0].data.alt : undefined).toBe(alt);
    expect(markdown).toContain('<img src="https://example.com/parts.png" alt="Parts &quot;A&quot; & &lt;B&gt;">');

    // Set through the API (the column right-aligned, another alt text): the editor opens with them, in the page and in its bar.
    const pageId = (await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.id}/content/path/welcome`)).body.id;
    const edited = await world.w.alice.api.post(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "update_page", page: pageId, document: { markdown: markdown.replace("| --- | :-: |", "| --- | --: |").replace("Parts &quot;A&quot; & &lt;B&gt;", "Sent &amp; set by the API") } }],
    });
    expect(edited.status).toBe(200);
    await page.reload();
    await page.waitForSelector('#editor-app[data-ready="true"]');
    expect(await page.getAttribute(".editor-content figure.atom-image img", "alt")).toBe("Sent & set by the API");
    expect(await textAlign(page, cell(2, 2))).toBe("right");
    await page.click(cell(2, 2));
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Table rows and columns"]');
    expect(await page.getAttribute(action("align-right"), "aria-pressed")).toBe("true");
    await page.click(".editor-content figure.atom-image");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Image settings"]');
    expect(await page.inputValue("#block-image-alt")).toBe("Sent & set by the API");
    // The read view renders both.
    await page.goto(`${world.sys.url}${cr.path}/welcome`);
    expect(await page.getAttribute("article img", "alt")).toBe("Sent & set by the API");
    expect(await textAlign(page, "article table tbody tr:first-child > td:nth-child(2)")).toBe("right");
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("on a 390 px wide screen the block bar of a table and of an image is inside the screen, and its controls are clicked and work", async () => {
    const cr = await changeRequest("On a phone");
    const { page, trace } = await world.openEditor(cr.path);
    await page.setViewportSize({ width: 390, height: 844 });
    await tableAndImage(page, "https://example.com/phone.png");

    /** Every control of the bar shown: visible, inside the screen's width, and the one hit at its middle (nothing covers it). */
    async function usable(): Promise<void> {
      const bar = page.locator(".block-bar:not([hidden])");
      const box = (await bar.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      const controls = bar.locator("button, input, select");
      expect(await controls.count()).toBeGreaterThan(0);
      for (const control of await controls.all()) {
        await control.scrollIntoViewIfNeeded();
        expect(await control.isVisible()).toBe(true);
        const b = (await control.boundingBox())!;
        expect({ left: b.x >= 0, right: b.x + b.width <= 390, top: b.y >= 0, bottom: b.y + b.height <= 844, height: b.height >= 24 }).toEqual({ left: true, right: true, top: true, bottom: true, height: true });
        const hitAtMiddle = await control.evaluate((el) => {
          const box = el as unknown as Box;
          const r = box.getBoundingClientRect();
          const hit = (globalThis as unknown as Dom).document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit === el || box.contains(hit);
        });
        expect(hitAtMiddle).toBe(true);
      }
    }

    // The table's bar: every button inside the screen; a row added and the column right-aligned with a tap each.
    await page.click(cell(2, 2));
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Table rows and columns"]');
    await usable();
    await shot(page, "phone-table");
    await page.click(action("row-below"));
    expect(await page.locator(".editor-content table.table tr").count()).toBe(4);
    await page.click(action("align-right"));
    expect(await textAlign(page, cell(2, 2))).toBe("right");
    await usable();
    // The image's bar: its fields inside the screen and typed into.
    await page.click(".editor-content figure.atom-image");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Image settings"]');
    await usable();
    await shot(page, "phone-image");
    await page.fill("#block-image-alt", "On a phone");
    await page.fill("#block-image-width", "50%");
    await page.keyboard.press("Escape");
    expect(await page.getAttribute(".editor-content figure.atom-image img", "alt")).toBe("On a phone");
    await world.saved(page);
    const { markdown } = await stored(cr.id);
    expect(markdown).toContain('alt="On a phone" width="50%"');
    expect(markdown).toContain("| Column 1 | Count |\n| --- | --: |");
    expect(trace.errors).toEqual([]);
    await page.close();
  });
});
