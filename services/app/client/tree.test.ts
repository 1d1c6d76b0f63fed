// The tree's drag and drop and renaming in place are tested in Chromium (test/src/app-tree-browser.test.ts).
import { dropPosition } from "./tree";

describe("the page tree's drop position", () => {
  test("the top goes before, the bottom after, the middle third inside (when the page may hold others)", () => {
    expect(dropPosition(100, 30, 102, true)).toBe("before");
    expect(dropPosition(100, 30, 115, true)).toBe("inside");
    expect(dropPosition(100, 30, 128, true)).toBe("after");
    expect(dropPosition(100, 30, 114, false)).toBe("before");
    expect(dropPosition(100, 30, 116, false)).toBe("after");
  });
});
