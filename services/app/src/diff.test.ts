import { changedLines, compare, DiffCache, lineDiff, PAGE_LIMITS, requestBudget, withContext, type DiffLine } from "./diff";

const numbered = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

test("a line diff keeps common lines and marks removed and added ones in order", () => {
  expect(lineDiff("a\nb\nc", "a\nx\nc\nd")).toEqual([
    { kind: "same", text: "a" },
    { kind: "removed", text: "b" },
    { kind: "added", text: "x" },
    { kind: "same", text: "c" },
    { kind: "added", text: "d" },
  ]);
  expect(lineDiff("same", "same")).toEqual([{ kind: "same", text: "same" }]);
});

test("changed lines count removed plus added lines, repeated lines as often as they occur", () => {
  expect(changedLines(["a", "b", "b"], ["b", "c"])).toBe(3);
  expect(changedLines(["a", "b"], ["b", "a"])).toBe(0);
});

describe("bounds", () => {
  test("a side over maxLines, or more changed lines than maxEdits, is too large with the count", () => {
    expect(lineDiff("x\n".repeat(6000), "y")).toEqual({ tooLarge: true, changed: 6002 });
    const a = numbered(1000);
    const b = a.map((l, i) => (i % 4 === 0 ? `${l} changed` : l));
    expect(compare(a.join("\n"), b.join("\n"), undefined, PAGE_LIMITS)).toEqual({ diff: { tooLarge: true, changed: 500 }, deterministic: true });
  });

  test("lines moved around (no line added or removed) stop at maxEditLength: too large, not deterministic", () => {
    const a = numbered(2000);
    const started = performance.now();
    const out = compare(a.join("\n"), [...a].reverse().join("\n"), undefined, PAGE_LIMITS);
    expect(out).toEqual({ diff: { tooLarge: true, changed: 0 }, deterministic: false });
    // Today's table took seconds on this shape; a bound that it clearly fails.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("a 2,000-line page with a few changes is diffed exactly", () => {
    const a = numbered(2000);
    const b = [...a];
    b[10] = "changed 10";
    b.splice(1500, 0, "inserted");
    const diff = lineDiff(a.join("\n"), b.join("\n")) as DiffLine[];
    expect(diff.filter((l) => l.kind !== "same")).toEqual([
      { kind: "removed", text: "line 10" },
      { kind: "added", text: "changed 10" },
      { kind: "added", text: "inserted" },
    ]);
    expect(diff.filter((l) => l.kind !== "added").map((l) => l.text)).toEqual(a);
  });

  test("a request's budget: pages and lines counted; over it, too large and not deterministic", () => {
    const budget = { ...requestBudget(), pages: 1 };
    expect(Array.isArray(compare("a", "b", budget, PAGE_LIMITS).diff)).toBe(true);
    expect(budget.pages).toBe(0);
    expect(compare("a", "b", budget, PAGE_LIMITS)).toEqual({ diff: { tooLarge: true, changed: 2 }, deterministic: false });
    const lines = { ...requestBudget(), lines: 3 };
    expect(compare("a\nb", "a\nc", lines, PAGE_LIMITS).deterministic).toBe(false);
    // Identical texts cost nothing.
    expect(compare("a\nb", "a\nb", { pages: 0, lines: 0, ms: 0 }, PAGE_LIMITS)).toEqual({
      diff: [
        { kind: "same", text: "a" },
        { kind: "same", text: "b" },
      ],
      deterministic: true,
    });
  });
});

test("withContext keeps three lines around each change and folds longer unchanged runs", () => {
  const same = (t: string): DiffLine => ({ kind: "same", text: t });
  const diff: DiffLine[] = [...numbered(10, "a").map(same), { kind: "added", text: "new" }, ...numbered(10, "b").map(same)];
  expect(withContext(diff)).toEqual([
    { kind: "skipped", count: 7 },
    same("a 7"),
    same("a 8"),
    same("a 9"),
    { kind: "added", text: "new" },
    same("b 0"),
    same("b 1"),
    same("b 2"),
    { kind: "skipped", count: 7 },
  ]);
});

test("the diff cache drops the least recently used entries past its entry and line limits", () => {
  const cache = new DiffCache(2, 5);
  cache.set("a", [{ kind: "same", text: "1" }]);
  cache.set("b", { tooLarge: true, changed: 9 });
  expect(cache.get("a")).toBeDefined();
  cache.set("c", [{ kind: "same", text: "2" }]);
  expect(cache.get("b")).toBeUndefined();
  expect(cache.size).toBe(2);
  cache.set("d", Array.from({ length: 5 }, () => ({ kind: "same" as const, text: "x" })));
  expect(cache.get("d")).toBeDefined();
  expect(cache.get("a")).toBeUndefined();
  expect(cache.get("c")).toBeUndefined();
  cache.set("e", Array.from({ length: 6 }, () => ({ kind: "same" as const, text: "x" })));
  expect(cache.get("e")).toBeUndefined();
});
