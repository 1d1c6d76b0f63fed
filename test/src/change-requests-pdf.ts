// Reading an exported PDF in the change request suites: its bytes, text, title and outline as
// pdf-parse (PDF.js) sees them. PDF.js loads its worker with a dynamic import, which jest cannot run
// without VM modules, so it runs in a child process.
import { execFile } from "node:child_process";

export interface ParsedPdf {
  text: string;
  title?: string;
  outline: Array<{ title: string; items: Array<{ title: string }> }>;
}

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

export function parsePdf(pdf: Buffer): Promise<ParsedPdf> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ["-e", PARSE], { cwd: __dirname, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as ParsedPdf),
    );
    child.stdin?.end(pdf);
  });
}

/** A well-formed PDF file: the header, and a cross-reference trailer at the end. */
export function expectPdfFile(pdf: Buffer): void {
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const tail = pdf.subarray(-64).toString("latin1");
  expect(tail).toContain("startxref");
  expect(tail.trimEnd().endsWith("%%EOF")).toBe(true);
}
