import { linksFromTree, linksToTree } from "./file-refs";

const TREE = "https://git.example.com/acme/docs/tree/main";

describe("external file references", () => {
  test("import points relative links to repository files at the tree URL, and leaves pages, assets and URLs alone", () => {
    const md = [
      "See [the code](../src/index.js) and [config](/package.json#L2).",
      "![logo](../.gitbook/assets/logo.png) [next](install.md) [up](../README.md)",
      "[web](https://example.com/x) [anchor](#here) [out](../../../etc/passwd)",
      "```",
      "[not a link](../src/index.js)",
      "```",
    ].join("\n");
    const out = linksToTree(md, "guide/start.md", `${TREE}/`);
    expect(out.split("\n")).toEqual([
      `See [the code](${TREE}/src/index.js) and [config](${TREE}/package.json#L2).`,
      "![logo](../.gitbook/assets/logo.png) [next](install.md) [up](../README.md)",
      "[web](https://example.com/x) [anchor](#here) [out](../../../etc/passwd)",
      "```",
      "[not a link](../src/index.js)",
      "```",
    ]);
  });

  test("export writes them back relative to the page, so a round trip gives the same text", () => {
    const md = "See [the code](../src/index.js) and [a file](<no>) [b](../my%20file.txt).";
    const imported = linksToTree(md, "guide/start.md", TREE);
    expect(imported).toContain(`${TREE}/my%20file.txt`);
    expect(linksFromTree(imported, "guide/start.md", TREE)).toBe(md);
    // Exported from another place in the tree, the path follows the page.
    expect(linksFromTree(imported, "README.md", TREE)).toContain("[the code](src/index.js)");
  });
});
