import { moveChange, placeChange, possibleMoves, subtreeIds } from "./arrange";
import type { TreeNode } from "./pages/space";

const node = (id: string, pages: TreeNode[] = [], type = "document"): TreeNode => ({ id, title: id.toUpperCase(), path: id, type, pages });
// a, b (b1, b2), c
const tree = [node("a"), node("b", [node("b1"), node("b2")]), node("c"), node("l", [], "link"), node("d")];

describe("moving a page one step", () => {
  test("up and down: a new index among the same siblings (counted once the page is taken out)", () => {
    expect(moveChange(tree, "b", "up")).toEqual({ operation: "update_page", page: "b", at: 0 });
    expect(moveChange(tree, "b", "down")).toEqual({ operation: "update_page", page: "b", at: 2 });
    expect(moveChange(tree, "b2", "up")).toEqual({ operation: "update_page", page: "b2", at: 0 });
  });
  test("nest: last under the page before it; un-nest: just after the parent, one level up", () => {
    expect(moveChange(tree, "c", "in")).toEqual({ operation: "update_page", page: "c", into: "b", at: 2 });
    expect(moveChange(tree, "b1", "out")).toEqual({ operation: "update_page", page: "b1", into: null, at: 2 });
    const deep = [node("x", [node("y", [node("z")])])];
    expect(moveChange(deep, "z", "out")).toEqual({ operation: "update_page", page: "z", into: "x", at: 1 });
  });
  test("moves that cannot be made are null, and not offered", () => {
    expect(moveChange(tree, "a", "up")).toBeNull();
    expect(moveChange(tree, "d", "down")).toBeNull();
    expect(moveChange(tree, "a", "in")).toBeNull();
    expect(moveChange(tree, "a", "out")).toBeNull();
    expect(moveChange(tree, "d", "in")).toBeNull(); // a link holds no pages
    expect(moveChange(tree, "nope", "up")).toBeNull();
    expect([...possibleMoves(tree, "b1")].sort()).toEqual(["down", "out"]);
  });
});

describe("placing a page dragged onto another", () => {
  test("before or after a page: among its siblings, counted once the dragged page is taken out", () => {
    expect(placeChange(tree, "a", "c", "before")).toEqual({ operation: "update_page", page: "a", into: null, at: 1 });
    expect(placeChange(tree, "a", "c", "after")).toEqual({ operation: "update_page", page: "a", into: null, at: 2 });
    expect(placeChange(tree, "d", "a", "before")).toEqual({ operation: "update_page", page: "d", into: null, at: 0 });
    expect(placeChange(tree, "b1", "a", "after")).toEqual({ operation: "update_page", page: "b1", into: null, at: 1 });
    expect(placeChange(tree, "a", "b2", "before")).toEqual({ operation: "update_page", page: "a", into: "b", at: 1 });
  });
  test("inside a page: last of its subpages (a link holds none)", () => {
    expect(placeChange(tree, "a", "b", "inside")).toEqual({ operation: "update_page", page: "a", into: "b", at: 2 });
    expect(placeChange(tree, "d", "c", "inside")).toEqual({ operation: "update_page", page: "d", into: "c", at: 0 });
    expect(placeChange(tree, "b1", "b", "inside")).toEqual({ operation: "update_page", page: "b1", into: "b", at: 1 });
    expect(placeChange(tree, "a", "l", "inside")).toBeNull();
  });
  test("a page group stays at the top level: before or after a top-level page, never inside one nor nested; pages go into it", () => {
    const grouped = [node("a"), node("g", [node("g1")], "group"), node("c")];
    expect(placeChange(grouped, "g", "a", "before")).toEqual({ operation: "update_page", page: "g", into: null, at: 0 });
    expect(placeChange(grouped, "g", "a", "inside")).toBeNull();
    expect(placeChange(grouped, "g", "g1", "after")).toBeNull();
    expect(placeChange(grouped, "c", "g", "inside")).toEqual({ operation: "update_page", page: "c", into: "g", at: 1 });
    expect([...possibleMoves(grouped, "g")].sort()).toEqual(["down", "up"]);
    expect(moveChange(grouped, "g", "in")).toBeNull();
  });
  test("nowhere into itself or its own subpages, nor to where it already is, nor for pages not in the tree", () => {
    expect(placeChange(tree, "b", "b", "inside")).toBeNull();
    expect(placeChange(tree, "b", "b1", "after")).toBeNull();
    expect(placeChange(tree, "b", "b2", "inside")).toBeNull();
    expect(placeChange(tree, "a", "b", "before")).toBeNull();
    expect(placeChange(tree, "b", "a", "after")).toBeNull();
    expect(placeChange(tree, "b2", "b", "inside")).toBeNull();
    expect(placeChange(tree, "nope", "a", "before")).toBeNull();
    expect(placeChange(tree, "a", "nope", "before")).toBeNull();
  });
  test("a page's subtree, parents first", () => {
    expect(subtreeIds(tree, "b")).toEqual(["b", "b1", "b2"]);
    expect(subtreeIds(tree, "a")).toEqual(["a"]);
    expect(subtreeIds(tree, "nope")).toEqual([]);
  });
});
