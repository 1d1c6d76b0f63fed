// Published pages as Markdown for AI tools, and a site's /llms.txt and /llms-full.txt (llmstxt.org).
// Pure functions: the caller gives the page's stored Markdown and how links resolve.
//
// Decision: GitBook's blocks stay in GitBook's own Markdown syntax (`{% hint %}`, `{% tabs %}`, …), the
// form the page is stored in and the one GitBook's own `.md` pages answer. It loses nothing (tabs, steppers,
// hint styles and code titles survive), it is what an agent sends back when it edits the page through the
// API, and models have read a great deal of it; a plain-Markdown rewrite would flatten those blocks.

/** A link target of a page: another page's Markdown URL, a file's download URL, or undefined (left as written). */
export type LinkResolver = (href: string) => string | undefined;

/** `{{ space.vars.X }}`, `{{ vars.X }}` and `{{ page.vars.X }}` replaced by their values (unknown ones stay as written). */
export function substituteMarkdownVariables(markdown: string, spaceVars: Record<string, string>, pageVars: Record<string, string>): string {
  return markdown.replace(/\{\{\s*(space\.vars|vars|page\.vars)\.([A-Za-z0-9_-]+)\s*\}\}/g, (whole, scope: string, name: string) => {
    const vars = scope === "page.vars" ? pageVars : spaceVars;
    return Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : whole;
  });
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Relative links and images of Markdown rewritten by `resolve` (`[x](install.md)`, `![x](a.png)`,
 * `{% content-ref url="x.md" %}`, `{% file src="…" %}`), outside fenced code. Absolute URLs, anchors and
 * links that name nothing known are left alone.
 */
export function rewriteLinks(markdown: string, resolvePage: LinkResolver, resolveFile: LinkResolver): string {
  let fence: string | null = null;
  const out: string[] = [];
  for (const line of markdown.split("\n")) {
    const opening = FENCE.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
      out.push(line);
      continue;
    }
    if (opening) {
      fence = opening[1];
      out.push(line);
      continue;
    }
    out.push(
      line
        .replace(/(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?((?:\s+"[^"\n]*")?)\s*\)/g, (whole, bang: string, text: string, href: string, title: string) => {
          const target = bang ? resolveFile(href) : resolvePage(href);
          return target ? `${bang}[${text}](${target}${title})` : whole;
        })
        .replace(/(\{%\s*content-ref\s+url=")([^"]*)(")/g, (whole, a: string, href: string, b: string) => {
          const target = resolvePage(href);
          return target ? `${a}${target}${b}` : whole;
        })
        .replace(/(\{%\s*file\s+src=")([^"]*)(")/g, (whole, a: string, src: string, b: string) => {
          const target = resolveFile(src);
          return target ? `${a}${target}${b}` : whole;
        }),
    );
  }
  return out.join("\n");
}

/** The line at the top of every Markdown answer: where the index of the whole site is. */
export function indexPointer(llmsTxtUrl: string): string {
  return `> For the complete documentation index, see [llms.txt](${llmsTxtUrl}). Every page is also available as Markdown: add \`.md\` to its URL.`;
}

export interface MarkdownPage {
  title: string;
  description?: string;
  /** The page's body, its links already rewritten. */
  body: string;
}

/** One page as Markdown: its title as the H1, its description, its body (GitBook's syntax kept). */
export function pageMarkdown(page: MarkdownPage, pointer?: string): string {
  const parts: string[] = [];
  if (pointer) parts.push(pointer);
  parts.push(`# ${oneLine(page.title || "Untitled")}`);
  if (page.description) parts.push(oneLine(page.description));
  const body = page.body.replace(/^\s*\n/, "").replace(/\s+$/, "");
  if (body) parts.push(body);
  return `${parts.join("\n\n")}\n`;
}

/** Text for one line of Markdown: newlines folded. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** Link text: brackets that would end it escaped. */
function linkText(text: string): string {
  return oneLine(text).replace(/([[\]\\])/g, "\\$1");
}

export interface LlmsEntry {
  title: string;
  url: string;
  description?: string;
}

export interface LlmsGroup {
  /** The H2: a section or site space. */
  title: string;
  entries: LlmsEntry[];
}

export interface LlmsIndex {
  title: string;
  description?: string;
  groups: LlmsGroup[];
}

/** The most `/llms.txt` answers (UTF-8 bytes), for the same reason as LLMS_FULL_MAX_BYTES: about 4,000 pages with descriptions. */
export const LLMS_TXT_MAX_BYTES = 512 * 1024;

/**
 * `/llms.txt` (llmstxt.org): an H1, a blockquote, an H2 per section or site space, a list of pages. Past
 * `maxBytes` the list stops with a note (a site that large is read through its MCP server's search).
 */
export function llmsTxt(index: LlmsIndex, maxBytes = LLMS_TXT_MAX_BYTES): string {
  const parts: string[] = [`# ${oneLine(index.title || "Documentation")}`];
  if (index.description) parts.push(`> ${oneLine(index.description)}`);
  const note = "\n\n> This index stops here: the site has more pages than fit in one file. Search them with the site's MCP server (`~gitbook/mcp`) or its search page.\n";
  let bytes = Buffer.byteLength(parts.join("\n\n")) + Buffer.byteLength(note);
  for (const group of index.groups) {
    const heading = `## ${oneLine(group.title || "Pages")}`;
    bytes += Buffer.byteLength(heading) + 2;
    if (bytes > maxBytes) return `${parts.join("\n\n")}${note}`;
    const lines: string[] = [];
    for (const entry of group.entries) {
      const line = `- [${linkText(entry.title || "Untitled")}](${entry.url})${entry.description ? `: ${oneLine(entry.description)}` : ""}`;
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > maxBytes) {
        parts.push(`${heading}${lines.length ? `\n\n${lines.join("\n")}` : ""}`);
        return `${parts.join("\n\n")}${note}`;
      }
      lines.push(line);
    }
    parts.push(`${heading}${lines.length ? `\n\n${lines.join("\n")}` : ""}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/**
 * The most `/llms-full.txt` answers (UTF-8 bytes). It is streamed page by page (a chunk at a time across the
 * transporter), so this bounds what one request may make the instance read and send, not its memory.
 */
export const LLMS_FULL_MAX_BYTES = 10 * 1024 * 1024;
/** The most pages `/llms-full.txt` reads (each is one read of content), whatever their size. */
export const LLMS_FULL_MAX_PAGES = 5000;
/** The longest `/llms-full.txt` works: past it the document ends with the note (a slow store, a huge site). */
export const LLMS_FULL_MAX_MS = 60_000;

/** Builds llms-full.txt page by page, and stops before the bound; `take` hands over what was written since it last did. */
export class LlmsFullWriter {
  private parts: string[] = [];
  private written: string[] = [];
  private bytes = 0;
  truncated = false;

  constructor(
    header: LlmsIndex,
    private readonly llmsTxtUrl: string,
    private readonly maxBytes = LLMS_FULL_MAX_BYTES,
  ) {
    const head = [`# ${oneLine(header.title || "Documentation")}`];
    if (header.description) head.push(`> ${oneLine(header.description)}`);
    this.push(`${head.join("\n\n")}\n`);
  }

  private push(text: string): void {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text, "utf8");
  }

  /** The text added since the last take (the head, pages, the closing note). */
  take(): string {
    const out = this.parts.join("");
    this.written.push(out);
    this.parts = [];
    return out;
  }

  /** Adds one page; false (and the document closed) when it would pass the bound. */
  add(page: MarkdownPage, url: string): boolean {
    if (this.truncated) return false;
    const text = `\n---\n\n${pageMarkdown({ ...page, body: `Source: ${url}\n\n${page.body}` })}`;
    const note = this.noteText();
    if (this.bytes + Buffer.byteLength(text, "utf8") + Buffer.byteLength(note, "utf8") > this.maxBytes) return this.close();
    this.push(text);
    return true;
  }

  /** Ends the document with the note (more pages than it reads); false, like a page that did not fit. */
  close(): boolean {
    if (!this.truncated) {
      this.truncated = true;
      this.push(this.noteText());
    }
    return false;
  }

  private noteText(): string {
    return `\n---\n\n> This document stops here: the site's content is larger than ${Math.round(this.maxBytes / 1024)} KB or ${LLMS_FULL_MAX_PAGES} pages, or took too long to read. Every page is listed in [llms.txt](${this.llmsTxtUrl}) and can be read as Markdown at its \`.md\` URL.\n`;
  }

  /** The whole document so far. */
  text(): string {
    return [...this.written, ...this.parts].join("");
  }
}
