import { markdownToDocument, presentBody } from "./body";

describe("presentBody", () => {
  test("markdown by default", () => {
    expect(presentBody("Hello", undefined)).toEqual({ markdown: "Hello" });
  });
  test("a document of paragraphs and headings when asked", () => {
    expect(markdownToDocument("# Title\n\nSome *text*\nmore").nodes.map((n) => [n.type, n.nodes[0].leaves[0].text])).toEqual([
      ["heading-1", "Title"],
      ["paragraph", "Some *text*\nmore"],
    ]);
  });
});
