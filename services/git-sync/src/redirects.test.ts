import { resolveRedirects, type Redirect } from "./layout";

const list = (map: Record<string, string>): Redirect[] => Object.entries(map).map(([source, destination]) => ({ source, destination }));

describe(".gitbook.yaml redirects resolved to pages", () => {
  const pages = { p1: { path: "docs/README.md" }, p2: { path: "docs/guide/install.md" }, p3: { path: "docs/guide/README.md" }, g: {} };

  it("resolves files relative to the content root, folders to their README, paths without extension to .md", () => {
    expect(resolveRedirects(list({ "old/setup": "guide/install.md", "/previous/": "./README.md", folder: "guide/", bare: "guide/install" }), "docs", pages)).toEqual([
      { source: "old/setup", file: "guide/install.md", pageId: "p2" },
      { source: "previous", file: "./README.md", pageId: "p1" },
      { source: "folder", file: "guide/", pageId: "p3" },
      { source: "bare", file: "guide/install", pageId: "p2" },
    ]);
  });

  it("leaves out files that are no page, URLs, paths leaving the root and empty keys", () => {
    expect(resolveRedirects(list({ a: "missing.md", b: "https://example.com/x", c: "../outside.md", "/": "README.md", d: "/abs.md" }), "docs", pages)).toEqual([]);
  });
});
