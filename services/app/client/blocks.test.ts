import { EditorState, TextSelection } from "prosemirror-state";
import { BLOCK_ITEMS, matching, moveBlock, placeBlock, safeUrl, toggleTask } from "./blocks";
import { fromEditor } from "./convert";
import { schema } from "./schema";
import { checkDocument, documentToMarkdown, markdownToDocument } from "@docshelf/document";
import { choicesFor } from "./link-picker";

const p = (text: string) => schema.node("paragraph", null, text ? [schema.text(text)] : []);

function stateWith(doc: ReturnType<typeof schema.node>, pos: number): EditorState {
  return EditorState.create({ doc, selection: TextSelection.create(doc, pos) });
}

describe("the slash menu's blocks", () => {
  test.each(BLOCK_ITEMS.map((item) => [item.title, item] as const))("%s placed in an empty paragraph is a valid GitBook block", (_title, item) => {
    const node = item.make(() => "https://example.com/x.png");
    expect(node).toBeDefined();
    const state = stateWith(schema.node("doc", null, [p("before"), p(""), p("after")]), 9);
    const placed = state.apply(placeBlock(state, node!));
    // Text typed where the cursor lands (in the new block, or after a void one).
    const next = placed.apply(placed.tr.insertText("typed"));
    next.doc.check();
    const gitbook = fromEditor(next.doc);
    expect(() => checkDocument(gitbook)).not.toThrow();
    expect(() => documentToMarkdown(gitbook)).not.toThrow();
    expect(gitbook.nodes[0].type).toBe("paragraph");
    expect(gitbook.nodes[1].type).toBe(item.id.startsWith("hint") ? "hint" : item.id === "image" ? "images" : item.id);
    // Stored (and exported by Git Sync) as Markdown, and read back: the same block, the same Markdown.
    const markdown = documentToMarkdown(gitbook);
    const back = markdownToDocument(markdown);
    expect(back.nodes[1]?.type).toBe(gitbook.nodes[1].type);
    expect(documentToMarkdown(back)).toBe(markdown);
  });

  test("prompted blocks are not made when the prompt is cancelled or gives a script URL", () => {
    for (const id of ["image", "embed"]) {
      const item = BLOCK_ITEMS.find((i) => i.id === id)!;
      expect(item.make(() => null)).toBeUndefined();
      expect(item.make(() => "javascript:alert(1)")).toBeUndefined();
    }
    expect(safeUrl(" https://example.com ")).toBe("https://example.com");
    expect(safeUrl("data:text/html,x")).toBeUndefined();
  });

  test("the menu filters by every word typed", () => {
    expect(matching("hint warn").map((i) => i.id)).toEqual(["hint-warning"]);
    expect(matching("").length).toBe(BLOCK_ITEMS.length);
    expect(matching("nothing like this")).toEqual([]);
  });

  test("Alt+arrows move the block holding the cursor", () => {
    const doc = schema.node("doc", null, [p("one"), p("two"), p("three")]);
    let state = stateWith(doc, 7);
    moveBlock(-1)(state, (tr) => (state = state.apply(tr)));
    expect(state.doc.textContent).toBe("twoonethree");
    expect(moveBlock(-1)(state)).toBe(false);
    moveBlock(1)(state, (tr) => (state = state.apply(tr)));
    moveBlock(1)(state, (tr) => (state = state.apply(tr)));
    expect(state.doc.textContent).toBe("onethreetwo");
  });

  test("a task is ticked and unticked", () => {
    const doc = schema.node("doc", null, [schema.node("list_tasks", null, [schema.node("list_item", { data: { checked: false } }, [p("todo")])])]);
    let state = stateWith(doc, 3);
    toggleTask(state, (tr) => (state = state.apply(tr)));
    expect(documentToMarkdown(fromEditor(state.doc))).toContain("* [x] todo");
    toggleTask(state, (tr) => (state = state.apply(tr)));
    expect(documentToMarkdown(fromEditor(state.doc))).toContain("* [ ] todo");
  });
});

describe("the link picker's choices", () => {
  const pages = [
    { id: "p1", title: "Getting started", path: "getting-started" },
    { id: "p2", title: "API", path: "reference/api" },
  ];
  test("pages match by title or path, an address is offered as itself, nothing for script", () => {
    expect(choicesFor("start", pages)).toEqual([{ kind: "page", page: pages[0] }]);
    expect(choicesFor("REFERENCE", pages)).toEqual([{ kind: "page", page: pages[1] }]);
    expect(choicesFor("https://example.com/x", pages)).toEqual([{ kind: "url", url: "https://example.com/x" }]);
    expect(choicesFor("javascript:alert(1)", pages)).toEqual([]);
    expect(choicesFor("  ", pages)).toEqual([]);
  });
});
