import { CountSync } from "./index";

/** A sync whose runs finish only when the test says so. */
function controlledSync() {
  const runs: Array<{ key: string; finish: () => void }> = [];
  const sync = (key: string) => new Promise<void>((resolve) => runs.push({ key, finish: resolve }));
  const nextRun = async () => {
    for (let i = 0; i < 100 && runs.length === 0; i++) await Promise.resolve();
    return runs.shift()!;
  };
  return { sync, nextRun, pending: () => runs.length };
}

describe("CountSync", () => {
  test("requests during a run make exactly one more run, and resolve after it", async () => {
    const { sync, nextRun, pending } = controlledSync();
    const counts = new CountSync(sync, () => {});
    const settled: string[] = [];
    const first = counts.request("a").then(() => settled.push("first"));
    const run1 = await nextRun();
    const second = counts.request("a").then(() => settled.push("second"));
    const third = counts.request("a").then(() => settled.push("third"));
    run1.finish();
    const run2 = await nextRun();
    expect(settled).toEqual(["first"]);
    run2.finish();
    await Promise.all([first, second, third]);
    expect(settled).toEqual(["first", "second", "third"]);
    expect(pending()).toBe(0);
  });

  test("a request waits for at most the run under way and one more, however many requests follow it", async () => {
    const { sync, nextRun, pending } = controlledSync();
    const counts = new CountSync(sync, () => {});
    const settled: string[] = [];
    void counts.request("a");
    const run1 = await nextRun();
    const waiting = counts.request("a").then(() => settled.push("during run 1"));
    run1.finish();
    const run2 = await nextRun();
    // Requests keep arriving while run 2 is under way: they take run 3; the one of run 1's time does not wait for it.
    const later = counts.request("a").then(() => settled.push("during run 2"));
    run2.finish();
    await waiting;
    expect(settled).toEqual(["during run 1"]);
    const run3 = await nextRun();
    run3.finish();
    await later;
    expect(settled).toEqual(["during run 1", "during run 2"]);
    expect(pending()).toBe(0);
  });

  test("threads sync independently", async () => {
    const { sync, nextRun } = controlledSync();
    const counts = new CountSync(sync, () => {});
    const a = counts.request("a");
    const b = counts.request("b");
    const runs = [await nextRun(), await nextRun()];
    expect(runs.map((r) => r.key).sort()).toEqual(["a", "b"]);
    runs.forEach((r) => r.finish());
    await Promise.all([a, b]);
  });

  test("a failed run is reported and the request still resolves", async () => {
    const errors: unknown[] = [];
    const counts = new CountSync(async () => Promise.reject(new Error("down")), (_key, err) => errors.push(err));
    await counts.request("a");
    expect(errors).toHaveLength(1);
  });
});
