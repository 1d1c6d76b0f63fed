import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { checkDocument, documentToMarkdown, markdownToDocument, type JSONDocument } from "@docshelf/document";
import { BLOCKS_PAGE } from "@docshelf/document/dist/blocks-fixture";
import { fromEditor, toEditor } from "./convert";
import { schema } from "./schema";

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
