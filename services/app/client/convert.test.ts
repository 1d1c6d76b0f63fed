import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { checkDocument, documentToMarkdown, markdownToDocument, type JSONDocument } from "@docshelf/document";
import { BLOCKS_PAGE } from "@docshelf/document/dist/blocks-fixture";
import { EditorState, NodeSelection, TextSelection } from "prosemirror-state";
import type { Node as PMNode } from "prosemirror-model";
import type { DecorationSet } from "prosemirror-view";
import { fromEditor, toEditor } from "./convert";
import { withAlt } from "./image";
import { schema } from "./schema";
import { ALIGNMENTS, alignmentOf, isAligned, TABLE_ACTIONS, tablePlugins } from "./table";

const FIXTURES = join(__dirname, "..", "..", "..", "test", "fixtures", "git-sync");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") && name !== "SUMMARY.md" ? [path] : [];
  });
}

/** The document as it comes out of the Markdown parser, then through the editor and back. */
function roundTrip(doc: JSONDocument): JSONDocument {
  const editorDoc = toEditor(doc);
  editorDoc.check();
  // ProseMirror's own JSON round trip too (what the editor's state would carry).
  return fromEditor(schema.nodeFromJSON(editorDoc.toJSON()));
}

describe("GitBook document ⇄ editor document", () => {
  const pages = markdownFiles(FIXTURES);

  test("the Git sync fixtures are there to test on", () => {
    expect(pages.length).toBeGreaterThan(40);
  });

  test.each(pages.map((p) => [p.slice(FIXTURES.length + 1), p]))("%s round-trips unchanged", (_name, path) => {
    const doc = markdownToDocument(readFileSync(path, "utf8"));
    const back = roundTrip(doc);
    expect(back).toEqual(doc);
    expect(documentToMarkdown(back)).toBe(documentToMarkdown(doc));
  });

  test("the page with every block and mark round-trips unchanged", () => {
    const doc = markdownToDocument(BLOCKS_PAGE);
    expect(roundTrip(doc)).toEqual(doc);
  });

  test("each block type becomes its node and comes back", () => {
    const doc = markdownToDocument(BLOCKS_PAGE);
    const names = new Set<string>();
    toEditor(doc).descendants((n) => {
      names.add(n.type.name);
    });
    for (const name of ["paragraph", "heading_2", "hint", "code_block", "code_line", "tabs", "tabs_item", "expandable", "fragment", "stepper", "stepper_step", "table", "images", "image", "embed", "content_ref", "math", "inline_math", "list_tasks", "list_item", "blockquote", "divider"]) {
      expect(names).toContain(name);
    }
  });

  test("an editor document built from nodes is a schema-valid GitBook document", () => {
    const p = (text: string, marks: string[] = []) => schema.node("paragraph", null, [schema.text(text, marks.map((m) => schema.mark(m)))]);
    const link = schema.mark("link", { data: { ref: { kind: "url", url: "https://example.com" } } });
    const doc = schema.node("doc", null, [
      schema.node("heading_2", null, [schema.text("Title")]),
      schema.node("paragraph", null, [schema.text("plain "), schema.text("bold", [schema.mark("bold")]), schema.text(" and "), schema.text("site", [link]), schema.text("wide", [link, schema.mark("bold")])]),
      schema.node("list_tasks", null, [schema.node("list_item", { data: { checked: true } }, [p("done")])]),
      schema.node("hint", { data: { style: "warning" } }, [p("careful", ["italic"])]),
      schema.node("code_block", { data: { syntax: "js" } }, [schema.node("code_line", null, [schema.text("let a = 1;")]), schema.node("code_line")]),
      schema.node("divider", { data: {}, isVoid: true }),
    ]);
    const gitbook = fromEditor(doc);
    expect(() => checkDocument(gitbook)).not.toThrow();
    const markdown = documentToMarkdown(gitbook);
    expect(markdown).toContain("## Title");
    expect(markdown).toContain("plain **bold** and [site**wide**](https://example.com)");
    expect(markdown).toContain("* [x] done");
    expect(markdown).toContain('{% hint style="warning" %}');
    expect(markdown).toContain("```js\nlet a = 1;\n\n```");
    // Into the editor and out again: the same GitBook document, with the same text.
    expect(fromEditor(toEditor(gitbook))).toEqual(gitbook);
    expect(toEditor(gitbook).textContent).toBe(doc.textContent);
  });

  test("an empty document is one empty paragraph in the editor and empty again after", () => {
    const empty: JSONDocument = { object: "document", data: {}, nodes: [] };
    expect(toEditor(empty).childCount).toBe(1);
    expect(fromEditor(toEditor(empty))).toEqual(empty);
  });
});

/** The editor document of `markdown` → GitBook JSON → its Markdown → GitBook JSON → the editor again. */
function throughMarkdown(doc: PMNode): { json: JSONDocument; markdown: string; again: PMNode } {
  const json = fromEditor(doc);
  expect(() => checkDocument(json)).not.toThrow();
  const markdown = documentToMarkdown(json);
  const read = markdownToDocument(markdown);
  expect(read).toEqual(json);
  return { json, markdown, again: toEditor(read) };
}

describe("an image's alt text and a table column's alignment, editor → GitBook JSON → Markdown → editor", () => {
  const IMAGE = '<figure><img src="https://example.com/a.png" alt=""><figcaption><p>A caption</p></figcaption></figure>\n';

  function firstOf(doc: PMNode, name: string): { node: PMNode; pos: number } {
    let found: { node: PMNode; pos: number } | undefined;
    doc.descendants((node, pos) => {
      if (!found && node.type.name === name) found = { node, pos };
      return !found;
    });
    if (!found) throw new Error(`no ${name}`);
    return found;
  }

  test("an image's alt text set as the block bar sets it is GitBook's data.alt, written to the Markdown and read back into the editor", () => {
    const state = EditorState.create({ doc: toEditor(markdownToDocument(IMAGE)) });
    const { node, pos } = firstOf(state.doc, "image");
    for (const alt of ['The "parts" diagram: A < B & C', "  two   words  ", "x".repeat(600)]) {
      const edited = state.apply(state.tr.setSelection(NodeSelection.create(state.doc, pos)).setNodeMarkup(pos, undefined, { ...node.attrs, data: withAlt(node.attrs.data, alt) }));
      const { json, markdown, again } = throughMarkdown(edited.doc);
      const expected = alt.replace(/\s+/g, " ").trim().slice(0, 500);
      const images = json.nodes[0];
      expect(images.type === "images" ? images.nodes[0].data.alt : undefined).toBe(expected);
      expect(markdown).toContain("<img src=\"https://example.com/a.png\" alt=\"");
      expect(markdown).toContain("<figcaption><p>A caption</p></figcaption>");
      const back = firstOf(again, "image").node;
      expect((back.attrs.data as { alt?: string }).alt).toBe(expected);
      // The editor shows it as the picture's alt.
      expect(firstOf(again, "image").node.type.spec.toDOM!(back)).toEqual(expect.arrayContaining([["img", { src: "https://example.com/a.png", alt: expected }]]));
    }
    // Emptied: no alt stored, none in the Markdown.
    const cleared = state.apply(state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, data: withAlt(node.attrs.data, " ") }));
    const { json, markdown } = throughMarkdown(cleared.doc);
    expect(JSON.stringify(json)).not.toContain('"alt"');
    expect(markdown).not.toContain("alt=");
  });

  const TABLE = "| Name | Count | Note |\n| --- | --- | --- |\n| Ann | 3 | a |\n| Bob | 5 | b |\n";

  /** The state of `markdown` with the cursor at the end of the text of the first table's cell at `row`, `column`. */
  function inCell(doc: PMNode, row: number, column: number): EditorState {
    const table = firstOf(doc, "table");
    let pos = table.pos + 1;
    for (let r = 0; r < row; r++) pos += table.node.child(r).nodeSize;
    pos += 1;
    for (let c = 0; c < column; c++) pos += table.node.child(row).child(c).nodeSize;
    const cell = table.node.child(row).child(column);
    return EditorState.create({ doc, selection: TextSelection.create(doc, pos + 2 + cell.firstChild!.content.size), plugins: tablePlugins() });
  }

  const act = (state: EditorState, id: string): EditorState => {
    let next = state;
    expect(TABLE_ACTIONS.find((a) => a.id === id)!.run(state, (tr) => (next = state.apply(tr)))).toBe(true);
    return next;
  };

  const alignments = (doc: PMNode) => {
    const header = firstOf(doc, "table").node.firstChild!;
    return Array.from({ length: header.childCount }, (_, c) => alignmentOf(header.child(c)));
  };

  /** The classes the editor gives each cell of the first table (its alignment decorations), row by row. */
  function cellClasses(state: EditorState): string[][] {
    const set = state.plugins.map((p) => p.props.decorations?.call(p, state)).find((d): d is DecorationSet => !!d && "find" in d)!;
    const table = firstOf(state.doc, "table");
    const out: string[][] = [];
    table.node.forEach((row, rowOffset) => {
      const classes: string[] = [];
      row.forEach((cell, cellOffset) => {
        const from = table.pos + 1 + rowOffset + 1 + cellOffset;
        const found = set.find(from, from + cell.nodeSize).filter((d) => d.from === from && d.to === from + cell.nodeSize);
        classes.push(found.map((d) => (d as unknown as { type: { attrs: { class?: string } } }).type.attrs.class ?? "").join(" "));
      });
      out.push(classes);
    });
    return out;
  }

  test("a column aligned from the table's block bar is GitBook's definition[column].textAlignment, the Markdown's rule, and comes back aligned", () => {
    let state = inCell(toEditor(markdownToDocument(TABLE)), 2, 1);
    expect(isAligned(state, "left")).toBe(true);
    state = act(state, "align-center");
    expect(ALIGNMENTS.map((a) => isAligned(state, a))).toEqual([false, true, false]);
    // The cells of the column show it (a class: the page's CSP applies no style attribute).
    expect(cellClasses(state)).toEqual([["", "align-center", ""], ["", "align-center", ""], ["", "align-center", ""]]);
    // And from the titles' row, another column to the right.
    state = act(inCell(state.doc, 0, 2), "align-right");
    const { json, markdown, again } = throughMarkdown(state.doc);
    const table = json.nodes[0];
    if (table.type !== "table") throw new Error("table expected");
    expect(table.data.view.columns.map((c) => table.data.definition[c].textAlignment)).toEqual(["left", "center", "right"]);
    expect(markdown).toContain("| Name | Count | Note |\n| --- | :-: | --: |\n| Ann | 3 | a |");
    expect(alignments(again)).toEqual(["left", "center", "right"]);
    const reopened = inCell(again, 1, 2);
    expect(isAligned(reopened, "right")).toBe(true);
    expect(cellClasses(reopened)[1]).toEqual(["", "align-center", "align-right"]);
    // Back to left: the plain rule again, no class.
    const left = act(reopened, "align-left");
    expect(documentToMarkdown(fromEditor(left.doc))).toContain("| --- | :-: | --- |");
    expect(cellClasses(left)[2]).toEqual(["", "align-center", ""]);
  });

  test("an alignment stays with its column when columns are added and removed around it; a new column is left-aligned", () => {
    let state = act(inCell(toEditor(markdownToDocument(TABLE)), 1, 1), "align-right");
    state = act(state, "column-left");
    expect(alignments(state.doc)).toEqual(["left", "left", "right", "left"]);
    state = act(inCell(state.doc, 1, 0), "column-delete");
    const { json, again } = throughMarkdown(state.doc);
    const table = json.nodes[0];
    if (table.type !== "table") throw new Error("table expected");
    expect(table.data.view.columns.map((c) => [table.data.definition[c].title, table.data.definition[c].textAlignment])).toEqual([
      ["", "left"],
      ["Count", "right"],
      ["Note", "left"],
    ]);
    expect(alignments(again)).toEqual(["left", "right", "left"]);
  });
});
