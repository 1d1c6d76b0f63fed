import { KeyedLimiter } from "@docshelf/worker-pool";
import { WorkQueue } from "./work-queue";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("WorkQueue", () => {
  test("an id queued twice while waiting runs once", async () => {
    const ran: string[] = [];
    const gate = deferred();
    const queue = new WorkQueue(async (id) => {
      if (id === "a") await gate.promise;
      ran.push(id);
    }, 1);
    queue.add("a");
    queue.add("b");
    queue.add("b");
    gate.resolve();
    await queue.idle();
    expect(ran).toEqual(["a", "b"]);
  });

  test("runs at most `concurrency` at once and reports failures without stopping", async () => {
    let running = 0;
    let peak = 0;
    const failed: string[] = [];
    const queue = new WorkQueue(
      async (id) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running--;
        if (id === "bad") throw new Error("boom");
      },
      2,
      (id) => failed.push(id),
    );
    for (const id of ["a", "bad", "c", "d"]) queue.add(id);
    await queue.idle();
    expect(peak).toBe(2);
    expect(failed).toEqual(["bad"]);
  });

  test("clear drops waiting ids but lets the running one finish", async () => {
    const ran: string[] = [];
    const gate = deferred();
    const queue = new WorkQueue(async (id) => {
      await gate.promise;
      ran.push(id);
    }, 1);
    queue.add("a");
    queue.add("b");
    queue.clear();
    gate.resolve();
    await queue.idle();
    expect(ran).toEqual(["a"]);
  });

  test("one organization's many ids never hold every slot: another organization's id starts as soon as a slot frees", async () => {
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const queue = new WorkQueue(
      async (id) => {
        started.push(id);
        const gate = deferred();
        gates.set(id, gate);
        await gate.promise;
      },
      2,
      undefined,
      new KeyedLimiter(1),
    );
    for (let i = 0; i < 20; i++) queue.add(`a${i}`, "org-a");
    queue.add("b0", "org-b");
    // One slot to org A (its limit), the other to org B at once, although 19 of A's ids were queued first.
    expect(started).toEqual(["a0", "b0"]);
    gates.get("b0")!.resolve();
    await new Promise((r) => setImmediate(r));
    // B's slot freed and only A's ids wait: A stays at its limit, one at a time.
    expect(started).toEqual(["a0", "b0"]);
    queue.add("b1", "org-b");
    expect(started).toEqual(["a0", "b0", "b1"]);
    for (let i = 0; i < 20; i++) {
      gates.get(`a${i}`)!.resolve();
      gates.get("b1")?.resolve();
      await new Promise((r) => setImmediate(r));
    }
    await queue.idle();
    expect(started.filter((id) => id.startsWith("a"))).toEqual(Array.from({ length: 20 }, (_, i) => `a${i}`));
  });

  test("ids without an organization share one key", async () => {
    let running = 0;
    let peak = 0;
    const queue = new WorkQueue(
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running--;
      },
      2,
      undefined,
      new KeyedLimiter(1),
    );
    for (const id of ["a", "b", "c"]) queue.add(id);
    await queue.idle();
    expect(peak).toBe(1);
  });
});
