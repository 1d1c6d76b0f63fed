// Uploaded files as pages: Markdown as it is, HTML through the website importer's conversion, and a
// ZIP's Markdown and HTML entries at their folder paths (folders become parent pages).
import { slugifyHeading } from "@docshelf/slugs";
import { parseMarkdown } from "../revisions/markdown";
import { htmlToMarkdown } from "../website-import/to-markdown";
import { parsePage } from "../website-import/html-page";
import { PathAllocator } from "../website-import/page-paths";
import type { ImportedPage } from "../website-import";
import type { Upload } from "./uploads";
import { readZip, type ZipLimits } from "./zip";

/** A file the import reads, by its path in the upload (a ZIP's entry path, or the file's name). */
export interface SourceFile {
  path: string;
  kind: "markdown" | "html";
  bytes: Buffer;
}

export interface FilePagesResult {
  pages: ImportedPage[];
  /** Markdown and HTML files found (imported or over the page limit). */
  totalResources: number;
}

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
const HTML = /\.(?:html?|xhtml)$/i;
const FOLDER_PAGE = /^(?:readme|index)$/i;

function kindOf(path: string): SourceFile["kind"] | undefined {
  if (MARKDOWN.test(path)) return "markdown";
  if (HTML.test(path)) return "html";
  return undefined;
}

/** "Guides/Getting Started.md" → "guides/getting-started"; a folder's README or index is the folder's page; the root's is "index". */
export function pagePathOf(filePath: string): string {
  const segments = filePath.split("/").filter(Boolean);
  const last = (segments.pop() ?? "").replace(MARKDOWN, "").replace(HTML, "");
  if (!FOLDER_PAGE.test(last)) segments.push(last);
  return segments.map((segment) => slugifyHeading(segment) || "page").join("/") || "index";
}

function titleFromName(filePath: string): string {
  const name = (filePath.split("/").pop() ?? "").replace(MARKDOWN, "").replace(HTML, "");
  if (FOLDER_PAGE.test(name)) {
    const folder = filePath.split("/").slice(-2, -1)[0];
    return folder ? folder.replace(/[-_]+/g, " ") : "Introduction";
  }
  return name.replace(/[-_]+/g, " ").trim() || "Untitled";
}

/** One file as a page: its title (heading, front matter, <h1>/<title>, else the file name) and markdown body. */
export function fileToPage(file: SourceFile, path: string): ImportedPage {
  const text = file.bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (file.kind === "markdown") {
    const parsed = parseMarkdown(text);
    return { title: (parsed.title ?? titleFromName(file.path)).slice(0, 256), path, markdown: text, sourceUrl: file.path };
  }
  const page = parsePage(text, new URL("http://import.invalid/"));
  return { title: (page.title || titleFromName(file.path)).slice(0, 256), path, markdown: htmlToMarkdown(page.content.innerHTML), sourceUrl: file.path };
}

/** The Markdown and HTML files of the uploads, ZIPs opened (within `limits`), in path order. */
export async function sourceFiles(uploads: Upload[], limits: ZipLimits): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const [index, upload] of uploads.entries()) {
    if (upload.kind !== "zip") {
      files.push({ path: upload.name, kind: upload.kind, bytes: upload.bytes });
      continue;
    }
    for (const entry of await readZip(upload.bytes, `source.files[${index}]`, limits)) {
      const kind = kindOf(entry.path);
      if (kind) files.push({ path: entry.path, kind, bytes: entry.bytes });
    }
  }
  // Shallow paths first, so a folder's README claims the folder's path before a same-named file could.
  return files.sort((a, b) => a.path.split("/").length - b.path.split("/").length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Pages for the files, at most `maxPages`, each path unique (`-2`, `-3` for repeats). */
export function filePages(files: SourceFile[], maxPages: number): FilePagesResult {
  const paths = new PathAllocator();
  const pages = files.slice(0, maxPages).map((file) => fileToPage(file, paths.allocate(pagePathOf(file.path))));
  return { pages, totalResources: files.length };
}
