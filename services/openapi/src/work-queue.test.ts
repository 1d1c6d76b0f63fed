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
});
