// What the slash menu inserts: each of GitBook's blocks as a new editor node, and the commands that put
// one where the cursor's empty paragraph is (the menu removes the `/query` typed first).
import type { Node as PMNode } from "prosemirror-model";
import { TextSelection, type Command, type EditorState, type Transaction } from "prosemirror-state";
import { schema, tableRow } from "./schema";

const n = schema.nodes;
const p = (text = ""): PMNode => n.paragraph.create(null, text ? schema.text(text) : null);

/** A URL a person typed for an image, embed or link: http(s) or mailto only (nothing that runs). */
export function safeUrl(raw: string | null): string | undefined {
  const url = raw?.trim() ?? "";
  if (!url || url.length > 2048) return undefined;
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : undefined;
}

/** A new table: a row of column titles and `rows` empty rows (their ids are given when it is saved: convert.ts). */
function table(columns: number, rows: number): PMNode {
  const titles = Array.from({ length: columns }, (_, i) => `Column ${i + 1}`);
  const empty = titles.map(() => "");
  return n.table.create({ data: { view: { type: "grid", hideHeader: false } }, isVoid: true }, [
    tableRow(schema, titles, true),
    ...Array.from({ length: rows }, () => tableRow(schema, empty, false)),
  ]);
}

export interface BlockItem {
  id: string;
  title: string;
  /** Other words the menu matches. */
  keywords: string;
  /** The node to put in place of the empty paragraph; undefined when the person cancelled a prompt. */
  make(ask: (question: string) => string | null): PMNode | undefined;
}

const hint = (style: string, title: string): BlockItem => ({ id: `hint-${style}`, title, keywords: `hint callout ${style}`, make: () => n.hint.create({ data: { style } }, p()) });

export const BLOCK_ITEMS: BlockItem[] = [
  { id: "paragraph", title: "Text", keywords: "paragraph plain", make: () => p() },
  { id: "heading-1", title: "Heading 1", keywords: "h1 title", make: () => n.heading_1.create({ data: {} }) },
  { id: "heading-2", title: "Heading 2", keywords: "h2 subtitle", make: () => n.heading_2.create({ data: {} }) },
  { id: "heading-3", title: "Heading 3", keywords: "h3", make: () => n.heading_3.create({ data: {} }) },
  { id: "list-unordered", title: "Bulleted list", keywords: "ul bullet unordered", make: () => n.list_unordered.create(null, n.list_item.create(null, p())) },
  { id: "list-ordered", title: "Numbered list", keywords: "ol ordered number", make: () => n.list_ordered.create({ data: {} }, n.list_item.create(null, p())) },
  { id: "list-tasks", title: "Task list", keywords: "todo checkbox tasks", make: () => n.list_tasks.create(null, n.list_item.create({ data: { checked: false } }, p())) },
  { id: "blockquote", title: "Quote", keywords: "blockquote citation", make: () => n.blockquote.create(null, p()) },
  { id: "code", title: "Code block", keywords: "code snippet pre", make: () => n.code_block.create({ data: {} }, n.code_line.create({ data: {} })) },
  hint("info", "Hint: info"),
  hint("success", "Hint: success"),
  hint("warning", "Hint: warning"),
  hint("danger", "Hint: danger"),
  {
    id: "tabs",
    title: "Tabs",
    keywords: "tabs tab",
    make: () => n.tabs.create(null, [n.tabs_item.create({ data: { title: "First tab" } }, p()), n.tabs_item.create({ data: { title: "Second tab" } }, p())]),
  },
  {
    id: "expandable",
    title: "Expandable",
    keywords: "details collapse toggle accordion",
    make: () =>
      n.expandable.create({ data: {}, isVoid: true }, [
        n.fragment.create({ fragment: "expandable-title", type: "expandable-title" }, p()),
        n.fragment.create({ fragment: "expandable-body", type: "expandable-body" }, p()),
      ]),
  },
  { id: "stepper", title: "Stepper", keywords: "steps stepper", make: () => n.stepper.create(null, [n.stepper_step.create({ data: {} }, p()), n.stepper_step.create({ data: {} }, p())]) },
  { id: "table", title: "Table", keywords: "grid table", make: () => table(2, 2) },
  { id: "divider", title: "Divider", keywords: "hr rule separator line", make: () => n.divider.create({ data: {}, isVoid: true }) },
  {
    id: "image",
    title: "Image",
    keywords: "picture img figure",
    make: (ask) => {
      const url = safeUrl(ask("The image's address (https://…)"));
      return url ? n.images.create({ data: {}, isVoid: false }, n.image.create({ data: { ref: { kind: "url", url }, alt: "" }, isVoid: true, fragments: [] })) : undefined;
    },
  },
  {
    id: "math",
    title: "Math (TeX)",
    keywords: "math formula latex equation",
    make: (ask) => {
      const formula = ask("The formula (TeX)")?.trim();
      return formula ? n.math.create({ data: { formula }, isVoid: true }) : undefined;
    },
  },
  {
    id: "embed",
    title: "Embed",
    keywords: "embed video youtube url",
    make: (ask) => {
      const url = safeUrl(ask("The address to embed (https://…)"));
      return url ? n.embed.create({ data: { url }, isVoid: true }) : undefined;
    },
  },
];

/** The menu's items that match `query` (every word of it, in the title or keywords). */
export function matching(query: string): BlockItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return BLOCK_ITEMS.filter((item) => {
    const text = `${item.title} ${item.keywords}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The first position inside `node` (placed at `at`) where text can be typed, if any. */
function firstTextPosition(doc: PMNode, at: number, node: PMNode): number | undefined {
  let found: number | undefined;
  node.descendants((child, pos) => {
    if (found !== undefined) return false;
    if (child.isTextblock) {
      found = at + 1 + pos + 1;
      return false;
    }
    return true;
  });
  if (node.isTextblock) found = at + 1;
  return found !== undefined && found <= doc.content.size ? found : undefined;
}

/** Puts `node` in place of the textblock around the cursor (or after it, when it is not empty), and the cursor in it. */
export function placeBlock(state: EditorState, node: PMNode): Transaction {
  const { $from } = state.selection;
  const tr = state.tr;
  const emptyBlock = $from.parent.isTextblock && $from.parent.content.size === 0 && $from.depth > 0;
  const start = emptyBlock ? $from.before() : $from.after();
  if (emptyBlock) tr.replaceWith(start, $from.after(), node);
  else tr.insert(start, node);
  const inside = firstTextPosition(tr.doc, start, node);
  if (inside !== undefined) {
    tr.setSelection(TextSelection.create(tr.doc, inside));
  } else {
    // A void block: a paragraph after it to go on typing in.
    const after = start + node.nodeSize;
    const next = tr.doc.resolve(after).nodeAfter;
    if (!next || !next.isTextblock) tr.insert(after, p());
    tr.setSelection(TextSelection.create(tr.doc, after + 1));
  }
  return tr.scrollIntoView();
}

/** Moves the top-level block holding the cursor up (-1) or down (+1) among its siblings. */
export function moveBlock(dir: -1 | 1): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    if ($from.depth < 1) return false;
    const index = $from.index(0);
    const target = index + dir;
    if (target < 0 || target >= state.doc.childCount) return false;
    if (dispatch) {
      const start = $from.before(1);
      const node = state.doc.child(index);
      const offset = state.selection.from - start;
      const tr = state.tr.delete(start, start + node.nodeSize);
      let insertAt = 0;
      for (let i = 0; i < target; i++) insertAt += tr.doc.child(i).nodeSize;
      tr.insert(insertAt, node);
      tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(insertAt + offset, tr.doc.content.size))));
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

/** Ticks or unticks the task of the list item holding the cursor. */
export const toggleTask: Command = (state, dispatch) => {
  const { $from } = state.selection;
  for (let d = $from.depth; d > 0; d--) {
    const node = $from.node(d);
    if (node.type === n.list_item && $from.node(d - 1).type === n.list_tasks) {
      const data = { ...((node.attrs.data as Record<string, unknown> | null) ?? {}), checked: !(node.attrs.data as { checked?: boolean } | null)?.checked };
      if (dispatch) dispatch(state.tr.setNodeMarkup($from.before(d), undefined, { ...node.attrs, data }));
      return true;
    }
  }
  return false;
};

/** Enter in an empty last line of a code block leaves it for a new paragraph; elsewhere in code, a new line. */
export const codeEnter: Command = (state, dispatch) => {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type !== n.code_line) return false;
  const code = $from.node(-1);
  const lastLine = $from.index(-1) === code.childCount - 1;
  if (lastLine && $from.parent.content.size === 0 && code.childCount > 1) {
    if (dispatch) {
      const tr = state.tr.delete($from.before(), $from.after());
      const after = tr.mapping.map($from.after(-1));
      tr.insert(after, p());
      tr.setSelection(TextSelection.create(tr.doc, after + 1));
      dispatch(tr.scrollIntoView());
    }
    return true;
  }
  if (dispatch) dispatch(state.tr.split($from.pos).scrollIntoView());
  return true;
};
