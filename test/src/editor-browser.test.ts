// The block editor in Chromium (playwright-core): blocks inserted from the slash menu come back from the
// API as a schema-valid GitBook document; marks from the floating toolbar; Markdown shortcuts, undo/redo
// and the slash menu driven from the keyboard alone; the XSS corpus pasted into the editor (as HTML and
// as text) is stored as a valid document and runs nothing, in the editor or in the app's read view.
import { join } from "node:path";
import type { Page } from "playwright-core";
import { checkDocument, type JSONDocument } from "@docshelf/document";
import { XSS_CORPUS } from "@docshelf/document/dist/xss-corpus";
import { ARTIFACTS, browserSuites, aliceInChromium } from "./browser";
import { seriousViolations } from "./axe";
import { pathOf } from "./app-fixtures";

const suites = browserSuites("the block editor's browser suite");

/** Every block type of a GitBook document (blocks inside blocks and fragments too). */
function blockTypes(doc: JSONDocument): Set<string> {
  const types = new Set<string>();
  const walk = (node: { type?: string; nodes?: unknown[]; fragments?: Array<{ nodes: unknown[] }> }) => {
    if (node.type) types.add(node.type);
    for (const child of node.nodes ?? []) walk(child as never);
    for (const fragment of node.fragments ?? []) for (const child of fragment.nodes) walk(child as never);
  };
  walk(doc as never);
  return types;
}

suites("the block editor in Chromium over %s", (mode) => {
  const world = aliceInChromium(mode);

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `editor-${mode}-${name}.png`), fullPage: true });

  /** A new change request of the space; its path in the app and its number. */
  async function changeRequest(subject: string): Promise<{ path: string; number: string }> {
    const cr = await world.w.alice.api.post(`/v1/spaces/${world.w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBeLessThan(300);
    return { path: pathOf(cr.body.urls.app), number: String(cr.body.number) };
  }

  async function stored(number: string): Promise<{ document: JSONDocument; markdown: string }> {
    const doc = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${number}/content/path/welcome?format=document`);
    const md = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
    expect(doc.status).toBe(200);
    return { document: checkDocument(doc.body.document), markdown: md.body.markdown as string };
  }

  /** Puts the cursor in a new empty paragraph right after the page's first block (its title heading). */
  async function newParagraphAfterTitle(page: Page): Promise<void> {
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
  }

  test("every block the slash menu offers is inserted, saved, and comes back from the API as a schema-valid GitBook document", async () => {
    const cr = await changeRequest("Blocks from the slash menu");
    const { page, trace } = await world.openEditor(cr.path);
    const answers: Record<string, string> = { image: "https://example.com/diagram.png", formula: "E = mc^2", embed: "https://example.com/video" };
    page.removeAllListeners("dialog");
    page.on("dialog", (dialog) => {
      const message = dialog.message();
      const answer = /image/.test(message) ? answers.image : /formula/.test(message) ? answers.formula : answers.embed;
      void dialog.accept(answer);
    });
    // Each block goes right after the title, so the page ends up in the reverse order of this list.
    const blocks: Array<[query: string, text?: string]> = [
      ["heading 2", "Section two"],
      ["bulleted", "first bullet"],
      ["numbered", "first step"],
      ["task", "a task"],
      ["quote", "quoted words"],
      ["code block", "let x = 1;"],
      ["hint warning", "careful now"],
      ["tabs", "in the first tab"],
      ["expandable", "Expand me"],
      ["stepper", "step one"],
      ["table"],
      ["divider"],
      ["image"],
      ["math"],
      ["embed"],
    ];
    await page.click(".editor-content");
    for (const [query, text] of blocks) {
      await newParagraphAfterTitle(page);
      await page.keyboard.type(`/${query}`);
      await page.waitForSelector("#slash-menu:not([hidden])");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#slash-menu", { state: "hidden" });
      if (text) await page.keyboard.type(text);
    }
    // What the editor shows.
    for (const selector of ["h2", ".hint.hint-warning", "pre.code", "ul.tasks li.task", "blockquote", ".tabs .tab", ".expandable .fragment-expandable-title", "ol.stepper li.step", "table.table th", "hr", "figure.atom-image img", ".atom-math", ".atom-embed"]) {
      expect(await page.$(`.editor-content ${selector}`)).not.toBeNull();
    }
    await shot(page, "slash-blocks");
    await world.saved(page);

    const { document, markdown } = await stored(cr.number);
    const types = blockTypes(document);
    for (const type of ["heading-2", "list-unordered", "list-ordered", "list-tasks", "list-item", "blockquote", "code", "code-line", "hint", "tabs", "tabs-item", "expandable", "stepper", "stepper-step", "table", "divider", "images", "image", "math", "embed"]) {
      expect(types).toContain(type);
    }
    for (const text of ["## Section two", "* first bullet", "1. first step", "* [ ] a task", "> quoted words", "let x = 1;", '{% hint style="warning" %}\ncareful now\n{% endhint %}', "{% tabs %}", "in the first tab", "<summary>Expand me</summary>", "{% stepper %}", "step one", "https://example.com/diagram.png", "E = mc^2", '{% embed url="https://example.com/video" %}', "| Column 1 | Column 2 |"]) {
      expect(markdown).toContain(text);
    }
    // The paragraph the page had is still first (its `# Welcome` is the page's title, not a block).
    expect(document.nodes[0].type).toBe("paragraph");
    expect(markdown.startsWith("The **handbook** starts here.")).toBe(true);

    // Opened again, the editor shows what was saved; the app's read view renders it.
    await page.reload();
    await page.waitForSelector('#editor-app[data-ready="true"]');
    expect(await page.textContent(".editor-content .hint")).toContain("careful now");
    await page.goto(`${world.sys.url}${cr.path}/welcome`);
    expect(await page.textContent("article")).toContain("careful now");
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("the floating toolbar sets marks and links on a selection", async () => {
    const cr = await changeRequest("Marks from the toolbar");
    const { page, trace } = await world.openEditor(cr.path);
    await page.click(".editor-content");
    await newParagraphAfterTitle(page);
    await page.keyboard.type("one two three four");
    const select = async (skip: number, length: number) => {
      await page.keyboard.press("Home");
      for (let i = 0; i < skip; i++) await page.keyboard.press("ArrowRight");
      for (let i = 0; i < length; i++) await page.keyboard.press("Shift+ArrowRight");
      await page.waitForSelector(".format-bar:not([hidden])");
    };
    await select(0, 3);
    expect(await page.getAttribute(".format-bar .mark-italic", "aria-pressed")).toBe("false");
    await page.click(".format-bar .mark-italic");
    expect(await page.getAttribute(".format-bar .mark-italic", "aria-pressed")).toBe("true");
    await select(4, 3);
    await page.click(".format-bar .mark-link");
    // The link picker: an address typed in it.
    await page.waitForSelector(".link-picker:not([hidden])");
    await page.keyboard.type("https://example.com/guide");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".link-picker", { state: "hidden" });
    await select(8, 5);
    await page.click(".format-bar .mark-strikethrough");
    await select(14, 4);
    await page.click(".format-bar .mark-bold");
    await page.click(".format-bar .mark-code");
    await world.saved(page);
    const { document, markdown } = await stored(cr.number);
    const paragraph = document.nodes[1] as unknown as { nodes: Array<{ object: string; type?: string; data?: { ref?: { url?: string } }; leaves?: Array<{ text: string; marks: Array<{ type: string }> }>; nodes?: Array<{ leaves: Array<{ text: string; marks: Array<{ type: string }> }> }> }> };
    const runs = paragraph.nodes.flatMap((node) =>
      node.object === "text" ? node.leaves!.map((l) => [l.text, l.marks.map((m) => m.type).sort().join("+")]) : [[`link(${node.data?.ref?.url}):${node.nodes![0].leaves.map((l) => l.text).join("")}`, ""]],
    );
    expect(runs).toEqual([["one", "italic"], [" ", ""], ["link(https://example.com/guide):two", ""], [" ", ""], ["three", "strikethrough"], [" ", ""], ["four", "bold+code"]]);
    expect(markdown).toContain("_one_ [two](https://example.com/guide) ~~three~~");
    expect(trace.errors).toEqual([]);
    await shot(page, "toolbar");
    await page.close();
  });

  test("keyboard only: Markdown shortcuts, the slash menu, marks, undo and redo, moving a block, saving with Ctrl+S", async () => {
    const cr = await changeRequest("Keyboard only");
    const { page, trace } = await world.openEditor(cr.path);
    // The editor has the focus when it opens: no click.
    expect(await page.evaluate("document.activeElement?.classList.contains('editor-content')")).toBe(true);
    const k = page.keyboard;
    await k.press("Control+End");
    await k.press("Enter");
    await k.type("## Keyboard heading");
    await k.press("Enter");
    await k.type("* item one");
    await k.press("Enter");
    await k.type("item two");
    await k.press("Enter");
    await k.press("Enter"); // an empty item leaves the list
    await k.type("1. first");
    await k.press("Enter");
    await k.press("Enter");
    await k.type("> quoted");
    await k.press("Enter");
    await k.press("Enter"); // an empty paragraph leaves the quote
    await k.type("[ ] todo");
    await k.press("Control+Enter"); // ticks the task
    await k.press("Enter");
    await k.press("Enter");
    await k.type("```js ");
    await k.type("code();");
    await k.press("Enter");
    await k.press("Enter"); // an empty last line leaves the code block
    await k.type("/hint");
    await page.waitForSelector("#slash-menu:not([hidden])");
    expect(await page.getAttribute(".editor-content", "aria-activedescendant")).toBe("slash-hint-info");
    await k.press("ArrowDown");
    expect(await page.getAttribute(".editor-content", "aria-activedescendant")).toBe("slash-hint-success");
    await k.press("Enter");
    await k.type("a success hint");
    await k.press("Control+End");
    await k.press("Enter");
    await k.press("Enter");
    // A mistake, undone and redone.
    await k.type("plain ");
    await k.press("Control+b");
    await k.type("strong");
    await k.press("Control+b");
    await k.type(" typo");
    await k.press("Control+z");
    expect(await page.textContent(".editor-content")).not.toContain("typo");
    await k.press("Control+y");
    expect(await page.textContent(".editor-content")).toContain("typo");
    // Escape closes the slash menu and leaves the slash as text.
    await k.press("Enter");
    await k.type("/xyz");
    await page.waitForSelector("#slash-menu:not([hidden])");
    await k.press("Escape");
    await page.waitForSelector("#slash-menu", { state: "hidden" });
    await k.type(" stays");
    // Alt+ArrowUp moves this paragraph above the previous block.
    await k.press("Alt+ArrowUp");
    await k.press("Control+s");
    await world.saved(page);
    const { markdown } = await stored(cr.number);
    for (const text of ["## Keyboard heading", "* item one\n* item two", "1. first", "> quoted", "* [x] todo", "```js\ncode();\n```", '{% hint style="success" %}\na success hint\n{% endhint %}', "plain **strong** typo"]) {
      expect(markdown).toContain(text);
    }
    expect(markdown.indexOf("/xyz stays")).toBeLessThan(markdown.indexOf("plain **strong** typo"));
    expect(markdown.indexOf("/xyz stays")).toBeGreaterThan(markdown.indexOf("a success hint"));
    expect(trace.errors).toEqual([]);
    await shot(page, "keyboard");
    await page.close();
  });

  test("a block dragged by its handle moves there, once, and is saved so", async () => {
    const cr = await changeRequest("Dragged blocks");
    const { page, trace } = await world.openEditor(cr.path);
    await page.click(".editor-content");
    await page.keyboard.press("Control+End");
    for (const text of ["Para Alpha", "Para Bravo", "Para Charlie"]) {
      await page.keyboard.press("Enter");
      await page.keyboard.type(text);
    }
    // Hovering a block shows its handle; dragged onto the top of Para Alpha, Para Charlie goes before it.
    await page.hover('.editor-content p:has-text("Para Charlie")');
    await page.waitForSelector(".block-handle:not([hidden])");
    await page.dragAndDrop(".block-handle", '.editor-content p:has-text("Para Alpha")', { targetPosition: { x: 40, y: 2 } });
    const order = await page.$$eval(".editor-content p", (ps) => ps.map((p) => p.textContent ?? "").filter((t) => t.startsWith("Para ")));
    expect(order).toEqual(["Para Charlie", "Para Alpha", "Para Bravo"]);
    await page.keyboard.press("Control+s");
    await world.saved(page);
    const { markdown } = await stored(cr.number);
    expect(markdown.indexOf("Para Charlie")).toBeLessThan(markdown.indexOf("Para Alpha"));
    expect(markdown.indexOf("Para Alpha")).toBeLessThan(markdown.indexOf("Para Bravo"));
    expect(markdown.split("Para Charlie").length).toBe(2);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("a link to another page is picked from the change request's pages and stored as a page reference", async () => {
    const cr = await changeRequest("Page link");
    const { page, trace } = await world.openEditor(cr.path);
    const k = page.keyboard;
    await newParagraphAfterTitle(page);
    await k.type("see the tricky page");
    for (let i = 0; i < "tricky page".length; i++) await k.press("Shift+ArrowLeft");
    await k.press("Control+k");
    await page.waitForSelector(".link-picker:not([hidden])");
    expect(await page.evaluate("document.activeElement?.id")).toBe("link-input");
    await k.type("trick");
    // The page whose title is hostile markup is listed as text.
    const option = await page.textContent("#link-option-0");
    expect(option).toContain("Tricky");
    expect(await page.$("#link-options img")).toBeNull();
    await k.press("Enter");
    await page.waitForSelector(".link-picker", { state: "hidden" });
    expect(await page.evaluate("document.activeElement?.classList.contains('editor-content')")).toBe(true);
    await world.saved(page);
    const tree = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.number}/content`);
    const target = (tree.body.pages as Array<{ id: string; title: string; path: string }>).find((p) => p.title.includes("Tricky"))!;
    const { document, markdown } = await stored(cr.number);
    expect(JSON.stringify(document.nodes[1])).toContain(JSON.stringify({ kind: "page", page: target.id }));
    expect(markdown).toContain(`[tricky page](${target.path}.md)`);
    // The app's read view links the page itself.
    await page.goto(`${world.sys.url}${cr.path}/welcome`);
    expect(await page.getAttribute('article a:text-is("tricky page")', "href")).toContain(target.path);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("an image pasted, and one dropped, are uploaded into the change request's files and inserted as image blocks", async () => {
    const cr = await changeRequest("Images");
    const { page, trace } = await world.openEditor(cr.path);
    await page.click(".editor-content");
    await newParagraphAfterTitle(page);
    // A 1×1 PNG.
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const file = (name: string) => `new File([Uint8Array.from(atob(${JSON.stringify(png)}), (c) => c.charCodeAt(0))], ${JSON.stringify(name)}, { type: "image/png" })`;
    await page.evaluate(
      `(() => { const t = new DataTransfer(); t.items.add(${file("pasted.png")}); document.querySelector(".editor-content").dispatchEvent(new ClipboardEvent("paste", { clipboardData: t, bubbles: true, cancelable: true })); })()`,
    );
    await page.waitForSelector('.editor-content figure.atom-image:has-text("pasted.png")');
    await page.evaluate(
      `(() => { const t = new DataTransfer(); t.items.add(${file("dropped.png")}); const el = document.querySelector(".editor-content p"); const r = el.getBoundingClientRect(); el.dispatchEvent(new DragEvent("drop", { dataTransfer: t, bubbles: true, cancelable: true, clientX: r.left + 5, clientY: r.top + 5 })); })()`,
    );
    await page.waitForSelector('.editor-content figure.atom-image:has-text("dropped.png")');
    await world.saved(page);
    const files = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${cr.number}/content/files`);
    const byName = new Map((files.body.items as Array<{ id: string; name: string }>).map((f) => [f.name, f.id]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(["pasted.png", "dropped.png"]));
    const { document, markdown } = await stored(cr.number);
    const json = JSON.stringify(document);
    for (const name of ["pasted.png", "dropped.png"]) expect(json).toContain(JSON.stringify({ kind: "file", file: byName.get(name) }));
    expect(markdown).toContain(".gitbook/assets/pasted.png");
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("switching to the Markdown source right after typing saves first, and the Markdown has the edit", async () => {
    const cr = await changeRequest("Source mode");
    const { page, trace } = await world.openEditor(cr.path);
    await page.click(".editor-content");
    await newParagraphAfterTitle(page);
    await page.keyboard.type("## Typed just now");
    await page.keyboard.press("Enter");
    await page.keyboard.type("and **left** at once");
    // No pause for the idle save: the link itself saves, then goes.
    await page.click('.editor-bar a:text-is("Markdown source")');
    await page.waitForURL(/\?edit=1$/);
    const markdown = await page.inputValue("#markdown");
    expect(markdown).toContain("## Typed just now");
    expect(markdown).toContain("and \\*\\*left\\*\\* at once");
    // And back to the blocks: the same content, nothing lost either way.
    await page.click('a:text-is("Back to the block editor")');
    await page.waitForSelector('#editor-app[data-ready="true"]');
    expect(await page.textContent(".editor-content h2")).toBe("Typed just now");
    expect(trace.dialogs).toEqual([]);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("the block bar sets a code block's language, title and line numbers, a hint's style and a tab's title, from the keyboard", async () => {
    const cr = await changeRequest("Block settings");
    const { page, trace } = await world.openEditor(cr.path);
    const k = page.keyboard;
    await newParagraphAfterTitle(page);
    await k.type("```");
    await k.press("Enter");
    await k.type("print('hi')");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Code block settings"]');
    // Tab leaves the text for the block's settings, which follow the editor in the page.
    await k.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("block-code_block-syntax");
    await k.type("python");
    await k.press("Tab");
    await k.type("main.py");
    await k.press("Tab");
    await k.press("Space");
    await k.press("Escape");
    expect(await page.evaluate("document.activeElement?.classList.contains('editor-content')")).toBe(true);
    await k.press("Enter");
    await k.press("Enter");
    await k.type("/hint info");
    await k.press("Enter");
    await k.type("now a danger hint");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Hint settings"]');
    await page.selectOption("#block-hint-style", "danger");
    await page.click(".editor-content .hint p");
    await k.press("End");
    await k.press("Enter");
    await k.press("Enter");
    await k.type("/tabs");
    await k.press("Enter");
    await k.type("tab body");
    await page.waitForSelector('.block-bar:not([hidden])[aria-label="Tab settings"]');
    await page.fill("#block-tabs_item-title", "Install");
    await page.click(".editor-content .tab p");
    await world.saved(page);
    const { markdown } = await stored(cr.number);
    expect(markdown).toContain('{% code title="main.py" lineNumbers="true" %}\n```python\nprint(\'hi\')\n```\n{% endcode %}');
    expect(markdown).toContain('{% hint style="danger" %}\nnow a danger hint\n{% endhint %}');
    expect(markdown).toContain('{% tab title="Install" %}\ntab body\n{% endtab %}');
    expect(trace.errors).toEqual([]);
    await shot(page, "block-bar");
    await page.close();
  });

  test("the editor's page, with its slash menu and its toolbar open, passes axe-core's WCAG 2.1 A/AA rules", async () => {
    const cr = await changeRequest("Accessible");
    const { page, trace } = await world.openEditor(cr.path);
    expect(await seriousViolations(page)).toEqual([]);
    await newParagraphAfterTitle(page);
    await page.keyboard.type("/head");
    await page.waitForSelector("#slash-menu:not([hidden])");
    expect(await page.getAttribute(".editor-content", "aria-activedescendant")).toBe("slash-heading-1");
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Shift+ArrowLeft");
    await page.waitForSelector(".format-bar:not([hidden])");
    expect(await seriousViolations(page)).toEqual([]);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("the XSS corpus pasted into the editor (as HTML and as text) is stored as a valid document and runs nothing", async () => {
    const cr = await changeRequest("Hostile paste");
    const { page, trace } = await world.openEditor(cr.path);
    await page.click(".editor-content");
    await newParagraphAfterTitle(page);
    const html = XSS_CORPUS.map((c) => `<p>${c.markdown}</p>`).join("\n") + `<p><a href="javascript:window.__xss=1">js link</a> <img src="x" onerror="window.__xss=1"> <svg onload="window.__xss=1"></svg></p>`;
    const text = XSS_CORPUS.map((c) => c.markdown).join("\n\n");
    for (const [type, data] of [["text/html", html], ["text/plain", text]] as const) {
      // A paste as the browser makes it (a string: the test's TypeScript has no DOM types).
      await page.evaluate(
        `(() => { const t = new DataTransfer(); t.setData(${JSON.stringify(type)}, ${JSON.stringify(data)}); document.querySelector(".editor-content").dispatchEvent(new ClipboardEvent("paste", { clipboardData: t, bubbles: true, cancelable: true })); })()`,
      );
    }
    await page.waitForLoadState("load");
    await world.saved(page);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    // Nothing the paste brought runs or points at script in the editor.
    expect(await page.$$eval(".editor-content *", (els) => els.filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))).length)).toBe(0);
    expect(await page.$(".editor-content script, .editor-content iframe, .editor-content object, .editor-content embed")).toBeNull();

    const { document, markdown } = await stored(cr.number);
    expect(document.nodes.length).toBeGreaterThan(5);
    expect(markdown).toContain("js link");
    // No reference of the stored document points at script (pasted Markdown is text, pasted links only http(s)).
    const refs = JSON.stringify(document).match(/"url":"[^"]*"/g) ?? [];
    expect(refs.filter((r) => /"url":"\s*(javascript|vbscript|data):/i.test(r))).toEqual([]);

    // The stored page, in the app's read view and in the editor opened again: still nothing runs.
    for (const path of [`${cr.path}/welcome`, `${cr.path}/welcome?edit=blocks`]) {
      await page.goto(`${world.sys.url}${path}`);
      await page.waitForLoadState("load");
      expect(await page.evaluate("window.__xss")).toBeUndefined();
      expect(await page.$("script:not([src^='/app/assets/']):not([type='application/json'])")).toBeNull();
    }
    expect(trace.dialogs).toEqual([]);
    expect(trace.errors).toEqual([]);
    await shot(page, "xss-paste");
    await page.close();
  });
});
