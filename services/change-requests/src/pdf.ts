// A change request's pages as a PDF (pdfkit): a title page with contents, then each page under its title
// with its markdown rendered (markdown-it tokens), one outline entry per page. Written as a stream while
// the page bodies are fetched in batches; bounded by a page and a markdown byte limit, noted when cut.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import MarkdownIt from "markdown-it";
import PDFDocument from "pdfkit";

/** One page of the export, in tree order; `depth` 0 for a top-level page. */
export interface PdfPage {
  id: string;
  title: string;
  depth: number;
  documentId?: string;
}

export interface PdfSource {
  title: string;
  /** Lines under the title on the title page (space, revision, date). */
  details: string[];
  /** The pages to print, already cut to `limits.maxPages`. */
  pages: PdfPage[];
  /** How many pages the selection had before the cut (pages.length when nothing was cut). */
  totalPages: number;
  /** Page bodies by document id; called with up to BODY_BATCH ids at a time. */
  bodies(documentIds: string[]): Promise<Record<string, string>>;
}

export interface PdfLimits {
  /** Pages printed at most; the title page says when the selection had more. */
  maxPages: number;
  /** Markdown printed at most (bytes, all pages together); the export stops with a note past it. */
  maxMarkdownBytes: number;
}

export const PDF_LIMITS: PdfLimits = { maxPages: 1000, maxMarkdownBytes: 8 * 1024 * 1024 };
const BODY_BATCH = 200;

type FontRole = "regular" | "bold" | "italic" | "boldItalic" | "mono" | "monoBold";

/** DejaVu (Latin, Greek, Cyrillic, many symbols) when its package is installed, else pdfkit's Latin-1 standard fonts. */
interface FontSet {
  files: Record<FontRole, Buffer> | null;
  /** `text` as the font of `role` can print it: characters it has no glyph for become U+FFFD (or "?"). */
  printable(text: string, role?: FontRole): string;
}

// fontkit (pdfkit's font engine) ships without types; only the character set of a font is read here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require("fontkit") as { create(bytes: Buffer): { characterSet: number[] } };

const DEJAVU: Record<FontRole, string> = {
  regular: "DejaVuSans.ttf",
  bold: "DejaVuSans-Bold.ttf",
  italic: "DejaVuSans-Oblique.ttf",
  boldItalic: "DejaVuSans-BoldOblique.ttf",
  mono: "DejaVuSansMono.ttf",
  monoBold: "DejaVuSansMono-Bold.ttf",
};
const STANDARD: Record<FontRole, string> = {
  regular: "Helvetica",
  bold: "Helvetica-Bold",
  italic: "Helvetica-Oblique",
  boldItalic: "Helvetica-BoldOblique",
  mono: "Courier",
  monoBold: "Courier-Bold",
};

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
let fontSet: FontSet | undefined;

function clean(text: string): string {
  return text.replace(CONTROL, "").replace(/\t/g, "    ");
}

function loadFonts(): FontSet {
  if (fontSet) return fontSet;
  try {
    const dir = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
    const files = Object.fromEntries(Object.entries(DEJAVU).map(([role, file]) => [role, readFileSync(join(dir, file))])) as Record<FontRole, Buffer>;
    const covered = new Map<FontRole, Set<number>>();
    const coverage = (role: FontRole) => {
      let set = covered.get(role);
      if (!set) covered.set(role, (set = new Set(fontkit.create(files[role]).characterSet)));
      return set;
    };
    // A character without a glyph would print as an empty box and copy out as nothing: a visible U+FFFD says so.
    const printable = (text: string, role: FontRole = "regular") => {
      const set = coverage(role);
      let out = "";
      for (const ch of clean(text)) out += ch === "\n" || set.has(ch.codePointAt(0)!) ? ch : set.has(0xfffd) ? "\ufffd" : "?";
      return out;
    };
    fontSet = { files, printable };
  } catch {
    // pdfkit's standard fonts know WinAnsi (Latin-1) only.
    fontSet = { files: null, printable: (text) => clean(text).replace(/[^\n\u0020-\u007e\u00a0-\u00ff]/gu, "?") };
  }
  return fontSet;
}

const md = new MarkdownIt({ html: true, linkify: true });
type Token = MarkdownIt.Token;

/** A piece of inline text with one style. */
interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: string;
}

/** Inline tokens (an `inline` token's children) as styled runs. */
export function inlineRuns(children: Token[] | null): Run[] {
  const runs: Run[] = [];
  let bold = 0;
  let italic = 0;
  let strike = 0;
  let link: string | undefined;
  const push = (text: string, extra: Partial<Run> = {}) => {
    if (!text) return;
    runs.push({ text, bold: bold > 0, italic: italic > 0, strike: strike > 0, ...(link ? { link } : {}), ...extra });
  };
  for (const token of children ?? []) {
    switch (token.type) {
      case "text":
        push(token.content);
        break;
      case "code_inline":
        push(token.content, { code: true });
        break;
      case "softbreak":
        push(" ");
        break;
      case "hardbreak":
        push("\n");
        break;
      case "strong_open":
        bold++;
        break;
      case "strong_close":
        bold--;
        break;
      case "em_open":
        italic++;
        break;
      case "em_close":
        italic--;
        break;
      case "s_open":
        strike++;
        break;
      case "s_close":
        strike--;
        break;
      case "link_open": {
        const href = String(token.attrGet("href") ?? "");
        // Only absolute web and mail links mean something outside the space.
        link = /^(https?:|mailto:)/i.test(href) ? href : undefined;
        break;
      }
      case "link_close":
        link = undefined;
        break;
      case "image": {
        const alt = token.children?.map((c) => c.content).join("") || token.content;
        push(`[image${alt ? `: ${alt}` : ""}]`, { italic: true });
        break;
      }
      default:
        break;
    }
  }
  return runs;
}

function plain(children: Token[] | null): string {
  return inlineRuns(children)
    .map((r) => r.text)
    .join("");
}

const PAGE_MARGIN = 56;
const BODY_SIZE = 10.5;
const HEADING_SIZES = [18, 15.5, 13.5, 12, 11, 11];
const INDENT = 16;
const MAX_INDENT = 8 * INDENT;
const LINK_COLOR = "#1a56db";
const TEXT_COLOR = "#111111";
const MUTED_COLOR = "#555555";

type Doc = InstanceType<typeof PDFDocument>;

/** Writes markdown blocks into a pdfkit document at the current position. */
class MarkdownWriter {
  private indent = 0;
  private quotes = 0;
  private readonly lists: Array<{ ordered: boolean; next: number }> = [];
  private bullet: string | null = null;
  private row: string[] | null = null;
  private header = false;

  constructor(
    private readonly doc: Doc,
    private readonly font: (role: FontRole) => string,
    private readonly printable: (text: string, role?: FontRole) => string,
  ) {}

  write(markdown: string): void {
    const tokens = md.parse(markdown, {});
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      const next = tokens[i + 1];
      switch (token.type) {
        case "heading_open": {
          const size = HEADING_SIZES[Number(token.tag.slice(1)) - 1] ?? BODY_SIZE;
          this.doc.moveDown(0.4);
          this.runs(inlineRuns(next?.children ?? null), size, { bold: true });
          this.doc.moveDown(0.2);
          i++;
          break;
        }
        case "paragraph_open":
          this.runs(inlineRuns(next?.children ?? null), BODY_SIZE);
          this.doc.moveDown(token.hidden ? 0.1 : 0.5);
          i++;
          break;
        case "inline":
          this.runs(inlineRuns(token.children), BODY_SIZE);
          break;
        case "bullet_list_open":
        case "ordered_list_open":
          this.lists.push({ ordered: token.type === "ordered_list_open", next: Number(token.attrGet("start") ?? 1) });
          this.indent += INDENT;
          break;
        case "bullet_list_close":
        case "ordered_list_close":
          this.lists.pop();
          this.indent -= INDENT;
          if (!this.lists.length) this.doc.moveDown(0.4);
          break;
        case "list_item_open": {
          const list = this.lists[this.lists.length - 1];
          this.bullet = list?.ordered ? `${list.next++}. ` : "• ";
          break;
        }
        case "blockquote_open":
          this.indent += INDENT;
          this.quotes++;
          break;
        case "blockquote_close":
          this.indent -= INDENT;
          this.quotes--;
          break;
        case "fence":
        case "code_block":
          this.code(token.content.replace(/\n$/, ""));
          break;
        case "hr":
          this.rule();
          break;
        case "thead_open":
          this.header = true;
          break;
        case "thead_close":
          this.header = false;
          break;
        case "tr_open":
          this.row = [];
          break;
        case "th_open":
        case "td_open":
          this.row?.push(plain(next?.children ?? null));
          i++;
          break;
        case "tr_close":
          if (this.row) this.runs([{ text: this.row.join("  |  "), bold: this.header }], BODY_SIZE - 0.5);
          this.row = null;
          break;
        case "table_close":
          this.doc.moveDown(0.5);
          break;
        case "html_block": {
          const text = token.content.replace(/<[^>]*>/g, "").trim();
          if (text) {
            this.runs([{ text }], BODY_SIZE);
            this.doc.moveDown(0.5);
          }
          break;
        }
        default:
          break;
      }
    }
  }

  private left(): number {
    // Deeply nested lists and quotes stop indenting: the text keeps at least two thirds of the line.
    return PAGE_MARGIN + Math.min(this.indent, MAX_INDENT);
  }

  private width(): number {
    return this.doc.page.width - PAGE_MARGIN - this.left();
  }

  private roleOf(run: Run, base: { bold?: boolean }): FontRole {
    const bold = run.bold || base.bold;
    if (run.code) return bold ? "monoBold" : "mono";
    if (bold) return run.italic ? "boldItalic" : "bold";
    return run.italic ? "italic" : "regular";
  }

  /** Styled runs as one flowing paragraph (with the pending list bullet in front). */
  runs(runs: Run[], size: number, base: { bold?: boolean } = {}): void {
    const all = this.bullet ? [{ text: this.bullet }, ...runs] : runs;
    this.bullet = null;
    const pieces = all
      .map((r) => {
        const role = this.roleOf(r, base);
        return { ...r, role, text: this.printable(r.text, role) };
      })
      .filter((r) => r.text.length > 0);
    if (!pieces.length) return;
    const width = this.width();
    this.doc.x = this.left();
    pieces.forEach((run, index) => {
      this.doc
        .font(this.font(run.role))
        .fontSize(run.code ? size - 1 : size)
        .fillColor(run.link ? LINK_COLOR : this.quotes > 0 ? MUTED_COLOR : TEXT_COLOR);
      this.doc.text(run.text, {
        width,
        continued: index < pieces.length - 1,
        link: run.link ?? null,
        underline: !!run.link,
        strike: !!run.strike,
      });
    });
    this.doc.fillColor(TEXT_COLOR);
  }

  private code(text: string): void {
    const body = this.printable(text, "mono");
    this.doc.font(this.font("mono")).fontSize(BODY_SIZE - 1.5);
    const width = this.width() - 12;
    const height = this.doc.heightOfString(body || " ", { width });
    const top = this.doc.y;
    // A shaded box when the block fits on the page; a long block just flows on in monospace.
    if (top + height + 8 < this.doc.page.height - this.doc.page.margins.bottom) {
      this.doc
        .save()
        .rect(this.left(), top - 3, this.width(), height + 8)
        .fill("#f3f4f6")
        .restore();
    }
    this.doc.fillColor("#222222").text(body || " ", this.left() + 6, top + 1, { width });
    this.doc.fillColor(TEXT_COLOR).moveDown(0.8);
    this.doc.x = this.left();
  }

  private rule(): void {
    const y = this.doc.y + 4;
    this.doc
      .save()
      .moveTo(this.left(), y)
      .lineTo(this.doc.page.width - PAGE_MARGIN, y)
      .lineWidth(0.5)
      .stroke("#bbbbbb")
      .restore();
    this.doc.moveDown(0.8);
  }
}

export interface RenderOptions {
  limits?: PdfLimits;
  /** pdfkit compresses content streams by default; tests may turn it off to read the raw text. */
  compress?: boolean;
}

/**
 * The PDF of `source` as a stream: pdfkit writes it out while the page bodies are fetched and rendered.
 * A failure while rendering ends the stream with that error.
 */
export function renderPdf(source: PdfSource, options: RenderOptions = {}): NodeJS.ReadableStream {
  const limits = options.limits ?? PDF_LIMITS;
  const fonts = loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE_MARGIN,
    compress: options.compress ?? true,
    autoFirstPage: false,
    info: { Title: clean(source.title), Producer: "docshelf", Creator: "docshelf" },
    displayTitle: true,
  });
  if (fonts.files) for (const [role, bytes] of Object.entries(fonts.files)) doc.registerFont(role, bytes);
  const font = (role: FontRole) => (fonts.files ? role : STANDARD[role]);
  void write(doc, source, limits, font, fonts.printable).catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return doc;
}

type Printable = (text: string, role?: FontRole) => string;

async function write(doc: Doc, source: PdfSource, limits: PdfLimits, font: (role: FontRole) => string, printable: Printable): Promise<void> {
  const pages = source.pages.slice(0, limits.maxPages);
  titlePage(doc, source, pages, limits, font, printable);
  const writer = new MarkdownWriter(doc, font, printable);
  const outline: PDFKit.PDFOutline[] = [];
  let bytes = 0;
  let printed = 0;
  outer: for (let start = 0; start < pages.length; start += BODY_BATCH) {
    const batch = pages.slice(start, start + BODY_BATCH);
    const ids = [...new Set(batch.flatMap((p) => (p.documentId ? [p.documentId] : [])))];
    const bodies = ids.length ? await source.bodies(ids) : {};
    for (const page of batch) {
      const markdown = (page.documentId && bodies[page.documentId]) || "";
      bytes += Buffer.byteLength(markdown);
      if (bytes > limits.maxMarkdownBytes) break outer;
      doc.addPage();
      const parent = page.depth > 0 ? (outline[page.depth - 1] ?? doc.outline) : doc.outline;
      outline[page.depth] = parent.addItem(page.title || "Untitled");
      outline.length = page.depth + 1;
      doc
        .font(font("bold"))
        .fontSize(20)
        .fillColor(TEXT_COLOR)
        .text(printable(page.title, "bold") || "Untitled", { destination: destinationOf(page) });
      doc.moveDown(0.6);
      writer.write(markdown);
      printed++;
    }
  }
  if (printed < source.totalPages) {
    doc.addPage();
    doc
      .font(font("bold"))
      .fontSize(14)
      .text("This export is incomplete");
    doc
      .moveDown(0.5)
      .font(font("regular"))
      .fontSize(BODY_SIZE)
      .text(
        `It holds ${printed} of the ${source.totalPages} pages selected: an export prints at most ${limits.maxPages} pages and ` +
          `${Math.round(limits.maxMarkdownBytes / (1024 * 1024))} MB of markdown. Export a part of the content (one page and its sub-pages) to print the rest.`,
      );
  }
  doc.end();
}

function destinationOf(page: PdfPage): string {
  return `page-${page.id}`;
}

function titlePage(doc: Doc, source: PdfSource, pages: PdfPage[], limits: PdfLimits, font: (role: FontRole) => string, printable: Printable): void {
  doc.addPage();
  doc.outline.addItem("Contents");
  doc
    .font(font("bold"))
    .fontSize(24)
    .fillColor(TEXT_COLOR)
    .text(printable(source.title, "bold"));
  doc.moveDown(0.5).font(font("regular")).fontSize(BODY_SIZE).fillColor(MUTED_COLOR);
  for (const line of source.details) doc.text(printable(line));
  if (pages.length < source.totalPages) {
    doc.moveDown(0.5).text(`The selection has ${source.totalPages} pages; this export prints the first ${pages.length} (at most ${limits.maxPages}).`);
  }
  doc.moveDown(1.2).fillColor(TEXT_COLOR).font(font("bold")).fontSize(14).text("Contents");
  doc.moveDown(0.4).font(font("regular")).fontSize(BODY_SIZE);
  for (const page of pages) {
    doc.text(printable(page.title) || "Untitled", PAGE_MARGIN + Math.min(page.depth, 8) * INDENT, undefined, { goTo: destinationOf(page) });
  }
}
