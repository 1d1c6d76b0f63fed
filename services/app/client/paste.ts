// Pasting into the editor: HTML from web pages, Google Docs and Word, and Markdown text, into GitBook's
// document model. ProseMirror's own clipboard parsing does the work: the HTML is tidied first
// (`transformPastedHTML`: what Word and Google Docs add around the content goes, Word's list paragraphs
// become lists), then read by the schema's parse rules (schema.ts), which are the allow-list: no node,
// mark or attribute exists that a rule does not make. Plain text with Markdown block syntax is parsed by
// the same Markdown parser as the server's (@docshelf/document); other text is paragraphs. Everything
// pasted then goes through `safeSlice`: links only to http(s)/mailto, images and embeds only from http(s),
// and no block keeps a key (pasted content is new content; keys stay unique).
import { markdownToDocument } from "@docshelf/document/dist/parse";
import { Fragment, Slice, type Mark, type Node as PMNode, type ResolvedPos } from "prosemirror-model";
import { Plugin } from "prosemirror-state";
import { toEditor } from "./convert";
import { schema } from "./schema";

/** The most text read as Markdown at once (a bigger paste is paragraphs: the parse is bounded). */
export const MARKDOWN_LIMIT = 200_000;

const BLOCK_SYNTAX = [
  /^#{1,6}[ \t]+\S/, // heading
  /^[ \t]{0,3}[-*+][ \t]+\S/, // bullet
  /^[ \t]{0,3}\d{1,9}[.)][ \t]+\S/, // numbered item
  /^[ \t]{0,3}>[ \t]?\S/, // quote
  /^[ \t]{0,3}(```|~~~)/, // fenced code
  /^[ \t]{0,3}\|.*\|[ \t]*$/, // table row
  /^\{%[ \t]*[a-z-]+.*%\}[ \t]*$/, // GitBook block tag
];

/** Whether plain text is Markdown with block syntax (a heading, a list, a quote, fenced code, a table). */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length > MARKDOWN_LIMIT) return false;
  const lines = text.split(/\r\n?|\n/);
  return lines.some((line) => BLOCK_SYNTAX.some((re) => re.test(line)));
}

const LINK_URL = /^(https?:\/\/|mailto:)/i;
const WEB_URL = /^https?:\/\//i;

type Data = Record<string, unknown> | null;

function safeLink(mark: Mark): boolean {
  if (mark.type !== schema.marks.link) return true;
  const ref = ((mark.attrs.data as Data)?.ref ?? {}) as Record<string, unknown>;
  return ref.kind === "url" && typeof ref.url === "string" && LINK_URL.test(ref.url.trim());
}

/** Whether a node's references are all web addresses (an image's source, an embed, a file or page link). */
function safeRefs(node: PMNode): boolean {
  const data = (node.attrs.data as Data) ?? {};
  if (node.type === schema.nodes.embed) return typeof data.url === "string" && WEB_URL.test(data.url);
  const ref = data.ref as Record<string, unknown> | undefined;
  if (ref === undefined) return !["image", "inline_image", "file", "content_ref", "reusable_content"].includes(node.type.name);
  return ref.kind === "url" && typeof ref.url === "string" && WEB_URL.test(ref.url.trim());
}

const REF_TYPES = new Set(["image", "inline-image", "file", "content-ref", "reusable-content", "embed"]);

function safeUrl(value: unknown, pattern: RegExp): boolean {
  return typeof value === "string" && pattern.test(value.trim());
}

/** The GitBook JSON nodes an atom keeps in its `fragments` (a table's cells, an image's caption), made safe like the rest. */
function cleanJson(nodes: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    if (!node || typeof node !== "object") continue;
    const n = { ...(node as Record<string, unknown>) };
    const data = (n.data ?? {}) as Record<string, unknown>;
    const ref = data.ref as Record<string, unknown> | undefined;
    if (n.type === "link" && !(ref?.kind === "url" && safeUrl(ref.url, LINK_URL))) {
      out.push(...cleanJson((n.nodes as unknown[]) ?? []));
      continue;
    }
    if (typeof n.type === "string" && REF_TYPES.has(n.type)) {
      const ok = n.type === "embed" ? safeUrl(data.url, WEB_URL) : ref?.kind === "url" && safeUrl(ref.url, WEB_URL);
      if (!ok) continue;
    }
    if (typeof n.key === "string" && n.object === "block") delete n.key;
    if (Array.isArray(n.nodes)) n.nodes = cleanJson(n.nodes);
    if (Array.isArray(n.fragments)) n.fragments = cleanJson(n.fragments);
    out.push(n);
  }
  return out;
}

function cleanNode(node: PMNode): PMNode | null {
  if (node.isText) {
    const marks = node.marks.filter(safeLink);
    return marks.length === node.marks.length ? node : node.mark(marks);
  }
  if (!safeRefs(node)) {
    // An image without a usable source keeps its alt text, where text can be.
    const alt = (node.attrs.data as Data)?.alt;
    return node.isInline && typeof alt === "string" && alt ? schema.text(alt) : null;
  }
  let attrs = "key" in node.attrs && node.attrs.key !== null ? { ...node.attrs, key: null } : node.attrs;
  if (Array.isArray(node.attrs.fragments)) attrs = { ...attrs, fragments: cleanJson(node.attrs.fragments as unknown[]) };
  const content = cleanFragment(node.content);
  const marks = node.marks.filter(safeLink);
  // A container whose every child went (and which needs some): none at all.
  if (!node.isLeaf && content.childCount === 0 && !node.type.validContent(content)) return null;
  return node.type.create(attrs, content, marks);
}

function cleanFragment(fragment: Fragment): Fragment {
  const out: PMNode[] = [];
  fragment.forEach((child) => {
    const clean = cleanNode(child);
    if (clean) out.push(clean);
  });
  return Fragment.from(out);
}

/** A pasted slice with only safe references and no kept keys (see the file's comment). */
export function safeSlice(slice: Slice): Slice {
  const content = cleanFragment(slice.content);
  if (content.size === 0) return Slice.empty;
  try {
    return new Slice(content, slice.openStart, slice.openEnd);
  } catch {
    return Slice.maxOpen(content);
  }
}

/** Markdown text as a slice of editor blocks (through GitBook's document model), made safe. */
export function markdownSlice(text: string): Slice {
  const doc = toEditor(markdownToDocument(text));
  // Open at both ends where possible: a first paragraph joins the one the cursor is in.
  return safeSlice(Slice.maxOpen(doc.content));
}

const DROP = "script, style, meta, link, title, template, iframe, object, embed, noscript, xml, o\\:p, head";

/** Word's text not to show (a list item's bullet or number). */
const IGNORED = "[style*='mso-list:ignore' i], [style*='mso-list: ignore' i]";

function styleOf(el: Element): string {
  return (el.getAttribute("style") ?? "").toLowerCase();
}

/** A declaration of an element's style attribute, lower case ("" when absent). Read from the attribute:
 * under the editor page's CSP (no inline styles) the browser applies none of it, so `el.style` is empty. */
export function declared(style: string, property: string): string {
  for (const part of style.split(";")) {
    const colon = part.indexOf(":");
    if (colon > 0 && part.slice(0, colon).trim().toLowerCase() === property) return part.slice(colon + 1).trim().toLowerCase();
  }
  return "";
}

/** The marks a style attribute means (Google Docs' and Word's spans): their tags, outermost first. */
export function styleTags(style: string, tag: string): string[] {
  const tags: string[] = [];
  const weight = declared(style, "font-weight");
  if (/^(bold(er)?|[6-9]00)$/.test(weight) && tag !== "B" && tag !== "STRONG") tags.push("strong");
  if (declared(style, "font-style") === "italic" && tag !== "I" && tag !== "EM") tags.push("em");
  if (/line-through/.test(declared(style, "text-decoration") + declared(style, "text-decoration-line")) && tag !== "S" && tag !== "DEL") tags.push("s");
  if (/\b(courier|consolas|monaco|menlo|monospace|source code pro|roboto mono)\b/.test(declared(style, "font-family")) && tag !== "CODE" && tag !== "PRE") tags.push("code");
  return tags;
}

/** Word's list paragraphs (`mso-list: l0 level2 …`) as real (nested) lists. */
function wordLists(doc: Document): void {
  const isItem = (el: Element | null): el is HTMLElement => !!el && el.tagName === "P" && /mso-list:\s*l\d+\s+level\d+/.test(styleOf(el));
  for (const first of [...doc.querySelectorAll("p")]) {
    if (!isItem(first) || !first.isConnected || isItem(first.previousElementSibling)) continue;
    const run: HTMLElement[] = [];
    for (let el: Element | null = first; isItem(el); el = el.nextElementSibling) run.push(el);
    const root = doc.createElement("div");
    first.before(root);
    // The open lists, one a level.
    const stack: Array<{ level: number; list: HTMLElement }> = [];
    let listId = "";
    for (const p of run) {
      const [, id, levelText] = /mso-list:\s*(l\d+)\s+level(\d+)/.exec(styleOf(p)) ?? [];
      const level = Number(levelText ?? "1");
      // Another of Word's lists right after: a list of its own.
      if (id !== listId) stack.length = 0;
      listId = id;
      const marker = p.querySelector(IGNORED);
      const ordered = /^\s*(\d+|[a-z]{1,3})[.)]/i.test(marker?.textContent ?? "");
      // Word's bullet or number is text in a span it marks to be ignored; it is in the list's kind instead.
      marker?.remove();
      while (stack.length && stack[stack.length - 1].level > level) stack.pop();
      let top = stack[stack.length - 1];
      if (!top || top.level < level) {
        const list = doc.createElement(ordered ? "ol" : "ul");
        const parentItem = top?.list.lastElementChild;
        (parentItem ?? root).append(list);
        top = { level, list };
        stack.push(top);
      }
      const li = doc.createElement("li");
      li.append(...p.childNodes);
      top.list.append(li);
      p.remove();
    }
  }
}

/**
 * Pasted HTML tidied for the schema's parse rules: comments (Word's conditional ones too), scripts,
 * styles, metadata and Word's `<o:p>` go; bold, italic, strikethrough and monospace styles become
 * tags (Google Docs' bold wrapper goes); Google Docs' nested lists (a list right inside a list) move
 * into their item; Word's list paragraphs become lists; a picture that cannot be an image block leaves
 * its alt text; a table inside a table is its text (the outer one is a table block: paste-table.ts).
 * Parsed into an inert document: nothing in it loads or runs.
 */
export function tidyPastedHTML(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode?.removeChild(c);
  for (const el of [...doc.querySelectorAll(DROP)]) el.remove();
  // Word's bullets and numbers outside lists, and its empty-paragraph markers.
  wordLists(doc);
  for (const el of [...doc.querySelectorAll(IGNORED)]) el.remove();
  // Styles as tags; Google Docs' `<b style="font-weight:normal" id="docs-internal-guid-…">` is no bold.
  for (const el of [...doc.body.querySelectorAll("[style]")]) {
    const style = el.getAttribute("style") ?? "";
    if ((el.tagName === "B" || el.tagName === "STRONG") && /^(normal|[1-5]00)$/.test(declared(style, "font-weight"))) {
      el.replaceWith(...el.childNodes);
      continue;
    }
    const tags = styleTags(style, el.tagName);
    if (tags.length === 0 || el.closest("pre")) continue;
    let inner: Element = el;
    for (const tag of tags) {
      const wrap = doc.createElement(tag);
      wrap.append(...inner.childNodes);
      inner.append(wrap);
      inner = wrap;
    }
  }
  for (const list of [...doc.querySelectorAll("ul > ul, ul > ol, ol > ul, ol > ol")]) {
    const item = list.previousElementSibling;
    if (item?.tagName === "LI") item.append(list);
  }
  for (const img of [...doc.querySelectorAll("img")]) {
    if (!WEB_URL.test(img.getAttribute("src")?.trim() ?? "")) img.replaceWith(doc.createTextNode(img.getAttribute("alt") ?? ""));
  }
  // A table inside a table (a layout): the inner one's text only.
  for (const inner of [...doc.querySelectorAll("table table")]) inner.replaceWith(doc.createTextNode(inner.textContent ?? ""));
  return doc.body.innerHTML;
}

function inCode($context: ResolvedPos): boolean {
  return !!$context.parent.type.spec.code;
}

/** The editor's paste handling (see the file's comment). */
export function pasting(): Plugin {
  return new Plugin({
    props: {
      transformPastedHTML: (html) => tidyPastedHTML(html),
      clipboardTextParser: (text, $context, plain) => {
        if (plain || inCode($context) || !looksLikeMarkdown(text)) return null as unknown as Slice;
        return markdownSlice(text);
      },
      // A block moved by dragging it within the page is the page's own: it keeps its key.
      transformPasted: (slice, view) => (view.dragging?.move ? slice : safeSlice(slice)),
    },
  });
}
