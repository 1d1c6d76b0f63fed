import { lineDiff } from "../diff";
import { arrangePage, changesPage } from "./changes";
import type { TreeNode } from "./space";

const viewer = { userId: "u", csrf: "tok" };
const space = { id: "sp", title: "Space" };
const cr = { id: "cr", number: 3, subject: "Sub", status: "open" };
const node = (id: string, title: string, pages: TreeNode[] = []): TreeNode => ({ id, title, path: id, type: "document", pages });
const XSS = `<img src=x onerror="alert(1)">`;

describe("the arrange page", () => {
  const tree = [node("a", "A"), node("b", XSS, [node("c", "C")])];

  test("an editor gets each page's possible moves and the add form, titles escaped", () => {
    const out = arrangePage(viewer, space, cr, tree, true);
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;img src=x");
    // A: down and nothing else; C (only child): un-nest only.
    const formOf = (id: string) => new RegExp(`name="page" value="${id}">(.*?)</form>`).exec(out)?.[1] ?? "";
    expect(formOf("a").match(/value="(up|down|in|out)"/g)).toEqual(['value="down"']);
    expect(formOf("c").match(/value="(up|down|in|out)"/g)).toEqual(['value="out"']);
    expect(out).toContain('name="_csrf" value="tok"');
    expect(out).toContain('<option value="c">— C</option>');
  });

  test("a reader, or a merged change request, gets no form", () => {
    for (const out of [arrangePage(viewer, space, cr, tree, false), arrangePage(viewer, space, { ...cr, status: "merged" }, tree, true)]) {
      expect(out).not.toContain('name="direction"');
      expect(out).not.toContain('value="add-page"');
    }
  });
});

describe("the changes page", () => {
  test("pages listed with their kinds, diffs escaped; conflicts and a merge's refusal shown", () => {
    const changed = {
      id: "p",
      title: XSS,
      path: "p",
      type: "document" as const,
      kinds: ["modified" as const, "moved" as const],
      attributes: { title: { before: "Old", after: XSS } },
      parent: { after: { id: "q", title: "Q" } },
      diff: lineDiff("a\n<script>", "a\nb"),
    };
    const out = changesPage(viewer, space, { ...cr, outdated: true }, [], [changed], 2, [{ ours: changed, theirs: { ...changed, kinds: ["removed"] }, reason: "changed here, deleted there" }], {
      message: "conflicts",
      items: [{ kind: "page", id: "p", title: "P", reason: "both" }],
    });
    expect(out).not.toContain("<script>");
    expect(out).not.toContain("<img");
    expect(out).toContain("<del>- &lt;script&gt;</del>");
    expect(out).toContain("<ins>+ b</ins>");
    expect(out).toContain("modified, moved");
    expect(out).toContain("moved from the top level to Q");
    expect(out).toContain("And 2 more changes.");
    expect(out).toContain('<section id="conflicts">');
    expect(out).toContain("changed here, deleted there");
    expect(out).toContain("Merge refused");
  });
});
