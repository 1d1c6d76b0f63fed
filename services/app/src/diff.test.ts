import { WorkerBusyError, WorkerMemoryError, WorkerTimeoutError, type WorkerPool } from "@docshelf/worker-pool";
import { changedLines, compare, compareAll, compareAllTask, compareOffThread, DiffCache, lineDiff, PAGE_LIMITS, requestBudget, withContext, type DiffLine } from "./diff";

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

describe("compareOffThread", () => {
  const jobs = [
    { before: "a\nb\nc", after: "a\nB\nc" },
    { before: "x", after: "x\ny" },
  ];
  const poolThat = (run: (...args: unknown[]) => Promise<unknown>) => ({ run }) as unknown as WorkerPool;

  test("answers the worker's diffs and counts the budget it spent there", async () => {
    const budget = requestBudget();
    const pool = poolThat(async (_module, fn, args) => {
      expect(fn).toBe("compareAllTask");
      const [j, b, l] = args as Parameters<typeof compareAllTask>;
      // A copy crosses to the thread: the caller's budget object is not the one spent.
      return compareAllTask(j, { ...b! }, l);
    });
    const results = await compareOffThread(pool, jobs, budget, PAGE_LIMITS);
    expect(results.map((r) => r.diff)).toEqual(compareAll(jobs, requestBudget(), PAGE_LIMITS).map((r) => r.diff));
    expect(budget.pages).toBe(requestBudget().pages - 2);
  });

  test("past the worker's time limit, or out of memory, every page is too large to show and not kept", async () => {
    for (const err of [new WorkerTimeoutError(2000), new WorkerMemoryError(512)]) {
      const results = await compareOffThread(poolThat(() => Promise.reject(err)), jobs, requestBudget(), PAGE_LIMITS);
      expect(results).toEqual([
        { diff: { tooLarge: true }, deterministic: false },
        { diff: { tooLarge: true }, deterministic: false },
      ]);
    }
  });

  test("with no thread free in time, the diffs are computed here, within the same budget", async () => {
    const budget = requestBudget();
    const results = await compareOffThread(poolThat(() => Promise.reject(new WorkerBusyError(64))), jobs, budget, PAGE_LIMITS);
    expect(results.map((r) => r.diff)).toEqual(compareAll(jobs, requestBudget(), PAGE_LIMITS).map((r) => r.diff));
    expect(budget.pages).toBe(requestBudget().pages - 2);
  });

  test("a task's own failure is not hidden", async () => {
    await expect(compareOffThread(poolThat(() => Promise.reject(new TypeError("bug"))), jobs, requestBudget(), PAGE_LIMITS)).rejects.toThrow("bug");
  });

  test("no pages, no task", async () => {
    expect(await compareOffThread(poolThat(() => Promise.reject(new Error("not called"))), [], requestBudget(), PAGE_LIMITS)).toEqual([]);
  });
});
