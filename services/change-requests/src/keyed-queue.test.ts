import { KeyedQueue } from "./keyed-queue";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("KeyedQueue", () => {
  test("work on one key runs one at a time in arrival order, whether earlier work succeeded or failed", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    const work = (name: string, fail = false) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      if (fail) throw new Error(name);
      return name;
    };
    const answers = await Promise.allSettled([queue.run("s", work("a")), queue.run("s", work("b", true)), queue.run("s", work("c"))]);
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    await tick();
    expect(queue.size).toBe(0);
  });

  test("different keys run alongside each other", async () => {
    const queue = new KeyedQueue();
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    await Promise.all([queue.run("a", work), queue.run("b", work), queue.run("c", work)]);
    expect(most).toBe(3);
  });
});
