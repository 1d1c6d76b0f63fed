import { EditorState, TextSelection } from "prosemirror-state";
import { BLOCK_ITEMS, matching, moveBlock, placeBlock, safeUrl, toggleTask } from "./blocks";
import { fromEditor } from "./convert";
import { schema } from "./schema";
import { checkDocument, documentToMarkdown } from "@docshelf/document";

const p = (text: string) => schema.node("paragraph", null, text ? [schema.text(text)] : []);

function stateWith(doc: ReturnType<typeof schema.node>, pos: number): EditorState {
  return EditorState.create({ doc, selection: TextSelection.create(doc, pos) });
}

describe("the slash menu's blocks", () => {
  test.each(BLOCK_ITEMS.map((item) => [item.title, item] as const))("%s placed in an empty paragraph is a valid GitBook block", (_title, item) => {
    const node = item.make(() => "https://example.com/x.png");
    expect(node).toBeDefined();
    const state = stateWith(schema.node("doc", null, [p("before"), p(""), p("after")]), 9);
    const next = state.apply(placeBlock(state, node!));
    next.doc.check();
    const gitbook = fromEditor(next.doc);
    expect(() => checkDocument(gitbook)).not.toThrow();
    expect(() => documentToMarkdown(gitbook)).not.toThrow();
    expect(gitbook.nodes[0].type).toBe("paragraph");
    expect(gitbook.nodes[1].type).toBe(item.id.startsWith("hint") ? "hint" : item.id === "image" ? "images" : item.id);
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
