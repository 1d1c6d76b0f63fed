import { execFile } from "node:child_process";
import MarkdownIt from "markdown-it";
import { inlineRuns, renderPdf, type PdfPage, type PdfSource } from "./pdf";

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts);
}

interface Parsed {
  text: string;
  title?: string;
  outline: Array<{ title: string; items: Array<{ title: string }> }>;
}

/**
 * The PDF's text, title and outline as pdf-parse (PDF.js) reads them. In a child process: PDF.js loads
 * its worker with a dynamic import, which jest cannot run without VM modules.
 */
const PARSE = `
const { PDFParse } = require("pdf-parse");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c)).on("end", async () => {
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  const text = (await parser.getText()).text;
  const info = await parser.getInfo();
  await parser.destroy();
  const outline = (info.outline ?? []).map((i) => ({ title: i.title, items: (i.items ?? []).map((c) => ({ title: c.title })) }));
  process.stdout.write(JSON.stringify({ text, title: info.info?.Title, outline }));
});`;

function parsed(pdf: Buffer): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ["-e", PARSE], { cwd: __dirname, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Parsed)));
    child.stdin?.end(pdf);
  });
}

/** A source whose pages have bodies `doc-<id>` from `bodies`, counting how many ids each fetch asked for. */
function sourceOf(pages: Array<PdfPage & { markdown?: string }>, title = "Change request #1: Docs"): PdfSource & { fetches: number[] } {
  const fetches: number[] = [];
  return {
    title,
    details: ["Status: open"],
    pages: pages.map(({ markdown, ...page }) => ({ ...page, ...(markdown !== undefined ? { documentId: `doc-${page.id}` } : {}) })),
    totalPages: pages.length,
    fetches,
    async bodies(ids) {
      fetches.push(ids.length);
      return Object.fromEntries(pages.filter((p) => ids.includes(`doc-${p.id}`)).map((p) => [`doc-${p.id}`, p.markdown ?? ""]));
    },
  };
}

const RICH = [
  "# Heading one",
  "",
  "A **bold** and *italic* paragraph with `inline code` and a [link](https://example.com/docs).",
  "",
  "- first item",
  "- second item",
  "  1. nested ordered",
  "",
  "> quoted words",
  "",
  "```js",
  "const answer = 42;",
  "```",
  "",
  "| Name | Value |",
  "| --- | --- |",
  "| alpha | 1 |",
  "",
  "![A diagram](diagram.png)",
  "",
  "Grüße aus Köln — Привет, Ελλάδα.",
].join("\n");

describe("renderPdf", () => {
  test("writes a PDF whose text holds every page title and its rendered markdown, Unicode included", async () => {
    const source = sourceOf([
      { id: "p1", title: "Welcome", depth: 0, markdown: RICH },
      { id: "p2", title: "Child page", depth: 1, markdown: "Child body" },
      { id: "p3", title: "Empty", depth: 0 },
    ]);
    const pdf = await bytesOf(renderPdf(source));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const tail = pdf.subarray(-64).toString("latin1");
    expect(tail).toContain("startxref");
    expect(tail.trimEnd().endsWith("%%EOF")).toBe(true);
    const { text, title, outline } = await parsed(pdf);
    for (const words of ["Change request #1: Docs", "Contents", "Welcome", "Child page", "Empty", "Heading one", "bold", "italic", "inline code", "link", "first item", "1. nested ordered", "quoted words", "const answer = 42;", "alpha", "[image: A diagram]", "Grüße aus Köln — Привет, Ελλάδα."]) {
      expect(text).toContain(words);
    }
    // Markdown syntax is rendered, not printed.
    expect(text).not.toContain("**bold**");
    expect(text).not.toContain("```");
    expect(title).toBe("Change request #1: Docs");
    expect(outline.map((item) => item.title)).toEqual(["Contents", "Welcome", "Empty"]);
    expect(outline[1].items.map((item) => item.title)).toEqual(["Child page"]);
  });

  test("characters the font has no glyph for (CJK in DejaVu) print as U+FFFD, the rest of the line as it is", async () => {
    const { text } = await parsed(await bytesOf(renderPdf(sourceOf([{ id: "p1", title: "Grüße, 東京", depth: 0, markdown: "Grüße, 東京 and `код 東`" }]))));
    expect(text).toContain("Grüße, \ufffd\ufffd and код \ufffd");
    expect(text).not.toContain("\u0000");
  });

  test("deeply nested lists and quotes stay readable (indentation stops growing)", async () => {
    const deep = Array.from({ length: 30 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n") + "\n\n" + ">".repeat(30) + " deep quote";
    const { text } = await parsed(await bytesOf(renderPdf(sourceOf([{ id: "p1", title: "Deep", depth: 0, markdown: deep }]))));
    expect(text).toContain("level 29");
    expect(text).toContain("deep quote");
  });

  test("links to the web are clickable", async () => {
    const pdf = await bytesOf(renderPdf(sourceOf([{ id: "p1", title: "Links", depth: 0, markdown: "See [the docs](https://example.com/docs)." }]), { compress: false }));
    expect(pdf.toString("latin1")).toContain("(https://example.com/docs)");
  });

  test("bodies are fetched in batches and the page limit is noted on the title page", async () => {
    const pages = Array.from({ length: 450 }, (_, i) => ({ id: `p${i}`, title: `Page ${i}`, depth: 0, markdown: `Body ${i}` }));
    const source = { ...sourceOf(pages), totalPages: 500 };
    const pdf = await bytesOf(renderPdf(source, { limits: { maxPages: 450, maxMarkdownBytes: 1024 * 1024 } }));
    expect(source.fetches).toEqual([200, 200, 50]);
    const { text } = await parsed(pdf);
    expect(text).toContain("The selection has 500 pages; this export prints the first 450");
    expect(text).toContain("This export is incomplete");
    expect(text).toContain("Body 449");
  }, 30_000);

  test("the markdown byte limit stops the export with a note", async () => {
    const pages = Array.from({ length: 5 }, (_, i) => ({ id: `p${i}`, title: `Page ${i}`, depth: 0, markdown: `${"x".repeat(900)} end ${i}` }));
    const { text } = await parsed(await bytesOf(renderPdf(sourceOf(pages), { limits: { maxPages: 10, maxMarkdownBytes: 2000 } })));
    expect(text).toContain("end 1");
    expect(text).not.toContain("end 2");
    expect(text).toContain("It holds 2 of the 5 pages selected");
  });
});

describe("inlineRuns", () => {
  const md = new MarkdownIt({ linkify: true });
  const runsOf = (markdown: string) => inlineRuns(md.parseInline(markdown, {})[0].children);

  test("styles follow emphasis, code and links; relative links are not clickable", () => {
    expect(runsOf("a **b *c*** `d` [e](https://x.test) [f](other-page)")).toEqual([
      { text: "a ", bold: false, italic: false, strike: false },
      { text: "b ", bold: true, italic: false, strike: false },
      { text: "c", bold: true, italic: true, strike: false },
      { text: " ", bold: false, italic: false, strike: false },
      { text: "d", bold: false, italic: false, strike: false, code: true },
      { text: " ", bold: false, italic: false, strike: false },
      { text: "e", bold: false, italic: false, strike: false, link: "https://x.test" },
      { text: " ", bold: false, italic: false, strike: false },
      { text: "f", bold: false, italic: false, strike: false },
    ]);
  });

  test("images print as their alt text", () => {
    expect(runsOf("![Alt words](x.png)")).toEqual([{ text: "[image: Alt words]", bold: false, italic: true, strike: false }]);
  });
});
