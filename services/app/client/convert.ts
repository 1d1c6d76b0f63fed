// The one mapping between GitBook's JSON document and the editor's document (schema.ts), both ways.
// A GitBook document taken in and given back is the same document: every block keeps its key, data and
// void flag; text runs become text nodes with marks and come back as one text object of leaves per run;
// a link inline becomes a link mark over its text and comes back as one link around the same run.
import type { Node as PMNode, Mark as PMMark } from "prosemirror-model";
import type { Block, Fragment, Inline, InlineNode, JSONDocument, Leaf, Mark, Text } from "@docshelf/document";
import { gitbookType, nodeName, schema } from "./schema";

/** ProseMirror's JSON form of a node, as `Node.fromJSON` takes it. */
interface PMJson {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PMJson[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

type Loose = Record<string, unknown>;

function kept(node: Loose): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  if (node.key !== undefined) attrs.key = node.key;
  if (node.data !== undefined) attrs.data = node.data;
  if (node.isVoid !== undefined) attrs.isVoid = node.isVoid;
  return attrs;
}

function inlineToJson(nodes: InlineNode[], linkMarks: PMJson["marks"] = []): PMJson[] {
  const out: PMJson[] = [];
  for (const node of nodes) {
    if (node.object === "text") {
      for (const leaf of node.leaves) {
        if (leaf.text === "") continue;
        const marks = [...(linkMarks ?? []), ...(leaf.marks ?? []).map((m) => ({ type: m.type }))];
        out.push(marks.length ? { type: "text", text: leaf.text, marks } : { type: "text", text: leaf.text });
      }
    } else if (node.type === "link") {
      const link = node as unknown as Loose;
      const attrs: Record<string, unknown> = { data: link.data ?? null };
      if (link.key !== undefined) attrs.key = link.key;
      out.push(...inlineToJson(node.nodes as InlineNode[], [...(linkMarks ?? []), { type: "link", attrs }]));
    } else {
      const json: PMJson = { type: nodeName(node.type), attrs: kept(node as unknown as Loose) };
      if (linkMarks?.length) json.marks = linkMarks;
      out.push(json);
    }
  }
  return out;
}

function fragmentToJson(fragment: Fragment): PMJson {
  return { type: "fragment", attrs: { fragment: fragment.fragment, type: fragment.type ?? null }, content: blocksToJson(fragment.nodes) };
}

function blockToJson(block: Block): PMJson {
  if (block.type === "table") return tableToJson(block as unknown as Loose);
  const name = nodeName(block.type);
  const spec = schema.nodes[name];
  if (!spec) throw new Error(`The editor has no node for the block type ${block.type}.`);
  const attrs = kept(block as unknown as Loose);
  const loose = block as unknown as Loose;
  if (spec.isAtom && spec.isBlock) {
    if (loose.fragments !== undefined) attrs.fragments = loose.fragments;
    return { type: name, attrs };
  }
  if (name === "expandable") return { type: name, attrs, content: (loose.fragments as Fragment[]).map(fragmentToJson) };
  const children = (loose.nodes ?? []) as unknown[];
  if (spec.isTextblock) return { type: name, attrs, content: inlineToJson(children as InlineNode[]) };
  const content = blocksToJson(children as Block[]);
  return content.length ? { type: name, attrs, content } : { type: name, attrs };
}

/** A table's GitBook data as the editor edits it: grid view, text columns, one paragraph a cell, no merged cells. */
interface TableParts {
  columns: string[];
  definition: Record<string, Loose>;
  rows: Array<[id: string, record: { orderIndex: string; values: Record<string, unknown> }]>;
  fragments: Map<string, Loose>;
  /** The rest of `data`: what the rows do not say. */
  rest: Loose;
}

const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const byOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The parts of a table block the editor edits as rows and cells, or undefined when it cannot (it is then kept as a box). */
export function tableParts(block: Loose): TableParts | undefined {
  const data = block.data;
  if (!isObject(data) || !isObject(data.view) || data.view.type !== "grid" || !isObject(data.definition) || !isObject(data.records)) return undefined;
  if (Array.isArray(data.cellMerges) && data.cellMerges.length > 0) return undefined;
  const columns = data.view.columns;
  if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c): c is string => typeof c === "string") || new Set(columns).size !== columns.length) return undefined;
  const definition = data.definition;
  if (!columns.every((c) => isObject(definition[c]) && definition[c].type === "text" && typeof definition[c].title === "string")) return undefined;
  const fragments = new Map<string, Loose>();
  for (const f of Array.isArray(block.fragments) ? block.fragments : []) {
    if (!isObject(f) || typeof f.fragment !== "string" || fragments.has(f.fragment)) return undefined;
    fragments.set(f.fragment, f);
  }
  const rows: TableParts["rows"] = [];
  const used = new Set<string>();
  for (const [id, record] of Object.entries(data.records)) {
    if (!isObject(record) || typeof record.orderIndex !== "string" || !isObject(record.values)) return undefined;
    for (const [column, value] of Object.entries(record.values)) {
      // Every value a text column's fragment of one paragraph, used once.
      const f = typeof value === "string" ? fragments.get(value) : undefined;
      if (!columns.includes(column) || !f || used.has(value as string) || !Array.isArray(f.nodes) || f.nodes.length !== 1 || (f.nodes[0] as Loose)?.type !== "paragraph") return undefined;
      used.add(value as string);
    }
    rows.push([id, record as { orderIndex: string; values: Record<string, unknown> }]);
  }
  rows.sort((a, b) => byOrder(a[1].orderIndex, b[1].orderIndex));
  const { records: _records, definition: _definition, view, ...others } = data;
  const { columns: _columns, ...viewRest } = view;
  return { columns, definition: definition as Record<string, Loose>, rows, fragments, rest: { ...others, view: viewRest } };
}

function tableToJson(block: Loose): PMJson {
  const parts = tableParts(block);
  const attrs = kept(block);
  if (!parts) {
    if (block.fragments !== undefined) attrs.fragments = block.fragments;
    return { type: "table_kept", attrs };
  }
  const paragraph = (text: string): PMJson => ({ type: "paragraph", content: text ? [{ type: "text", text }] : [] });
  const header: PMJson = {
    type: "table_row",
    content: parts.columns.map((id) => {
      const { title, ...column } = parts.definition[id];
      return { type: "table_header", attrs: { column }, content: [paragraph(String(title))] };
    }),
  };
  const rows = parts.rows.map(([, record]): PMJson => ({
    type: "table_row",
    content: parts.columns.map((column) => {
      const f = typeof record.values[column] === "string" ? parts.fragments.get(record.values[column] as string) : undefined;
      return { type: "table_cell", content: f ? blocksToJson(f.nodes as Block[]) : [paragraph("")] };
    }),
  }));
  return { type: "table", attrs: { ...attrs, data: parts.rest }, content: [header, ...rows] };
}

function blocksToJson(blocks: Block[]): PMJson[] {
  return blocks.map(blockToJson);
}

/** A GitBook document as the editor's document (an empty one gets an empty paragraph to type in). */
export function toEditor(doc: JSONDocument): PMNode {
  const content = blocksToJson(doc.nodes);
  return schema.nodeFromJSON({ type: "doc", attrs: { data: doc.data ?? null }, content: content.length ? content : [{ type: "paragraph" }] });
}

/** The attributes kept on a node, back as GitBook fields. */
function fields(node: PMNode): Loose {
  const out: Loose = {};
  if (node.attrs.key !== null && node.attrs.key !== undefined) out.key = node.attrs.key;
  if (node.attrs.data !== null && node.attrs.data !== undefined) out.data = node.attrs.data;
  if (node.attrs.isVoid !== null && node.attrs.isVoid !== undefined) out.isVoid = node.attrs.isVoid;
  return out;
}

const GITBOOK_MARKS = new Set(["bold", "italic", "strikethrough", "code"]);

function leafMarks(marks: readonly PMMark[]): Mark[] {
  return marks.filter((m) => GITBOOK_MARKS.has(m.type.name)).map((m) => ({ object: "mark", type: m.type.name as Mark["type"] }));
}

/** The inline content of a textblock, from child `from` on, at link depth `depth`. */
function inlinesFrom(children: PMNode[], depth: number): InlineNode[] {
  const out: InlineNode[] = [];
  let text: Text | undefined;
  let i = 0;
  while (i < children.length) {
    const child = children[i];
    const links = child.marks.filter((m) => m.type.name === "link");
    if (links.length > depth) {
      // A run of children under the same link (at this depth): one link inline around them.
      const link = links[depth];
      let j = i;
      while (j < children.length && children[j].marks.filter((m) => m.type.name === "link")[depth]?.eq(link)) j++;
      const inline: Loose = { object: "inline", type: "link" };
      if (link.attrs.key !== null && link.attrs.key !== undefined) inline.key = link.attrs.key;
      inline.data = link.attrs.data ?? {};
      inline.nodes = inlinesFrom(children.slice(i, j), depth + 1);
      out.push(inline as unknown as Inline);
      text = undefined;
      i = j;
      continue;
    }
    if (child.isText) {
      const leaf: Leaf = { object: "leaf", text: child.text ?? "", marks: leafMarks(child.marks) };
      if (text) text.leaves.push(leaf);
      else {
        text = { object: "text", leaves: [leaf] };
        out.push(text);
      }
    } else {
      const type = gitbookType(child.type.name);
      out.push({ object: "inline", type, ...completed(type, child) } as unknown as Inline);
      text = undefined;
    }
    i++;
  }
  return out;
}

function childrenOf(node: PMNode): PMNode[] {
  const out: PMNode[] = [];
  node.forEach((child) => out.push(child));
  return out;
}

/** Block types whose `data` GitBook's model requires (a new block made in the editor gets `{}`). */
const DATA_OPTIONAL = new Set(["paragraph", "list-item", "list-unordered", "list-tasks", "blockquote", "tabs", "stepper"]);
/** Void blocks and inlines, and `images` (which says it is not). */
const VOID = new Set(["divider", "image", "file", "embed", "math", "expandable", "content-ref", "reusable-content", "table", "inline-image", "inline-math"]);

/** A node's kept fields, with what GitBook's model requires and a new node lacks (data, the void flag). */
function completed(type: string, node: PMNode): Loose {
  const out = fields(node);
  if (out.data === undefined && !DATA_OPTIONAL.has(type)) out.data = {};
  if (out.isVoid === undefined && (VOID.has(type) || type === "images")) out.isVoid = type !== "images";
  return out;
}

/** What numbers the document's table ids as the Markdown parser does: fragments counted through the whole document. */
interface Numbering {
  fragments: number;
}

/**
 * A table's rows as GitBook's table block: the first row the columns, each other row a record, each cell a fragment.
 * The ids are those the document's Markdown parser gives (`column-1`…, `record-1`… with `orderIndex` 0000…, a
 * `fragment-n` for every cell, counted through the document): the page is stored as Markdown, so a table always
 * comes back numbered so, and the editor's document is then the stored one, not one that only differs in its ids.
 */
function tableFrom(node: PMNode, numbering: Numbering): Block {
  const [header, ...body] = childrenOf(node);
  const rest = (node.attrs.data as Loose | null) ?? {};
  const columns = (header ? childrenOf(header) : []).map((cell, i) => {
    const { id: _id, title: _title, ...column } = (cell.attrs.column as Loose | null) ?? { type: "text", textAlignment: "left" };
    const id = `column-${i + 1}`;
    return { id, definition: { id, title: cell.textContent, ...column } };
  });
  const records: Record<string, { orderIndex: string; values: Record<string, string> }> = {};
  const fragments: Loose[] = [];
  body.forEach((row, r) => {
    const values: Record<string, string> = {};
    childrenOf(row).forEach((cell, c) => {
      const column = columns[c];
      if (!column) return;
      const fragment = `fragment-${++numbering.fragments}`;
      fragments.push({ object: "fragment", fragment, nodes: childrenOf(cell).map((child) => blockFrom(child, numbering)) });
      values[column.id] = fragment;
    });
    records[`record-${r + 1}`] = { orderIndex: String(r).padStart(4, "0"), values };
  });
  const view: Loose = { ...((rest.view as Loose | undefined) ?? { type: "grid", hideHeader: false }), columns: columns.map((c) => c.id) };
  // Column widths go by position (a column's id is its place).
  if (isObject(view.columnWidths)) delete view.columnWidths;
  const data = { ...rest, view, records, definition: Object.fromEntries(columns.map((c) => [c.id, c.definition])) };
  const block: Loose = { object: "block", type: "table" };
  if (node.attrs.key !== null) block.key = node.attrs.key;
  return { ...block, isVoid: true, data, fragments } as unknown as Block;
}

function blockFrom(node: PMNode, numbering: Numbering): Block {
  const name = node.type.name;
  if (name === "table") return tableFrom(node, numbering);
  const type = gitbookType(name);
  const block: Loose = { object: "block", type, ...completed(type, node) };
  if (node.type.isAtom) {
    if (node.attrs.fragments !== null && node.attrs.fragments !== undefined) block.fragments = node.attrs.fragments;
  } else if (name === "expandable") {
    block.fragments = childrenOf(node).map((f) => {
      const fragment: Loose = { object: "fragment", fragment: f.attrs.fragment };
      if (f.attrs.type !== null && f.attrs.type !== undefined) fragment.type = f.attrs.type;
      fragment.nodes = childrenOf(f).map((child) => blockFrom(child, numbering));
      return fragment;
    });
  } else if (node.isTextblock) {
    const inlines = inlinesFrom(childrenOf(node), 0);
    // GitBook's empty text block holds one empty text (as the Markdown parser writes an empty code line).
    block.nodes = inlines.length ? inlines : [{ object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] }];
  } else {
    block.nodes = childrenOf(node).map((child) => blockFrom(child, numbering));
  }
  return block as unknown as Block;
}

/** The editor's document as a GitBook document. */
export function fromEditor(doc: PMNode): JSONDocument {
  const numbering: Numbering = { fragments: 0 };
  const nodes = childrenOf(doc).map((child) => blockFrom(child, numbering));
  // The empty paragraph an empty document is given to type in is not content.
  const first = doc.firstChild;
  const empty = doc.childCount === 1 && first?.type.name === "paragraph" && first.childCount === 0 && first.attrs.key === null && first.attrs.data === null;
  return { object: "document", data: (doc.attrs.data as JSONDocument["data"] | null) ?? {}, nodes: empty ? [] : nodes };
}
