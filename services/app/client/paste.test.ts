import { checkDocument, documentToMarkdown } from "@docshelf/document";
import { Fragment, Slice, type Node as PMNode } from "prosemirror-model";
import { fromEditor } from "./convert";
import { declared, looksLikeMarkdown, markdownSlice, MARKDOWN_LIMIT, safeSlice, styleTags } from "./paste";
import { tableRows, TABLE_LIMITS } from "./paste-table";
import { schema, tableRow } from "./schema";

/** A slice as the document it would make on its own, checked against GitBook's model. */
function asDocument(slice: Slice) {
  const doc = schema.node("doc", null, slice.content);
  doc.check();
  return checkDocument(fromEditor(doc));
}

function nodeNames(slice: Slice): string[] {
  const names: string[] = [];
  slice.content.descendants((n: PMNode) => {
    names.push(n.type.name);
  });
  return names;
}

describe("pasted Markdown", () => {
  test.each([
    ["# Title\n\nSome text", true],
    ["- a\n- b", true],
    ["1. one\n2. two", true],
    ["> quoted", true],
    ["```js\ncode\n```", true],
    ["| a | b |\n|---|---|\n| 1 | 2 |", true],
    ['{% hint style="info" %}\nx\n{% endhint %}', true],
    ["Just a sentence with **bold** and a [link](https://example.com).", false],
    ["#hashtag is not a heading", false],
    ["Two lines\nof plain text", false],
    ["- ", false],
  ])("%j looks like Markdown: %s", (text, expected) => {
    expect(looksLikeMarkdown(text)).toBe(expected);
  });

  test("too long a text is not read as Markdown (the parse is bounded)", () => {
    expect(looksLikeMarkdown(`# Big\n\n${"x".repeat(MARKDOWN_LIMIT)}`)).toBe(false);
  });

  test("headings, lists, nested lists, quotes and fenced code become their blocks", () => {
    const slice = markdownSlice("# Title\n\nText with **bold**, _italic_, ~~gone~~ and `code`.\n\n- a\n  - nested\n- b\n\n1. one\n2. two\n\n> quoted\n\n```js\nlet a = 1;\nlet b = 2;\n```\n");
    const doc = asDocument(slice);
    expect(doc.nodes.map((n) => n.type)).toEqual(["heading-1", "paragraph", "list-unordered", "list-ordered", "blockquote", "code"]);
    const names = nodeNames(slice);
    expect(names.filter((n) => n === "list_unordered")).toHaveLength(2);
    expect(names.filter((n) => n === "code_line")).toHaveLength(2);
    const markdown = documentToMarkdown(doc);
    expect(markdown).toContain("**bold**");
    expect(markdown).toContain("_italic_");
    expect(markdown).toContain("~~gone~~");
    expect(markdown).toContain("`code`");
    expect(markdown).toContain("```js\nlet a = 1;\nlet b = 2;\n```");
  });

  test("a Markdown table becomes a table block", () => {
    const doc = asDocument(markdownSlice("| Name | Age |\n| --- | --- |\n| Ann | 3 |\n"));
    expect(doc.nodes.map((n) => n.type)).toEqual(["table"]);
  });

  test("links keep http(s) and mailto addresses only; javascript: links are plain text", () => {
    const slice = markdownSlice("- [web](https://example.com/a) [mail](mailto:a@example.com)\n- [bad](javascript:alert(1)) [rel](other-page.md) [data](data:text/html,x)\n");
    const urls: string[] = [];
    slice.content.descendants((n) => {
      for (const m of n.marks) if (m.type.name === "link") urls.push(String((m.attrs.data as { ref: { url: string } }).ref.url));
    });
    expect([...new Set(urls)]).toEqual(["https://example.com/a", "mailto:a@example.com"]);
    // The words stay (markdown-it leaves a javascript: or data: link as its source text).
    const text = slice.content.textBetween(0, slice.content.size, "\n");
    expect(text).toContain("web mail");
    expect(text).toMatch(/bad.* rel .*data/);
  });

  test("images from http(s) stay image blocks; others go; embeds only from http(s)", () => {
    const slice = markdownSlice('# Pictures\n\n![web](https://example.com/a.png)\n\n![local](pic.png)\n\n{% embed url="javascript:alert(1)" %}\n\n{% embed url="https://example.com/v" %}\n');
    const json = JSON.stringify(slice.toJSON());
    expect(json).toContain("https://example.com/a.png");
    expect(json).toContain("https://example.com/v");
    expect(json).not.toMatch(/pic\.png|javascript:/);
    asDocument(slice);
  });

  test("a table's cells keep only safe links and pictures", () => {
    const slice = markdownSlice("| Name | Link |\n| --- | --- |\n| [web](https://example.com/t) | [rel](other.md) ![p](data:image/png;base64,AAAA) |\n");
    const json = JSON.stringify(slice.toJSON());
    expect(json).toContain("https://example.com/t");
    expect(json).not.toMatch(/other\.md|data:image/);
    expect(json).toContain("rel");
    asDocument(slice);
  });

  test("raw HTML in Markdown is kept as text, without the parser's raw key", () => {
    const slice = markdownSlice('# T\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n');
    const keys: unknown[] = [];
    slice.content.descendants((n) => {
      if (n.attrs.key !== undefined && n.attrs.key !== null) keys.push(n.attrs.key);
    });
    expect(keys).toEqual([]);
    const doc = asDocument(slice);
    expect(doc.nodes.map((n) => n.type)).toEqual(["heading-1", "paragraph", "paragraph"]);
    expect(slice.content.textBetween(0, slice.content.size, "\n")).toContain("<script>alert(1)</script>");
  });
});

describe("safeSlice (every paste)", () => {
  const link = (url: string) => schema.mark("link", { data: { ref: { kind: "url", url } } });

  test("drops unsafe link marks and keeps the text", () => {
    const p = schema.node("paragraph", null, [schema.text("ok", [link("https://example.com")]), schema.text(" bad", [link("javascript:alert(1)"), schema.mark("bold")]), schema.text(" vb", [link(" VBScript:x")])]);
    const clean = safeSlice(new Slice(Fragment.from(p), 1, 1));
    const json = JSON.stringify(clean.toJSON());
    expect(json).toContain("https://example.com");
    expect(json).not.toMatch(/javascript|vbscript/i);
    expect(clean.content.textBetween(0, clean.content.size)).toBe("ok bad vb");
    expect(json).toContain('"bold"');
  });

  test("drops images without a web address and an images block left empty", () => {
    const image = (url: string) => schema.node("image", { data: { ref: { kind: "url", url }, alt: "a" }, isVoid: true, fragments: [] });
    const images = schema.node("images", { data: {} }, [image("data:image/png;base64,AAAA"), image("https://example.com/ok.png")]);
    const onlyBad = schema.node("images", { data: {} }, [image("javascript:alert(1)")]);
    const clean = safeSlice(new Slice(Fragment.from([images, onlyBad, schema.node("paragraph", null, [schema.text("after")])]), 0, 1));
    expect(nodeNames(clean)).toEqual(["images", "image", "paragraph", "text"]);
    expect(JSON.stringify(clean.toJSON())).not.toMatch(/data:|javascript:/);
  });

  test("pasted blocks keep no key (keys stay unique in the page)", () => {
    const p = schema.node("paragraph", { key: "abc", data: {} }, [schema.text("x")]);
    const clean = safeSlice(new Slice(Fragment.from(p), 0, 0));
    expect(clean.content.firstChild?.attrs.key).toBeNull();
  });
});

describe("styles of pasted spans (Google Docs, Word) as marks", () => {
  const GOOGLE = "font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:italic;font-variant:normal;text-decoration:line-through;vertical-align:baseline;white-space:pre-wrap;";

  test("a declaration is read from the attribute's text", () => {
    expect(declared(GOOGLE, "font-weight")).toBe("700");
    expect(declared("FONT-STYLE: Italic", "font-style")).toBe("italic");
    expect(declared("color:red", "font-weight")).toBe("");
  });

  test("Google Docs' bold, italic and struck span is all three; its plain span none", () => {
    expect(styleTags(GOOGLE, "SPAN")).toEqual(["strong", "em", "s"]);
    expect(styleTags("font-size:11pt;font-weight:400;font-style:normal;text-decoration:none;", "SPAN")).toEqual([]);
  });

  test("Word's monospaced text is code; a tag already meaning the mark is not doubled", () => {
    expect(styleTags("font-family:'Courier New';mso-fareast-font-family:'Times New Roman'", "SPAN")).toEqual(["code"]);
    expect(styleTags("font-weight:bold", "B")).toEqual([]);
    expect(styleTags("font-weight:500", "SPAN")).toEqual([]);
  });
});

describe("pasted tables", () => {
  test("rows of cell texts become a table whose cells hold the text, Markdown syntax as text, short rows filled", () => {
    const rows = tableRows([["Name", "Note"], ["Ann", "likes *stars* | pipes"], ["Bob"]])!;
    expect(rows).toEqual([["Name", "Note"], ["Ann", "likes *stars* | pipes"], ["Bob", ""]]);
    const node = schema.nodes.table.create({ isVoid: true, data: { view: { type: "grid", hideHeader: false } } }, rows.map((row, r) => tableRow(schema, row, r === 0)));
    const doc = checkDocument(fromEditor(schema.node("doc", null, [node])));
    expect(doc.nodes[0].type).toBe("table");
    const markdown = documentToMarkdown(doc);
    expect(markdown).toContain("| Name | Note |");
    expect(markdown).toContain("| Ann | likes \\*stars\\* \\| pipes |");
    expect(markdown).toContain("| Bob |  |");
  });

  test("an empty table is none; a huge one is cut at the limits", () => {
    expect(tableRows([])).toBeUndefined();
    expect(tableRows([[]])).toBeUndefined();
    const wide = Array.from({ length: TABLE_LIMITS.rows + 10 }, (_, r) => Array.from({ length: TABLE_LIMITS.columns + 5 }, (_, c) => `${r}.${c}`));
    const rows = tableRows(wide)!;
    expect(rows).toHaveLength(TABLE_LIMITS.rows);
    expect(rows.every((r) => r.length === TABLE_LIMITS.columns)).toBe(true);
  });
});
