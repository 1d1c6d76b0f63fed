import { FULL_TREE_PAGES, LEVEL_WINDOW, pageTree, type TreeNode } from "./space";

const page = (path: string, pages: TreeNode[] = []): TreeNode => ({ id: path, title: `T ${path}`, path, type: "document", pages });

describe("the page tree", () => {
  test("a small tree is shown whole, the current page marked", () => {
    const tree = [page("a", [page("a/b")]), page("c")];
    const out = pageTree(tree, "/s/x", "c").value;
    expect(out).toContain('<a href="/s/x/a/b">T a/b</a>');
    expect(out).toContain('<a href="/s/x/c" aria-current="page">T c</a>');
  });

  test("a large tree opens only the current page's branch and shows a window of each level", () => {
    const flat = Array.from({ length: FULL_TREE_PAGES + 100 }, (_, i) => page(`p${i}`, [page(`p${i}/child`)]));
    const current = `p${FULL_TREE_PAGES + 50}/child`;
    const out = pageTree(flat, "/s/x", current).value;
    expect(out).toContain('<a href="/s/x/p0">T p0</a>');
    expect(out).not.toContain("/s/x/p0/child");
    expect(out).toContain(`<a href="/s/x/${current}" aria-current="page">`);
    expect(out).toContain(`${FULL_TREE_PAGES + 100 - LEVEL_WINDOW - 1} more pages`);
    expect(out.length).toBeLessThan(40_000);
  });
});
