import { documentToMarkdown, markdownToDocument, type JSONDocument } from "@docshelf/document";
import { expectValid } from "@docshelf/document/dist/gitbook-schema";
import type { Node as PMNode } from "prosemirror-model";
import { EditorState, TextSelection, type Command } from "prosemirror-state";
import { fromEditor, tableParts, toEditor } from "./convert";
import { schema } from "./schema";
import { ySyncPluginKey } from "y-prosemirror";
import { BLOCK_ITEMS } from "./blocks";
import { inTitleRow, nextCell, previousCell, TABLE_ACTIONS, tablePlugins } from "./table";

const TABLE = "| Name | Count |\n| --- | --: |\n| Ann | **3** |\n| Bob | 5 |\n";

/** The position at the end of the text of the cell at `row`, `column` (row 0: the titles) of the document's first table. */
function cellEnd(doc: PMNode, row: number, column: number): number {
  let at = -1;
  doc.descendants((node, pos) => {
    if (at >= 0) return false;
    if (node.type !== schema.nodes.table) return true;
    let offset = pos + 1;
    for (let r = 0; r < row; r++) offset += node.child(r).nodeSize;
    offset += 1;
    for (let c = 0; c < column; c++) offset += node.child(row).child(c).nodeSize;
    at = offset + 2 + node.child(row).child(column).firstChild!.content.size; // into the cell, into its paragraph, past its text
    return false;
  });
  return at;
}

/** An editor state of `markdown` with the cursor in the cell at `row`, `column`. */
function stateIn(markdown: string, row: number, column: number): EditorState {
  const doc = toEditor(markdownToDocument(markdown));
  return EditorState.create({ doc, selection: TextSelection.create(doc, cellEnd(doc, row, column)), plugins: tablePlugins() });
}

const moveTo = (state: EditorState, row: number, column: number): EditorState => state.apply(state.tr.setSelection(TextSelection.create(state.doc, cellEnd(state.doc, row, column))));

function run(state: EditorState, command: Command): EditorState {
  let next = state;
  expect(command(state, (tr) => (next = state.apply(tr)))).toBe(true);
  return next;
}

const action = (id: string): Command => TABLE_ACTIONS.find((a) => a.id === id)!.run;

/** The table of a GitBook document as rows of cell Markdown, its titles first. */
function cells(doc: JSONDocument): string[][] {
  const markdown = documentToMarkdown(doc).trim().split("\n");
  return [markdown[0], ...markdown.slice(2)].map((line) => line.slice(2, -2).split(" | ").map((c) => c.trim()));
}

describe("tables in the editor", () => {
  test("a table of the document is rows of cells in the editor, its titles first, and comes back the same", () => {
    const doc = markdownToDocument(TABLE);
    const editor = toEditor(doc);
    const table = editor.firstChild!;
    expect(table.type.name).toBe("table");
    expect(table.childCount).toBe(3);
    expect(table.child(0).child(0).type.name).toBe("table_header");
    expect(table.child(1).child(1).type.name).toBe("table_cell");
    expect(table.textContent).toBe("NameCountAnn3Bob5");
    expect(fromEditor(editor)).toEqual(doc);
  });

  test("a row and a column added, typed in, saved: a schema-valid GitBook table with the new record and column", () => {
    let state = stateIn(TABLE, 1, 1);
    state = run(state, action("row-below"));
    state = run(state, action("column-right"));
    // The cursor is still in Ann's count: Tab goes to the new column's cell, Tab again to the new row.
    state = run(state, nextCell);
    state = state.apply(state.tr.insertText("new cell"));
    state = run(state, nextCell);
    state = state.apply(state.tr.insertText("Cy"));
    const doc = fromEditor(state.doc);
    expectValid(doc);
    expect(cells(doc)).toEqual([
      ["Name", "Count", ""],
      ["Ann", "**3**", "new cell"],
      ["Cy", "", ""],
      ["Bob", "5", ""],
    ]);
    // The ids are the parser's (places, and fragments counted through the page), so the Markdown reads back as the very same document.
    const table = doc.nodes[0] as unknown as { data: { view: { columns: string[] }; records: Record<string, { orderIndex: string; values: Record<string, string> }> }; fragments: Array<{ fragment: string }> };
    expect(table.data.view.columns).toEqual(["column-1", "column-2", "column-3"]);
    expect(Object.entries(table.data.records).map(([id, r]) => [id, r.orderIndex])).toEqual([["record-1", "0000"], ["record-2", "0001"], ["record-3", "0002"]]);
    expect(table.fragments.map((f) => f.fragment)).toEqual(Array.from({ length: 9 }, (_, i) => `fragment-${i + 1}`));
    expect(markdownToDocument(documentToMarkdown(doc))).toEqual(doc);
  });

  test("fragments are numbered through the page, as the parser numbers them, tables in other blocks included", () => {
    const markdown = `${TABLE}\n{% hint style="info" %}\n| A |\n| - |\n| in a hint |\n{% endhint %}\n\n${TABLE}`;
    const doc = markdownToDocument(markdown);
    expect(fromEditor(toEditor(doc))).toEqual(doc);
    let state = stateIn(markdown, 1, 0);
    state = run(state, action("row-delete"));
    const edited = fromEditor(state.doc);
    expectValid(edited);
    expect(markdownToDocument(documentToMarkdown(edited))).toEqual(edited);
  });

  test("a row and a column removed: the record, the column's definition and its cells' fragments go", () => {
    let state = stateIn(TABLE, 2, 0);
    state = run(state, action("row-delete"));
    state = run(moveTo(state, 1, 0), action("column-delete"));
    const doc = fromEditor(state.doc);
    expectValid(doc);
    expect(cells(doc)).toEqual([["Count"], ["**3**"]]);
    const table = doc.nodes[0] as unknown as { data: { definition: Record<string, unknown>; records: Record<string, unknown> }; fragments: unknown[] };
    expect(Object.keys(table.data.definition)).toEqual(["column-1"]);
    expect(Object.keys(table.data.records)).toEqual(["record-1"]);
    expect(table.fragments).toHaveLength(1);
  });

  test("the titles' row stays first: no row above it, it is not deleted; the last column is not deleted, the last record may be", () => {
    const titles = stateIn(TABLE, 0, 1);
    expect(inTitleRow(titles)).toBe(true);
    expect(action("row-above")(titles)).toBe(false);
    expect(action("row-delete")(titles)).toBe(false);
    expect(action("row-below")(titles)).toBe(true);
    // A title typed in: the column's title.
    const typed = titles.apply(titles.tr.insertText(" (total)"));
    expect(cells(fromEditor(typed.doc))[0]).toEqual(["Name", "Count (total)"]);
    let single = stateIn("| Only |\n| --- |\n| one |\n", 1, 0);
    expect(action("column-delete")(single)).toBe(false);
    single = run(single, action("row-delete"));
    expect(cells(fromEditor(single.doc))).toEqual([["Only"]]);
    // Shift-Tab from the first cell has nowhere to go in the table.
    expect(previousCell(stateIn(TABLE, 0, 0))).toBe(false);
  });

  test("a table made uneven by a collaborator's edit is evened by the next edit here, not on receiving it; saved uneven, it is a valid table", () => {
    const state = stateIn(TABLE, 2, 0);
    // A cell taken out of Ann's row, as a collaborator's edit arriving through the shared document.
    const from = cellEnd(state.doc, 1, 1) - 3;
    const uneven = (shared: boolean) => {
      const tr = state.tr.delete(from, from + state.doc.resolve(from).nodeAfter!.nodeSize);
      if (shared) tr.setMeta(ySyncPluginKey, { isChangeOrigin: true });
      return state.applyTransaction(tr);
    };
    const received = uneven(true);
    expect(received.transactions).toHaveLength(1);
    const table = received.state.doc.firstChild!;
    expect([table.child(1).childCount, table.child(2).childCount]).toEqual([1, 2]);
    const saved = fromEditor(received.state.doc);
    expectValid(saved);
    expect(cells(saved)).toEqual([["Name", "Count"], ["Ann", ""], ["Bob", "5"]]);
    // Made here, the same edit is evened at once (prosemirror-tables adds the missing cell).
    const local = uneven(false);
    expect(local.transactions).toHaveLength(2);
    expect(local.state.doc.firstChild!.child(1).childCount).toBe(2);
  });

  test("a new table from the slash menu is saved as a schema-valid table of two columns and two empty rows", () => {
    const node = BLOCK_ITEMS.find((i) => i.id === "table")!.make(() => null)!;
    const doc = fromEditor(schema.node("doc", null, [node]));
    expectValid(doc);
    expect(documentToMarkdown(doc)).toBe("| Column 1 | Column 2 |\n| --- | --- |\n|  |  |\n|  |  |\n");
  });

  test("a table the editor cannot edit as rows (cards, another column type, merged cells) is kept as a box, unchanged", () => {
    const base = markdownToDocument(TABLE).nodes[0] as unknown as { data: Record<string, unknown> & { view: Record<string, unknown>; definition: Record<string, Record<string, unknown>> } };
    const variants = [
      { ...base, data: { ...base.data, view: { ...base.data.view, type: "cards", cardSize: "medium" } } },
      { ...base, data: { ...base.data, definition: { ...base.data.definition, "column-2": { ...base.data.definition["column-2"], type: "number" } } } },
      { ...base, data: { ...base.data, cellMerges: [{ anchor: { record: "record-1", column: "column-1" }, rowSpan: 1, colSpan: 2 }] } },
      { ...base, data: {} },
    ];
    for (const table of variants) {
      expect(tableParts(table as never)).toBeUndefined();
      const doc = { object: "document", data: {}, nodes: [table] } as unknown as JSONDocument;
      const editor: PMNode = toEditor(doc);
      expect(editor.firstChild!.type.name).toBe("table_kept");
      expect(fromEditor(editor)).toEqual(doc);
    }
  });
});
