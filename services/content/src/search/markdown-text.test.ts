import { markdownToText } from "./markdown-text";

describe("markdownToText", () => {
  it("keeps the words of links, images, emphasis and inline code but not their markup", () => {
    expect(markdownToText("See the [install guide](./install.md), ![a diagram](d.png), **bold**, _it_ and `npm ci`.")).toBe(
      "See the install guide, a diagram, bold, it and npm ci.",
    );
  });

  it("drops heading, list, quote and table markup", () => {
    const md = ["# Title", "- one", "1. two", "> quoted", "| a | b |", "|---|---|", "| 1 | 2 |"].join("\n");
    expect(markdownToText(md)).toBe(["Title", "one", "two", "quoted", "a b", "1 2"].join("\n"));
  });

  it("keeps code inside fences searchable without the fence markers", () => {
    expect(markdownToText("```bash\nnpm install docshelf\n```")).toBe("npm install docshelf");
  });

  it("drops HTML tags, comments and GitBook block tags", () => {
    expect(markdownToText('{% hint style="info" %}\n<b>Note</b> <!-- hidden --> text\n{% endhint %}')).toBe("Note text");
  });
});
