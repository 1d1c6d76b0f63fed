import { moveChange, possibleMoves } from "./arrange";
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
