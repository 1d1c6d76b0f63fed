import { chainLevels, descendantIds, levelOf, positionAmong, wouldCycle, type TreeNode } from "./collection-tree";

const node = (id: string, parent?: string, defaultLevel: TreeNode["defaultLevel"] = "inherit", position = 0): TreeNode => ({ id, parent, defaultLevel, position });
const tree = [node("a"), node("b", "a"), node("c", "b"), node("d", "a"), node("e")];

describe("descendantIds", () => {
  test("lists the root and every nested collection, parents first", () => {
    expect(descendantIds(tree, "a")).toEqual(["a", "b", "d", "c"]);
  });
  test("a leaf is only itself", () => {
    expect(descendantIds(tree, "e")).toEqual(["e"]);
  });
  test("a cycle in stored data does not loop forever", () => {
    expect(descendantIds([node("x", "y"), node("y", "x")], "x").sort()).toEqual(["x", "y"]);
  });
});

describe("wouldCycle", () => {
  test("moving a collection under its own descendant is a cycle", () => {
    expect(wouldCycle(tree, "a", "c")).toBe(true);
    expect(wouldCycle(tree, "a", "a")).toBe(true);
  });
  test("moving under an unrelated collection is not", () => {
    expect(wouldCycle(tree, "b", "e")).toBe(false);
  });
});

describe("chainLevels", () => {
  test("lists levels nearest first with inherit as null", () => {
    const nodes = new Map([node("top", undefined, "read"), node("mid", "top", "inherit"), node("leaf", "mid", "edit")].map((n) => [n.id, n]));
    expect(chainLevels((id) => nodes.get(id), "leaf")).toEqual(["edit", null, "read"]);
  });
  test("stops at a missing parent and at a cycle", () => {
    const nodes = new Map([node("x", "y", "comment"), node("y", "x", null)].map((n) => [n.id, n]));
    expect(chainLevels((id) => nodes.get(id), "x")).toEqual(["comment", null]);
    expect(chainLevels(() => undefined, "gone")).toEqual([]);
  });
  test("levelOf maps inherit and undefined to null and keeps roles", () => {
    expect(levelOf("inherit")).toBeNull();
    expect(levelOf(undefined)).toBeNull();
    expect(levelOf("admin")).toBe("admin");
  });
});

describe("positionAmong", () => {
  const siblings = [
    { id: "s1", position: 0 },
    { id: "s2", position: 1 },
    { id: "s3", position: 2 },
  ];
  test("no placement puts the item at the end", () => {
    expect(positionAmong(siblings, {})).toBe(3);
    expect(positionAmong([], {})).toBe(0);
  });
  test("before a sibling lands between it and the previous one", () => {
    expect(positionAmong(siblings, { before: "s2" })).toBe(0.5);
    expect(positionAmong(siblings, { before: "s1" })).toBeLessThan(0);
  });
  test("after a sibling lands between it and the next one", () => {
    expect(positionAmong(siblings, { after: "s2" })).toBe(1.5);
    expect(positionAmong(siblings, { after: "s3" })).toBeGreaterThan(2);
  });
  test("an unknown sibling falls back to the end", () => {
    expect(positionAmong(siblings, { before: "nope" })).toBe(3);
  });
});
