import { CountSync, type PendingMark, type PendingMarks } from "./index";

/** A sync whose runs finish only when the test says so. */
function controlledSync() {
  const runs: Array<{ key: string; finish: () => void }> = [];
  const sync = (key: string) => new Promise<void>((resolve) => runs.push({ key, finish: resolve }));
  const nextRun = async () => {
    for (let i = 0; i < 100 && runs.length === 0; i++) await Promise.resolve();
    // A count after a write starts from a timer (its delay).
    for (let i = 0; i < 50 && runs.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
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

/** Marks in memory, in id order, with the writes made on them in order (an ordered store as SQLite is). */
function memoryMarks() {
  const kept = new Map<string, PendingMark>();
  const log: string[] = [];
  const marks: PendingMarks = {
    async insert(mark) {
      log.push(`mark ${mark.id}`);
      kept.set(mark.id, mark);
    },
    async find(_filter, options) {
      const after = options.after?.id;
      return [...kept.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).filter((m) => after === undefined || m.id > after).slice(0, options.limit);
    },
    async deleteOne({ id }) {
      log.push(`unmark ${id}`);
      return kept.delete(id);
    },
  };
  let n = 0;
  const newId = () => `m${String(++n).padStart(4, "0")}`;
  return { marks, kept, log, newId };
}

describe("CountSync with durable marks", () => {
  test("a write is answered before its count is sent; its mark is made first and deleted once the count went out", async () => {
    const { sync, nextRun } = controlledSync();
    const { marks, kept, log, newId } = memoryMarks();
    const counts = new CountSync(sync, () => {}, { marks, inOrder: true, newId });
    const result = await counts.afterWrite("a", async () => {
      log.push("write");
      return 42;
    });
    expect(result).toBe(42);
    expect(log).toEqual(["mark m0001", "write"]);
    // Answered: the count's run has not finished, and the mark is still there.
    const run = await nextRun();
    expect(run.key).toBe("a");
    expect([...kept.keys()]).toEqual(["m0001"]);
    run.finish();
    await counts.idle();
    expect(kept.size).toBe(0);
    expect(log).toEqual(["mark m0001", "write", "unmark m0001"]);
  });

  test("writes within the delay share one count sent and, once it is durable, one mark; marks sent are deleted with the next write", async () => {
    const { marks, kept, log, newId } = memoryMarks();
    const sent: string[] = [];
    const counts = new CountSync(async (key) => void sent.push(key), () => {}, { marks, inOrder: true, newId, delayMs: 50 });
    const write = (n: number) => counts.afterWrite("a", async () => void log.push(`write ${n}`));
    await write(1);
    await write(2);
    await Promise.all([write(3), write(4)]);
    expect(sent).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(sent).toEqual(["a"]);
    expect(log).toEqual(["mark m0001", "write 1", "write 2", "write 3", "write 4"]);
    // The sent mark is deleted with the next write (before it: in its commit on an ordered store) ...
    await write(5);
    expect(log.slice(5)).toEqual(["unmark m0001", "mark m0002", "write 5"]);
    // ... or by itself when no write comes.
    await counts.idle();
    expect(sent).toEqual(["a", "a"]);
    expect(kept.size).toBe(0);
  });

  test("when the store does not keep writes in order, the mark is acknowledged before the write is made", async () => {
    const { marks, log, newId } = memoryMarks();
    let markDone!: () => void;
    const slowMarks: PendingMarks = { ...marks, insert: (mark) => new Promise((resolve) => (markDone = () => resolve(marks.insert(mark)))) };
    const counts = new CountSync(async () => {}, () => {}, { marks: slowMarks, inOrder: false, newId });
    const written = counts.afterWrite("a", async () => void log.push("write"));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(log).toEqual([]);
    markDone();
    await written;
    expect(log.slice(0, 2)).toEqual(["mark m0001", "write"]);
  });

  test("a count that fails keeps its marks, which go with the next count sent", async () => {
    const { marks, kept, newId } = memoryMarks();
    let down = true;
    const errors: unknown[] = [];
    const counts = new CountSync(async () => (down ? Promise.reject(new Error("down")) : undefined), (_key, err) => errors.push(err), { marks, inOrder: true, newId });
    await counts.afterWrite("a", async () => 1);
    await counts.idle();
    expect(errors).toHaveLength(1);
    expect([...kept.keys()]).toEqual(["m0001"]);
    down = false;
    await counts.afterWrite("a", async () => 2);
    await counts.idle();
    expect(kept.size).toBe(0);
  });

  test("a refused write sends the count once (its mark goes with it) and rethrows", async () => {
    const { marks, kept, newId } = memoryMarks();
    const sent: string[] = [];
    const counts = new CountSync(async (key) => void sent.push(key), () => {}, { marks, inOrder: true, newId });
    await expect(counts.afterWrite("a", async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await counts.idle();
    expect(sent).toEqual(["a"]);
    expect(kept.size).toBe(0);
  });

  test("a refused mark makes the write wait for its count, as without marks", async () => {
    const { sync, nextRun } = controlledSync();
    const { marks, newId } = memoryMarks();
    const errors: unknown[] = [];
    const counts = new CountSync(sync, (_key, err) => errors.push(err), { marks: { ...marks, insert: async () => Promise.reject(new Error("disk")) }, inOrder: true, newId });
    let answered = false;
    const written = counts.afterWrite("a", async () => 7).then((r) => ((answered = true), r));
    const run = await nextRun();
    expect(answered).toBe(false);
    run.finish();
    expect(await written).toBe(7);
    expect(errors).toHaveLength(1);
  });

  test("resume sends the count of every key with marks left (by a process killed before sending them), page after page", async () => {
    const { marks, kept, newId } = memoryMarks();
    for (let i = 0; i < 1200; i++) await marks.insert({ id: newId(), key: `k${i % 700}` });
    const sent: string[] = [];
    const counts = new CountSync(async (key) => void sent.push(key), () => {}, { marks, inOrder: true, newId });
    expect(await counts.resume()).toBeGreaterThanOrEqual(700);
    await counts.idle();
    expect(new Set(sent).size).toBe(700);
    expect(kept.size).toBe(0);
  });

  test("resume keeps the marks of a key whose count fails", async () => {
    const { marks, kept, newId } = memoryMarks();
    await marks.insert({ id: newId(), key: "gone" });
    await marks.insert({ id: newId(), key: "ok" });
    const counts = new CountSync(async (key) => (key === "gone" ? Promise.reject(new Error("down")) : undefined), () => {}, { marks, inOrder: true, newId });
    await counts.resume();
    await counts.idle();
    expect([...kept.values()].map((m) => m.key)).toEqual(["gone"]);
  });
});
