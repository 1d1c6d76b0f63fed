// Pasting into the block editor in Chromium: clipboard HTML as Google Docs and Word write it, a hostile
// page's HTML, and Markdown text. Each is pasted into a page of its own change request; the stored
// document (from the API) has the right blocks and marks, only http(s)/mailto links, and nothing ran.
// The clipboard samples are small representative ones written for this test.
import type { Page } from "playwright-core";
import { checkDocument, type JSONDocument } from "@docshelf/document";
import { browserSuites, watch, type ScriptTrace, aliceInChromium } from "./browser";
import { pathOf } from "./app-fixtures";

const suites = browserSuites("the block editor's paste suite");

const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b3c4d-7fff-1234-5678-9abcdef01234"><h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Release notes</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">Plain words, </span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">gdbold</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:normal;"> and </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:italic;">gditalic</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:normal;"> and </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;text-decoration:line-through;">gdstrike</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;"> with a </span><a href="https://example.com/docs" style="text-decoration:none;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#1155cc;font-weight:400;text-decoration:underline;-webkit-text-decoration-skip:none;text-decoration-skip-ink:none;">gdlink</span></a><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">.</span></p><br /><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-weight:400;">gd first</span></p></li><ul style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:circle;" aria-level="2"><p dir="ltr" role="presentation"><span style="font-size:11pt;font-weight:400;">gd nested</span></p></li></ul><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;font-weight:400;">gd second</span></p></li></ul><br /><ol style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:decimal;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;font-weight:400;">gd step</span></p></li></ol></b><br class="Apple-interchange-newline">`;

const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40"><head><meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {mso-style-parent:""; margin:0cm; font-size:11.0pt;} @list l0:level1 {mso-level-number-format:bullet;} --></style><!--[if gte mso 9]><xml><w:WordDocument><w:View>Normal</w:View></w:WordDocument></xml><![endif]--></head><body lang=EN-GB style='tab-interval:36.0pt'><!--StartFragment--><h2><span lang=EN-US style='mso-ansi-language:EN-US'>Word heading<o:p></o:p></span></h2><p class=MsoNormal><span lang=EN-US>Word text with <b style='mso-bidi-font-weight:normal'>wbold</b> and <i style='mso-bidi-font-style:normal'>witalic</i> and <a href="https://example.org/word">wlink</a>.<o:p></o:p></span></p><p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>word bullet one<o:p></o:p></span></p><p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-add-space:auto;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>word nested<o:p></o:p></span></p><p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>word bullet two<o:p></o:p></span></p><p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>word number<o:p></o:p></span></p><p class=MsoQuote><span lang=EN-US>plain after<o:p>&nbsp;</o:p></span></p><pre><code class="language-python">def f():
    return 1</code></pre><table class=MsoTableGrid border=1 cellspacing=0 cellpadding=0 style='border-collapse:collapse;mso-yfti-tbllook:1184'><tr style='mso-yfti-irow:0;mso-yfti-firstrow:yes'><td width=301 valign=top style='width:225.4pt;border:solid windowtext 1.0pt;padding:0cm 5.4pt 0cm 5.4pt'><p class=MsoNormal><b>Colour</b><o:p></o:p></p></td><td width=301 valign=top style='width:225.4pt'><p class=MsoNormal><b>Count</b><o:p></o:p></p></td></tr><tr style='mso-yfti-irow:1;mso-yfti-lastrow:yes'><td width=301 valign=top><p class=MsoNormal>wtablered<o:p></o:p></p></td><td width=301 valign=top><p class=MsoNormal>3<o:p></o:p></p></td></tr></table><p class=MsoNormal><img width=10 height=10 src="file:///C:/Users/x/AppData/Local/Temp/msohtmlclip1/01/clip_image001.png" alt="word local picture"></p><!--EndFragment--></body></html>`;

const HOSTILE = `<style>body{display:none}</style><script>window.__xss=1</script><p class="evil" style="color:red" onclick="window.__xss=1" data-x="1">hostile text <img src=x onerror="window.__xss=1" alt="broken"><a href="javascript:window.__xss=1">jslink</a> <a href=" JaVaScRiPt:window.__xss=1">jslink2</a> <a href="https://example.net/ok" onmouseover="window.__xss=1">oklink</a></p><img src="https://example.net/pic.png" alt="web picture" onload="window.__xss=1"><iframe src="javascript:window.__xss=1"></iframe><svg><script>window.__xss=1</script></svg><div class="hint" data-style="danger" onclick="x">in a div</div>`;

const MARKDOWN = "# Markdown title\n\nSome **mdbold** text and [mdlink](https://example.com/md).\n\n- md one\n  - md nested\n- md two\n\n```js\nconst a = 1;\nconst b = 2;\n```\n";

type Loose = { type?: string; object?: string; nodes?: Loose[]; leaves?: Array<{ text: string; marks?: Array<{ type: string }> }>; data?: Record<string, unknown> };

/** The document's blocks, depth first (the document itself left out). */
function blocks(doc: JSONDocument): Loose[] {
  const out: Loose[] = [];
  const walk = (node: Loose) => {
    for (const child of node.nodes ?? []) {
      if (child.object === "block") out.push(child);
      walk(child);
    }
  };
  walk(doc as unknown as Loose);
  return out;
}

/** The marks each leaf's text carries, by text. */
function marksOf(doc: JSONDocument): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (node: Loose) => {
    for (const leaf of node.leaves ?? []) if (leaf.text.trim()) out.set(leaf.text.trim(), (leaf.marks ?? []).map((m) => m.type).sort());
    for (const child of node.nodes ?? []) walk(child);
  };
  walk(doc as unknown as Loose);
  return out;
}

function linkUrls(doc: JSONDocument): string[] {
  return [...JSON.stringify(doc).matchAll(/"url":"([^"]*)"/g)].map((m) => m[1]);
}

function textOf(node: Loose): string {
  return (node.leaves ?? []).map((l) => l.text).join("") + (node.nodes ?? []).map(textOf).join("");
}

suites("pasting into the block editor in Chromium over %s", (mode) => {
  const world = aliceInChromium(mode);

  /** Pastes `data` (of each clipboard type given) after the page's title in a new change request; answers what was stored. */
  async function pasteInto(subject: string, data: Record<string, string>): Promise<{ document: JSONDocument; markdown: string; page: Page; trace: ScriptTrace }> {
    const cr = await world.w.alice.api.post(`/v1/spaces/${world.w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBeLessThan(300);
    const path = pathOf(cr.body.urls.app);
    const page = await world.context.newPage();
    const trace = watch(page);
    await page.goto(`${world.sys.url}${path}/welcome?edit=blocks`);
    await page.waitForSelector('#editor-app[data-ready="true"]');
    await page.click(".editor-content");
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    const sets = Object.entries(data)
      .map(([type, value]) => `t.setData(${JSON.stringify(type)}, ${JSON.stringify(value)});`)
      .join(" ");
    // A paste as the browser makes it (a string: the test's TypeScript has no DOM types).
    await page.evaluate(`(() => { const t = new DataTransfer(); ${sets} document.querySelector(".editor-content").dispatchEvent(new ClipboardEvent("paste", { clipboardData: t, bubbles: true, cancelable: true })); })()`);
    await page.waitForSelector('#save-status[data-state="dirty"], #save-status[data-state="saving"]', { timeout: 20_000 }).catch(() => undefined);
    await page.keyboard.press("Control+s");
    await page.waitForSelector('#save-status[data-state="saved"]', { timeout: 20_000 });
    const number = String(cr.body.number);
    const doc = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${number}/content/path/welcome?format=document`);
    const md = await world.w.alice.api.get(`/v1/spaces/${world.w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
    expect(doc.status).toBe(200);
    return { document: checkDocument(doc.body.document), markdown: md.body.markdown as string, page, trace };
  }

  test("Google Docs' clipboard: heading, marks from its styled spans (its bold wrapper is no bold), a link, nested and numbered lists", async () => {
    const { document, markdown, page, trace } = await pasteInto("Paste from Google Docs", { "text/html": GOOGLE_DOCS, "text/plain": "Release notes" });
    const types = blocks(document).map((b) => b.type);
    expect(types).toEqual(expect.arrayContaining(["heading-1", "paragraph", "list-unordered", "list-ordered", "list-item"]));
    expect(blocks(document).find((b) => b.type === "heading-1" && textOf(b) === "Release notes")).toBeDefined();
    const marks = marksOf(document);
    expect(marks.get("Plain words,")).toEqual([]);
    expect(marks.get("Release notes")).toEqual([]);
    expect(marks.get("gdbold")).toEqual(["bold"]);
    expect(marks.get("gditalic")).toEqual(["italic"]);
    expect(marks.get("gdstrike")).toEqual(["strikethrough"]);
    expect(marks.get("gdlink")).toEqual([]);
    expect(markdown).toContain("[gdlink](https://example.com/docs)");
    // The nested item is inside the first item's list, not an item of its own.
    const outer = blocks(document).find((b) => b.type === "list-unordered")!;
    expect(outer.nodes!.map((item) => textOf(item.nodes![0]))).toEqual(["gd first", "gd second"]);
    expect(textOf(outer.nodes![0])).toContain("gd nested");
    expect(blocks(outer as unknown as JSONDocument).filter((b) => b.type === "list-unordered")).toHaveLength(1);
    expect(markdown).not.toMatch(/docs-internal-guid|font-weight|style=/);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("Word's clipboard: heading, marks, a link, its list paragraphs as nested and numbered lists, code, a table; no <o:p>, styles or comments; a local picture leaves its alt text", async () => {
    const { document, markdown, page, trace } = await pasteInto("Paste from Word", { "text/html": WORD, "text/plain": "Word heading" });
    const all = blocks(document);
    expect(all.find((b) => b.type === "heading-2" && textOf(b) === "Word heading")).toBeDefined();
    const marks = marksOf(document);
    expect(marks.get("wbold")).toEqual(["bold"]);
    expect(marks.get("witalic")).toEqual(["italic"]);
    expect(markdown).toContain("[wlink](https://example.org/word)");
    const bullets = all.find((b) => b.type === "list-unordered" && textOf(b).includes("word bullet one"))!;
    expect(bullets.nodes!.map((item) => textOf(item.nodes![0]).trim())).toEqual(["word bullet one", "word bullet two"]);
    expect(textOf(bullets.nodes![0])).toContain("word nested");
    const numbered = all.find((b) => b.type === "list-ordered")!;
    expect(textOf(numbered).trim()).toBe("word number");
    // Word's bullet characters are not text.
    expect(markdown).not.toMatch(/·|\bo\s+word nested/);
    const code = all.find((b) => b.type === "code")!;
    expect(code.data).toEqual(expect.objectContaining({ syntax: "python" }));
    expect(markdown).toContain("```python\ndef f():\n    return 1\n```");
    expect(markdown).toContain("word local picture");
    // Word's table is a table block with its cells' text.
    const table = all.find((b) => b.type === "table")!;
    expect(JSON.stringify(table)).toContain("wtablered");
    expect(markdown).toMatch(/Colour[\s\S]*Count[\s\S]*wtablered/);
    expect(markdown).not.toMatch(/mso-|o:p|MsoNormal|StartFragment|supportLists|clip_image|file:/);
    expect(trace.errors).toEqual([]);
    await page.close();
  });

  test("a hostile page's HTML: no script runs, javascript: links are text, only the http(s) picture is an image, nothing unknown is kept", async () => {
    const { document, markdown, page, trace } = await pasteInto("Hostile paste", { "text/html": HOSTILE, "text/plain": "hostile text" });
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.$$eval(".editor-content *", (els) => els.filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))).length)).toBe(0);
    expect(await page.$(".editor-content script, .editor-content iframe, .editor-content svg, .editor-content style")).toBeNull();
    expect(linkUrls(document).sort()).toEqual(["https://example.net/ok", "https://example.net/pic.png"]);
    const marks = marksOf(document);
    expect(markdown).toContain("jslink");
    expect(markdown).toContain("jslink2");
    expect(markdown).toContain("[oklink](https://example.net/ok)");
    expect(markdown).toContain("hostile text broken");
    expect([...marks.values()].flat().filter((m) => m !== "bold" && m !== "italic" && m !== "code" && m !== "strikethrough")).toEqual([]);
    const image = blocks(document).find((b) => b.type === "image")!;
    expect(image.data).toEqual({ ref: { kind: "url", url: "https://example.net/pic.png" }, alt: "web picture" });
    expect(JSON.stringify(document)).not.toMatch(/evil|onclick|onerror|onload|data-x|color:red|__xss/);
    expect(trace.dialogs).toEqual([]);
    expect(trace.errors).toEqual([]);
    // The stored page in the app's read view: still nothing runs.
    await page.goto(page.url().replace("?edit=blocks", ""));
    await page.waitForLoadState("load");
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    await page.close();
  });

  test("Markdown text becomes blocks (heading, marks, link, nested list, code block); plain text stays paragraphs", async () => {
    const { document, markdown, page, trace } = await pasteInto("Paste Markdown", { "text/plain": MARKDOWN });
    const all = blocks(document);
    expect(all.find((b) => b.type === "heading-1" && textOf(b) === "Markdown title")).toBeDefined();
    expect(marksOf(document).get("mdbold")).toEqual(["bold"]);
    expect(markdown).toContain("[mdlink](https://example.com/md)");
    const list = all.find((b) => b.type === "list-unordered")!;
    expect(list.nodes!.map((item) => textOf(item.nodes![0]))).toEqual(["md one", "md two"]);
    expect(textOf(list.nodes![0])).toContain("md nested");
    expect(all.find((b) => b.type === "code")?.data).toEqual(expect.objectContaining({ syntax: "js" }));
    expect(markdown).toContain("```js\nconst a = 1;\nconst b = 2;\n```");
    await page.close();

    const plain = await pasteInto("Paste plain text", { "text/plain": "First *plain* line\nsecond line" });
    expect(marksOf(plain.document).get("First *plain* line")).toEqual([]);
    expect(marksOf(plain.document).get("second line")).toEqual([]);
    expect(blocks(plain.document).filter((b) => b.type !== "paragraph" && b.type !== "heading-1")).toEqual([]);
    expect(trace.errors).toEqual([]);
    expect(plain.trace.errors).toEqual([]);
    await plain.page.close();
  });
});
