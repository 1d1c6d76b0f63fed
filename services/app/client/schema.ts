// The editor's ProseMirror schema: GitBook's JSON document model, one node type per block type (its
// name with `_` for `-`; `code` is `code_block`). Every node keeps the GitBook fields the editor does not edit as attributes
// (`key`, `data`, `isVoid`, and an atom's `fragments`), so a document goes in and comes out unchanged
// (convert.ts). Blocks with fragments the editor edits in place (expandable: title and body) hold them
// as `fragment` children; an image keeps its caption as an attribute (edited in the block bar). A table is
// rows of cells (`table` > `table_row` > `table_header` / `table_cell`, the node roles prosemirror-tables
// edits): its first row holds the columns' titles, each other row is a record, each cell one paragraph
// (the record's fragment for that column). A table the editor cannot edit as such (cards, other column
// types, merged cells) stays a box (`table_kept`) and is kept as it is.
import { captionOf, lengthText } from "./image";
import { pastedTableRows } from "./paste-table";
import { Fragment, Schema, type DOMOutputSpec, type MarkSpec, type Node as PMNode, type NodeSpec } from "prosemirror-model";

/** Attributes every block and inline node carries back to its GitBook form. */
const KEPT = { key: { default: null }, data: { default: null }, isVoid: { default: null } };
const ATOM_ATTRS = { ...KEPT, fragments: { default: null } };

type Data = Record<string, unknown> | null;
const dataOf = (node: PMNode): Record<string, unknown> => (node.attrs.data as Data) ?? {};

function container(tag: string, className: string, content: string, group = "block", extra: Partial<NodeSpec> = {}): NodeSpec {
  return {
    content,
    group,
    attrs: KEPT,
    defining: true,
    toDOM: (): DOMOutputSpec => [tag, { class: className }, 0],
    parseDOM: [{ tag: `${tag}.${className.split(" ")[0]}` }],
    ...extra,
  };
}

/** A void block shown as a labelled box: what the editor cannot change in place yet is kept as it is. */
function atom(type: string, label: (node: PMNode) => string): NodeSpec {
  return {
    group: "block",
    atom: true,
    selectable: true,
    draggable: true,
    attrs: ATOM_ATTRS,
    toDOM: (node): DOMOutputSpec => ["div", { class: `atom atom-${type}`, "data-type": type, contenteditable: "false" }, label(node)],
  };
}

function refLabel(ref: unknown): string {
  if (!ref || typeof ref !== "object") return "";
  const r = ref as Record<string, unknown>;
  return String(r.url ?? r.page ?? r.file ?? r.anchor ?? r.space ?? r.reusableContent ?? "");
}

const nodes: Record<string, NodeSpec> = {
  doc: { content: "block+", attrs: { data: { default: null } } },
  text: { group: "inline" },
  paragraph: {
    content: "inline*",
    group: "block",
    attrs: KEPT,
    toDOM: (): DOMOutputSpec => ["p", 0],
    parseDOM: [{ tag: "p" }],
  },
  heading_1: { content: "inline*", group: "block", attrs: KEPT, defining: true, toDOM: () => ["h1", 0], parseDOM: [{ tag: "h1" }] },
  heading_2: { content: "inline*", group: "block", attrs: KEPT, defining: true, toDOM: () => ["h2", 0], parseDOM: [{ tag: "h2" }] },
  heading_3: { content: "inline*", group: "block", attrs: KEPT, defining: true, toDOM: () => ["h3", 0], parseDOM: [{ tag: "h3" }, { tag: "h4" }, { tag: "h5" }, { tag: "h6" }] },
  list_item: {
    content: "block+",
    attrs: KEPT,
    defining: true,
    toDOM: (node): DOMOutputSpec => {
      const checked = dataOf(node).checked;
      return typeof checked === "boolean" ? ["li", { class: checked ? "task done" : "task", "data-checked": String(checked) }, 0] : ["li", 0];
    },
    parseDOM: [{ tag: "li" }],
  },
  list_unordered: container("ul", "list", "list_item+", "block", { parseDOM: [{ tag: "ul" }] }),
  list_tasks: container("ul", "tasks", "list_item+"),
  list_ordered: {
    content: "list_item+",
    group: "block",
    attrs: KEPT,
    toDOM: (node): DOMOutputSpec => {
      const start = dataOf(node).start;
      return typeof start === "number" && start !== 1 ? ["ol", { start: String(start) }, 0] : ["ol", 0];
    },
    parseDOM: [{ tag: "ol" }],
  },
  blockquote: container("blockquote", "quote", "block+", "block", { parseDOM: [{ tag: "blockquote" }] }),
  hint: {
    content: "block+",
    group: "block",
    attrs: KEPT,
    defining: true,
    toDOM: (node): DOMOutputSpec => {
      const style = String(dataOf(node).style ?? "info");
      return ["div", { class: `hint hint-${style}`, "data-style": style }, 0];
    },
    parseDOM: [{ tag: "div.hint" }],
  },
  code_block: {
    content: "code_line+",
    group: "block",
    attrs: KEPT,
    defining: true,
    toDOM: (node): DOMOutputSpec => {
      const d = dataOf(node);
      return ["pre", { class: "code", "data-syntax": String(d.syntax ?? ""), "data-title": String(d.title ?? "") }, ["code", 0]];
    },
    // Pasted code: one code line a line of the <pre>'s text (or of the editor's own copied lines); the
    // syntax only from a `language-…` class or the editor's own data-syntax, and only a plain name.
    parseDOM: [
      {
        tag: "pre",
        preserveWhitespace: "full",
        getAttrs: (dom) => {
          const el = dom as HTMLElement;
          const named = el.dataset.syntax || /(?:^|\s)(?:language|lang)-([\w+#-]+)/.exec(`${el.className} ${el.querySelector("code")?.className ?? ""}`)?.[1] || "";
          return { data: /^[\w+#-]{1,30}$/.test(named) ? { syntax: named.toLowerCase() } : {} };
        },
        getContent: (dom, schema) => {
          const el = dom as HTMLElement;
          const own = el.querySelectorAll(".code-line");
          const lines = own.length ? [...own].map((l) => l.textContent ?? "") : (el.textContent ?? "").replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
          return Fragment.from(lines.map((line) => schema.nodes.code_line.create({ data: {} }, line ? schema.text(line) : null)));
        },
      },
    ],
  },
  code_line: { content: "text*", marks: "", code: true, attrs: KEPT, toDOM: () => ["div", { class: "code-line" }, 0] },
  tabs: container("div", "tabs", "tabs_item+"),
  tabs_item: {
    content: "block+",
    attrs: KEPT,
    defining: true,
    toDOM: (node): DOMOutputSpec => ["section", { class: "tab", "data-title": String(dataOf(node).title ?? "") }, 0],
  },
  stepper: container("ol", "stepper", "stepper_step+"),
  stepper_step: { content: "block+", attrs: KEPT, defining: true, toDOM: () => ["li", { class: "step" }, 0] },
  expandable: container("div", "expandable", "fragment+"),
  fragment: {
    content: "block+",
    attrs: { fragment: { default: "" }, type: { default: null } },
    defining: true,
    toDOM: (node): DOMOutputSpec => ["div", { class: `fragment fragment-${String(node.attrs.type ?? node.attrs.fragment)}` }, 0],
  },
  images: container("div", "images", "image+"),
  image: {
    ...atom("image", (node) => String(dataOf(node).alt ?? "")),
    // A pasted picture with an http(s) address is an image block referencing it (the parser wraps it in
    // `images`); any other address (data:, relative, script) is no image (paste.ts keeps its alt text).
    parseDOM: [
      {
        tag: "img[src]",
        getAttrs: (dom) => {
          const el = dom as HTMLImageElement;
          const url = el.getAttribute("src")?.trim() ?? "";
          if (!/^https?:\/\//i.test(url) || url.length > 2048) return false;
          const alt = (el.getAttribute("alt") ?? "").slice(0, 500);
          return { data: alt ? { ref: { kind: "url", url }, alt } : { ref: { kind: "url", url } }, isVoid: true, fragments: [] };
        },
      },
    ],
    toDOM: (node): DOMOutputSpec => {
      const d = dataOf(node);
      const ref = (d.ref ?? {}) as Record<string, unknown>;
      const src = ref.kind === "url" && typeof ref.url === "string" && /^https?:\/\//i.test(ref.url) ? ref.url : "";
      // The width as the img's own attribute (the page's CSP keeps style attributes from applying).
      const width = lengthText(d.width);
      const img: DOMOutputSpec = src ? ["img", width ? { src, alt: String(d.alt ?? ""), width } : { src, alt: String(d.alt ?? "") }] : ["span", { class: "atom-label" }, `Image ${String(d.alt ?? "") || refLabel(ref)}`];
      const caption = captionOf(node);
      return ["figure", { class: "atom atom-image", "data-type": "image", contenteditable: "false" }, img, ...(caption ? [["figcaption", caption] as DOMOutputSpec] : [])];
    },
  },
  divider: { group: "block", atom: true, attrs: ATOM_ATTRS, toDOM: () => ["hr"], parseDOM: [{ tag: "hr" }] },
  file: atom("file", (node) => `File ${refLabel(dataOf(node).ref)}`),
  embed: atom("embed", (node) => `Embed ${String(dataOf(node).url ?? "")}`),
  math: atom("math", (node) => String(dataOf(node).formula ?? "")),
  content_ref: atom("content-ref", (node) => `Link to ${refLabel(dataOf(node).ref)}`),
  reusable_content: atom("reusable-content", (node) => `Reusable content ${refLabel(dataOf(node).ref)}`),
  table: {
    content: "table_row+",
    group: "block",
    tableRole: "table",
    isolating: true,
    // `data` holds the table's GitBook data but for its columns, definition and records (its rows say those).
    attrs: KEPT,
    toDOM: (): DOMOutputSpec => ["div", { class: "table-wrap" }, ["table", { class: "table" }, ["tbody", 0]]],
    // A pasted table: its cells' text, the first row the columns' titles (paste-table.ts).
    parseDOM: [{ tag: "table", getAttrs: (dom) => (pastedTableRows(dom as HTMLTableElement) ? { isVoid: true, data: { view: { type: "grid", hideHeader: false } } } : false), getContent: (dom, schema) => Fragment.from(pastedTableRows(dom as HTMLTableElement)?.map((row, r) => tableRow(schema, row, r === 0)) ?? []) }],
  },
  // A record (its id and order are its place: convert.ts).
  table_row: {
    content: "(table_header | table_cell)+",
    tableRole: "row",
    toDOM: (): DOMOutputSpec => ["tr", 0],
  },
  table_header: {
    content: "paragraph",
    tableRole: "header_cell",
    isolating: true,
    // `column`: the column's GitBook definition but its id (its place) and title (the cell's text); spans are always 1 (no merged cells).
    attrs: { column: { default: null }, colspan: { default: 1 }, rowspan: { default: 1 }, colwidth: { default: null } },
    toDOM: (): DOMOutputSpec => ["th", { scope: "col" }, 0],
  },
  table_cell: {
    content: "paragraph",
    tableRole: "cell",
    isolating: true,
    // The cell's paragraph is the record's fragment for the cell's column.
    attrs: { colspan: { default: 1 }, rowspan: { default: 1 }, colwidth: { default: null } },
    toDOM: (): DOMOutputSpec => ["td", 0],
  },
  table_kept: {
    ...atom("table", () => ""),
    toDOM: (node): DOMOutputSpec => {
      const d = dataOf(node) as { view?: { columns?: unknown }; definition?: Record<string, { title?: string }>; records?: Record<string, unknown> };
      const columns = Array.isArray(d.view?.columns) ? (d.view.columns as unknown[]).map(String) : [];
      const rows = Object.keys(d.records ?? {}).length;
      return ["div", { class: "atom atom-table", "data-type": "table", contenteditable: "false" }, `Table: ${columns.map((c) => d.definition?.[c]?.title ?? c).join(" | ")} (${rows} rows)`];
    },
  },
  inline_image: {
    inline: true,
    group: "inline",
    atom: true,
    attrs: KEPT,
    toDOM: (node): DOMOutputSpec => {
      const d = dataOf(node);
      const ref = (d.ref ?? {}) as Record<string, unknown>;
      const src = ref.kind === "url" && typeof ref.url === "string" && /^https?:\/\//i.test(ref.url) ? ref.url : "";
      return src ? ["img", { class: "inline-image", src, alt: String(d.alt ?? "") }] : ["span", { class: "inline-image" }, `[${String(d.alt ?? "image")}]`];
    },
  },
  inline_math: {
    inline: true,
    group: "inline",
    atom: true,
    attrs: KEPT,
    toDOM: (node): DOMOutputSpec => ["span", { class: "inline-math" }, String(dataOf(node).formula ?? "")],
  },
};

/** GitBook's marks, and the link inline (a mark here, so text runs stay editable across it). */
const marks: Record<string, MarkSpec> = {
  link: {
    attrs: { data: { default: null }, key: { default: null } },
    inclusive: false,
    toDOM: (mark): DOMOutputSpec => {
      const ref = ((mark.attrs.data as Data)?.ref ?? {}) as Record<string, unknown>;
      const href = ref.kind === "url" && typeof ref.url === "string" && /^(https?:|mailto:)/i.test(ref.url) ? ref.url : "#";
      return ["a", { href, rel: "noopener noreferrer nofollow", "data-kind": String(ref.kind ?? "") }, 0];
    },
    // A pasted link keeps its address only when it is http(s) or mailto (a javascript: link is plain text).
    parseDOM: [
      {
        tag: "a[href]",
        getAttrs: (dom) => {
          const url = (dom as HTMLElement).getAttribute("href")?.trim() ?? "";
          return /^(https?:\/\/|mailto:)/i.test(url) && url.length <= 2048 ? { data: { ref: { kind: "url", url } } } : false;
        },
      },
    ],
  },
  // Pasted marks: the tags (paste.ts turns the styles Google Docs and Word write on spans into tags first:
  // the editor page's CSP keeps style attributes from being read as styles). Google Docs wraps the whole
  // clipboard in `<b style="font-weight:normal">`, which is no bold.
  bold: { toDOM: () => ["strong", 0], parseDOM: [{ tag: "strong" }, { tag: "b", getAttrs: (dom) => !/(?:^|;)\s*font-weight:\s*(normal|[1-5]00)\b/i.test((dom as HTMLElement).getAttribute("style") ?? "") && null }] },
  italic: { toDOM: () => ["em", 0], parseDOM: [{ tag: "em" }, { tag: "i" }] },
  strikethrough: { toDOM: () => ["s", 0], parseDOM: [{ tag: "s" }, { tag: "del" }, { tag: "strike" }] },
  code: { toDOM: () => ["code", 0], parseDOM: [{ tag: "code" }, { tag: "kbd" }, { tag: "tt" }] },
};

export const schema = new Schema({ nodes, marks });

/** GitBook's block or inline type as a node name of this schema (a table that is not editable as rows: `table_kept`). */
export const nodeName = (gitbookType: string): string => (gitbookType === "code" ? "code_block" : gitbookType.replace(/-/g, "_"));
/** A node name of this schema as GitBook's type (`code_block`: `code` is also a mark's name). */
export const gitbookType = (name: string): string => (name === "code_block" ? "code" : name === "table_kept" ? "table" : name.replace(/_/g, "-"));

/** A table row of plain-text cells (header cells for the first row). */
export function tableRow(s: Schema, texts: string[], header: boolean): PMNode {
  const cell = header ? s.nodes.table_header : s.nodes.table_cell;
  return s.nodes.table_row.create(
    null,
    texts.map((text) => cell.create(null, s.nodes.paragraph.create(null, text ? s.text(text) : null))),
  );
}
