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
  test("requests during a run make exactly one more run, and all resolve after it", async () => {
    const { sync, nextRun, pending } = controlledSync();
    const counts = new CountSync(sync, () => {});
    let settled = 0;
    const first = counts.request("a").then(() => settled++);
    const run1 = await nextRun();
    const second = counts.request("a").then(() => settled++);
    const third = counts.request("a").then(() => settled++);
    run1.finish();
    const run2 = await nextRun();
    expect(settled).toBe(0);
    run2.finish();
    await Promise.all([first, second, third]);
    expect(settled).toBe(3);
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
