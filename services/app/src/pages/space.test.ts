import { FULL_TREE_PAGES, LEVEL_WINDOW, changeRequestPage, pageTree, statusBadge, type TreeNode } from "./space";

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

describe("a change request's page", () => {
  const NOW = Date.parse("2026-03-10T12:00:00.000Z");
  const viewer = { userId: "u1", csrf: "c" };
  const space = { id: "s1", title: "Docs" };
  const cr = (status: string) => ({ id: "cr1", number: 4, subject: "Fix", status, createdBy: { displayName: "Ann" }, createdAt: "2026-03-10T11:57:00.000Z", updatedAt: "2026-03-09T10:00:00.000Z" });
  const comment = { id: "c1", postedBy: { displayName: "Bo" }, postedAt: "2026-03-01T08:00:00.000Z", html: "<p>Hi</p>" };

  test("a draft: its status, times as <time>, the ready button, the merge apart with a required box", () => {
    const out = changeRequestPage(viewer, space, cr("draft"), [], undefined, [comment], [], undefined, undefined, NOW);
    expect(out).toContain('Status: <span class="status status-draft">draft</span> · opened by Ann <time datetime="2026-03-10T11:57:00.000Z" title="2026-03-10 11:57:00 UTC">3 minutes ago</time>');
    expect(out).toContain('updated <time datetime="2026-03-09T10:00:00.000Z" title="2026-03-09 10:00:00 UTC">yesterday</time>');
    expect(out).toContain('<p class="meta">Bo <time datetime="2026-03-01T08:00:00.000Z" title="2026-03-01 08:00:00 UTC">1 Mar 2026</time></p>');
    expect(out).toContain('value="ready">Ready for review</button>');
    expect(out).toMatch(/<section id="merge" class="merge">[\s\S]*name="confirm" value="yes" required[\s\S]*class="merge">Merge<\/button>/);
  });

  test("without the permissions: no ready button, no merge; merged: neither", () => {
    const reader = changeRequestPage(viewer, space, cr("draft"), [], undefined, [], [], undefined, undefined, NOW, { edit: false, merge: false });
    expect(reader).not.toContain('value="ready"');
    expect(reader).not.toContain('id="merge"');
    const merged = changeRequestPage(viewer, space, cr("merged"), [], undefined, [], [], undefined, undefined, NOW);
    expect(merged).not.toContain('value="ready"');
    expect(merged).not.toContain('id="merge"');
    expect(merged).toContain('<span class="status status-merged">merged</span>');
  });

  test("an unknown status is shown as unknown, escaped never", () => {
    expect(statusBadge('<b>"x').value).toBe('<span class="status status-unknown">unknown</span>');
    expect(statusBadge(undefined).value).toContain("unknown");
  });
});
