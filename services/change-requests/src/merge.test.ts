import { describeConflicts, mergeRevisions, type TreeContent, type TreePage } from "./merge";

function page(id: string, fields: Partial<TreePage> = {}, pages: TreePage[] = []): TreePage {
  return { id, title: id.toUpperCase(), documentId: `doc-${id}`, path: id, updatedAt: "t0", pages, ...fields };
}
function content(pages: TreePage[], extra: Partial<TreeContent> = {}): TreeContent {
  return { pages, files: [], reusableContents: [], variables: {}, ...extra };
}
const ids = (pages: TreePage[]): unknown => pages.map((p) => (p.pages.length ? { [p.id]: ids(p.pages) } : p.id));

describe("mergeRevisions", () => {
  const base = content([page("a"), page("b", {}, [page("b1")]), page("c")]);

  test("a page changed only in the change request takes the change request's version", () => {
    const theirs = content([page("a", { documentId: "doc-a2", updatedAt: "t1" }), page("b", {}, [page("b1")]), page("c")]);
    const { content: out, conflicts } = mergeRevisions(base, base, theirs);
    expect(conflicts).toEqual([]);
    expect(out.pages[0]).toMatchObject({ id: "a", documentId: "doc-a2" });
  });

  test("changes to different pages on both sides both survive", () => {
    const ours = content([page("a", { title: "Main A" }), page("b", {}, [page("b1")]), page("c")]);
    const theirs = content([page("a"), page("b", {}, [page("b1")]), page("c", { documentId: "doc-c2" })]);
    const { content: out, conflicts } = mergeRevisions(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(out.pages.map((p) => [p.title, p.documentId])).toEqual([["Main A", "doc-a"], ["B", "doc-b"], ["C", "doc-c2"]]);
  });

  test("the same page changed differently on both sides is a conflict naming the page", () => {
    const ours = content([page("a", { documentId: "x" }), page("b", {}, [page("b1")]), page("c")]);
    const theirs = content([page("a", { documentId: "y" }), page("b", {}, [page("b1")]), page("c")]);
    const { conflicts } = mergeRevisions(base, ours, theirs);
    expect(conflicts).toEqual([{ kind: "page", id: "a", title: "A", reason: "changed on both sides" }]);
    expect(describeConflicts(conflicts)).toContain('page "A" (a)');
  });

  test("the same change on both sides is not a conflict", () => {
    const both = content([page("a", { documentId: "x", updatedAt: "t9" }), page("b", {}, [page("b1")]), page("c")]);
    expect(mergeRevisions(base, both, content([page("a", { documentId: "x", updatedAt: "t5" }), page("b", {}, [page("b1")]), page("c")])).conflicts).toEqual([]);
  });

  test("a page deleted on one side and unchanged on the other is deleted, with its children", () => {
    const theirs = content([page("a"), page("c")]);
    const { content: out, conflicts } = mergeRevisions(base, base, theirs);
    expect(conflicts).toEqual([]);
    expect(ids(out.pages)).toEqual(["a", "c"]);
  });

  test("deleted on one side and changed on the other is a conflict", () => {
    const ours = content([page("a", { title: "Renamed" }), page("b", {}, [page("b1")]), page("c")]);
    const theirs = content([page("b", {}, [page("b1")]), page("c")]);
    expect(mergeRevisions(base, ours, theirs).conflicts.map((c) => c.id)).toEqual(["a"]);
  });

  test("a page added under a page the other side deleted is a conflict", () => {
    const ours = content([page("a"), page("b", {}, [page("b1"), page("b2")]), page("c")]);
    const theirs = content([page("a"), page("c")]);
    expect(mergeRevisions(base, ours, theirs).conflicts.map((c) => [c.id, c.reason])).toEqual([["b2", "its parent page was deleted on the other side"]]);
  });

  test("pages added on both sides all appear, each before the sibling that follows it on its side", () => {
    const ours = content([page("a"), page("m"), page("b", {}, [page("b1")]), page("c")]);
    const theirs = content([page("a"), page("b", {}, [page("b1"), page("t")]), page("c"), page("u")]);
    const { content: out, conflicts } = mergeRevisions(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(ids(out.pages)).toEqual(["a", "m", { b: ["b1", "t"] }, "c", "u"]);
  });

  test("a move on one side is kept; moves to different parents on both sides conflict", () => {
    const moved = content([page("a", {}, [page("c")]), page("b", {}, [page("b1")])]);
    const clean = mergeRevisions(base, base, moved);
    expect(clean.conflicts).toEqual([]);
    expect(ids(clean.content.pages)).toEqual([{ a: ["c"] }, { b: ["b1"] }]);
    const elsewhere = content([page("a"), page("b", {}, [page("b1"), page("c")])]);
    expect(mergeRevisions(base, elsewhere, moved).conflicts.map((c) => c.id)).toEqual(["c"]);
  });

  test("a reorder on one side is kept, and a page added at the end on the other side stays last", () => {
    const theirs = content([page("c"), page("a"), page("b", {}, [page("b1")])]);
    expect(ids(mergeRevisions(base, base, theirs).content.pages)).toEqual(["c", "a", { b: ["b1"] }]);
    const ours = content([page("a"), page("b", {}, [page("b1")]), page("c"), page("z")]);
    expect(ids(mergeRevisions(base, ours, theirs).content.pages)).toEqual(["c", "a", { b: ["b1"] }, "z"]);
  });

  test("crossing moves that would nest two pages inside each other conflict", () => {
    const flat = content([page("x"), page("y")]);
    const yUnderX = content([page("x", {}, [page("y")])]);
    const xUnderY = content([page("y", {}, [page("x")])]);
    const { conflicts } = mergeRevisions(flat, yUnderX, xUnderY);
    expect(conflicts.map((c) => c.reason)).toContain("moved inside itself by the two sides' moves");
  });

  test("files, reusable contents and variables merge by id and key", () => {
    const b = content([], { files: [{ id: "f1", name: "a.png" }], variables: { x: "1", y: "1" } });
    const o = content([], { files: [{ id: "f1", name: "a.png" }, { id: "f2", name: "b.png" }], variables: { x: "2", y: "1" } });
    const t = content([], { files: [], reusableContents: [{ id: "r", title: "R" }], variables: { x: "1", y: "3" } });
    const { content: out, conflicts } = mergeRevisions(b, o, t);
    expect(conflicts).toEqual([]);
    expect(out.files.map((f) => f.id)).toEqual(["f2"]);
    expect(out.reusableContents.map((r) => r.id)).toEqual(["r"]);
    expect(out.variables).toEqual({ x: "2", y: "3" });
    expect(mergeRevisions(b, o, content([], { variables: { x: "3", y: "1" } })).conflicts).toEqual([{ kind: "variable", id: "x", reason: "changed on both sides" }]);
  });
});
