import { mergeBlocks, type BlockSplice } from "./merge";

/** Applies a splice to `mine`, as the editor does to its document. */
function apply(mine: string[], theirs: string[], splice: BlockSplice | null): string[] {
  if (!splice) return mine;
  return [...mine.slice(0, splice.from), ...theirs.slice(splice.start, splice.end), ...mine.slice(splice.to)];
}

describe("bringing a stored edit into the live document", () => {
  it("brings nothing when the stored page did not change", () => {
    expect(mergeBlocks(["a", "b"], ["a", "b"], ["a", "b", "x"])).toBeNull();
  });

  it("keeps live edits in other blocks and brings the changed block", () => {
    const base = ["a", "b", "c", "d"];
    const theirs = ["a", "b", "C", "d"];
    const mine = ["A!", "b", "c", "d", "e"];
    expect(apply(mine, theirs, mergeBlocks(base, theirs, mine))).toEqual(["A!", "b", "C", "d", "e"]);
  });

  it("brings blocks added and removed at the start or the end", () => {
    expect(apply(["a", "b", "x"], ["z", "a", "b"], mergeBlocks(["a", "b"], ["z", "a", "b"], ["a", "b", "x"]))).toEqual(["z", "a", "b", "x"]);
    expect(apply(["a", "b", "x"], ["a"], mergeBlocks(["a", "b"], ["a"], ["a", "b", "x"]))).toEqual(["a", "x"]);
    expect(apply(["x", "a", "b"], ["a", "b", "c"], mergeBlocks(["a", "b"], ["a", "b", "c"], ["x", "a", "b"]))).toEqual(["x", "a", "b", "c"]);
  });

  it("lets the stored edit win inside the blocks it changed", () => {
    const base = ["a", "b", "c"];
    const theirs = ["a", "B", "c"];
    const mine = ["a", "b live", "c"];
    expect(apply(mine, theirs, mergeBlocks(base, theirs, mine))).toEqual(["a", "B", "c"]);
  });

  it("replaces the whole live document when the blocks around the change are gone", () => {
    const base = ["a", "b", "c"];
    const theirs = ["a", "B", "c"];
    const mine = ["x", "y"];
    expect(mergeBlocks(base, theirs, mine)).toEqual({ from: 0, to: 2, start: 0, end: 3 });
  });
});
