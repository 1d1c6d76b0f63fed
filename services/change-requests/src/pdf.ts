// A plain-text PDF of pages (title and markdown source): A4, Helvetica, wrapped lines, one section per page.
// The file is pure ASCII (other characters are written as octal escapes of their Latin-1 code, or "?"),
// so it can travel as text through the transporter and its byte offsets are its string offsets.

export interface PdfSection {
  title: string;
  markdown: string;
}

const WIDTH = 595;
const HEIGHT = 842;
const MARGIN = 56;
const BODY_SIZE = 10;
const TITLE_SIZE = 16;
const LEADING = 14;
/** Helvetica at 10 pt averages ~5 pt a character: this many fit between the margins. */
const LINE_CHARS = 92;
const LINES_PER_PAGE = Math.floor((HEIGHT - 2 * MARGIN) / LEADING);

/** A PDF string literal body: ASCII as is, Latin-1 as octal escapes, anything else as "?". */
export function pdfText(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "(" || ch === ")" || ch === "\\") out += `\\${ch}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code === 9) out += "    ";
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += "?";
  }
  return out;
}

/** Splits a line into pieces of at most `width` characters, at spaces where it can. */
export function wrap(line: string, width = LINE_CHARS): string[] {
  const out: string[] = [];
  let rest = line.replace(/\s+$/, "");
  while (rest.length > width) {
    let cut = rest.lastIndexOf(" ", width);
    if (cut <= 0) cut = width;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, "");
  }
  out.push(rest);
  return out;
}

type Line = { text: string; title: boolean };

function layout(sections: PdfSection[]): Line[][] {
  const pages: Line[][] = [];
  let current: Line[] = [];
  const push = (line: Line) => {
    if (current.length >= LINES_PER_PAGE) {
      pages.push(current);
      current = [];
    }
    current.push(line);
  };
  sections.forEach((section, i) => {
    // Each section starts on a new PDF page.
    if (i > 0 && current.length) {
      pages.push(current);
      current = [];
    }
    for (const piece of wrap(section.title || "Untitled", 60)) push({ text: piece, title: true });
    push({ text: "", title: false });
    for (const line of section.markdown.split(/\r?\n/)) for (const piece of wrap(line)) push({ text: piece, title: false });
  });
  if (current.length || !pages.length) pages.push(current);
  return pages;
}

function contentStream(lines: Line[]): string {
  const ops: string[] = ["BT", `${MARGIN} ${HEIGHT - MARGIN} Td`, `${LEADING} TL`];
  for (const line of lines) ops.push(`/${line.title ? "F2" : "F1"} ${line.title ? TITLE_SIZE : BODY_SIZE} Tf`, `(${pdfText(line.text)}) '`);
  ops.push("ET");
  return ops.join("\n");
}

/** The PDF document of `sections`, as an ASCII string. */
export function renderPdf(title: string, sections: PdfSection[]): string {
  const pages = layout(sections);
  const objects: string[] = [];
  // 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content stream per page.
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  objects[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>";
  objects[5] = `<< /Title (${pdfText(title)}) /Producer (docshelf) >>`;
  pages.forEach((lines, i) => {
    const stream = contentStream(lines);
    objects[pageIds[i]] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}
