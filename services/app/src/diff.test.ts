import { lineDiff } from "./diff";

test("a line diff keeps common lines and marks removed and added ones in order", () => {
  expect(lineDiff("a\nb\nc", "a\nx\nc\nd")).toEqual([
    { kind: "same", text: "a" },
    { kind: "removed", text: "b" },
    { kind: "added", text: "x" },
    { kind: "same", text: "c" },
    { kind: "added", text: "d" },
  ]);
  expect(lineDiff("same", "same")).toEqual([{ kind: "same", text: "same" }]);
  expect(lineDiff("x\n".repeat(3000), "y")).toBeNull();
});
