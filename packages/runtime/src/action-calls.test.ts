import { Errors, type Context } from "moleculer";
import { fakeBroker as broker } from "./__tests__/fake-broker";
import { DeadlineWheel, DEADLINE_TICK_MS, type Pending } from "./deadline";

const slowService = {
  name: "slow",
  actions: {
    wait: {
      params: { ms: "number" },
      handler(ctx: Context<{ ms: number }>) {
        return new Promise((resolve) => setTimeout(() => resolve({ waited: ctx.params.ms }), ctx.params.ms));
      },
    },
    fail: {
      handler() {
        throw new Errors.MoleculerError("broken", 500, "BROKEN");
      },
    },
    failWithFallback: {
      fallback: "spare",
      handler() {
        throw new Errors.MoleculerError("broken", 500, "BROKEN");
      },
    },
    nested: {
      async handler(ctx: Context<{ ms: number }>) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return ctx.call("slow.wait", { ms: ctx.params.ms });
      },
    },
  },
  methods: {
    spare() {
      return { spare: true };
    },
  },
};

describe("action calls: timeouts, fallbacks, failures", () => {
  let ns = 0;
  const namespace = () => `calls-${process.pid}-${Date.now()}-${ns++}`;

  test("a local call answered in time resolves; one past its timeout rejects with RequestTimeoutError near the deadline", async () => {
    const b = broker("one", namespace(), { TRANSPORTER: "" });
    b.createService(slowService);
    await b.start();
    try {
      await expect(b.call("slow.wait", { ms: 10 }, { timeout: 500 })).resolves.toEqual({ waited: 10 });
      const started = Date.now();
      const err = await b.call("slow.wait", { ms: 2000 }, { timeout: 200 }).catch((e: unknown) => e);
      const took = Date.now() - started;
      expect(err).toBeInstanceOf(Errors.RequestTimeoutError);
      expect(err).toMatchObject({ code: 504 });
      expect(took).toBeGreaterThanOrEqual(195);
      expect(took).toBeLessThan(200 + 10 * DEADLINE_TICK_MS);
      // The broker's requestTimeout applies when the call names none; 0 means no timeout at all.
      await expect(b.call("slow.wait", { ms: 1300 })).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
      await expect(b.call("slow.wait", { ms: 1300 }, { timeout: 0 })).resolves.toEqual({ waited: 1300 });
    } finally {
      await b.stop();
    }
  });

  test("a remote call over the transporter times out on the caller's side, and a nested call gets only what is left", async () => {
    const ns1 = namespace();
    const caller = broker("caller", ns1);
    const callee = broker("callee", ns1);
    callee.createService(slowService);
    await Promise.all([caller.start(), callee.start()]);
    try {
      await caller.waitForServices(["slow"], 5000);
      await expect(caller.call("slow.wait", { ms: 5 }, { timeout: 500 })).resolves.toEqual({ waited: 5 });
      await expect(caller.call("slow.wait", { ms: 2000 }, { timeout: 200 })).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
      // nested waits 150 ms and then calls wait(300): with 400 ms in all, the inner call has ~250 ms and times out.
      const started = Date.now();
      await expect(caller.call("slow.nested", { ms: 300 }, { timeout: 400 })).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
      expect(Date.now() - started).toBeLessThan(400 + 10 * DEADLINE_TICK_MS);
    } finally {
      await Promise.all([caller.stop(), callee.stop()]);
    }
  }, 20_000);

  test("failures reach the caller unchanged unless a fallback answers: the call's fallbackResponse or the action's own", async () => {
    const b = broker("one", namespace(), { TRANSPORTER: "" });
    b.createService(slowService);
    await b.start();
    try {
      await expect(b.call("slow.fail")).rejects.toMatchObject({ code: 500, type: "BROKEN" });
      await expect(b.call("slow.fail", {}, { fallbackResponse: { instead: 1 } })).resolves.toEqual({ instead: 1 });
      await expect(b.call("slow.fail", {}, { fallbackResponse: (_ctx: Context, err: Error) => ({ saw: err.message }) })).resolves.toEqual({ saw: "broken" });
      await expect(b.call("slow.failWithFallback")).resolves.toEqual({ spare: true });
      // A validation error is the caller's: it passes through as it is.
      await expect(b.call("slow.wait", { ms: "soon" })).rejects.toBeInstanceOf(Errors.ValidationError);
    } finally {
      await b.stop();
    }
  }, 20_000);
});

describe("DeadlineWheel", () => {
  const pending = (log: string[], name: string, level = 1): Pending => ({ ctx: { level } as Context, expire: () => log.push(name) });

  test("of calls due in the same sweep, the most deeply nested expire first and their callers a turn later", async () => {
    const log: string[] = [];
    const wheel = new DeadlineWheel(10);
    wheel.add(pending(log, "outer", 1), 1_000);
    wheel.add(pending(log, "middle", 2), 1_000);
    wheel.add(pending(log, "inner", 3), 1_000);
    wheel.sweep(1_000);
    expect(log).toEqual(["inner"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["inner", "middle"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["inner", "middle", "outer"]);
    wheel.stop();
  });

  test("an action that answers a nested call's timeout itself still answers when both share one deadline", async () => {
    const b = broker("one", `calls-${process.pid}-${Date.now()}-nest`, { TRANSPORTER: "" });
    b.createService({
      name: "probe",
      actions: {
        // Answers long after the deadline (and before the broker's graceful stop gives up on it).
        hang: { handler: () => new Promise((resolve) => setTimeout(resolve, 1_500)) },
        ready: {
          async handler(ctx: Context) {
            // As the gateway's /ready does: a nested call with the caller's own timeout, its failure an answer.
            const answered = await ctx.call("probe.hang", {}, { timeout: 300 }).then(() => true, () => false);
            return { answered };
          },
        },
      },
    });
    await b.start();
    try {
      await expect(b.call("probe.ready", {}, { timeout: 300 })).resolves.toEqual({ answered: false });
    } finally {
      await b.stop();
    }
  });

  test("expires each call at the first sweep at or after its deadline, never before, and stops its timer when empty", () => {
    const log: string[] = [];
    const wheel = new DeadlineWheel(10);
    wheel.add(pending(log, "a"), 1_000);
    wheel.add(pending(log, "b"), 1_005);
    const c = pending(log, "c");
    wheel.add(c, 1_005).delete(c);
    wheel.sweep(999);
    expect(log).toEqual([]);
    wheel.sweep(1_000);
    expect(log).toEqual(["a"]);
    wheel.sweep(1_009);
    expect(log).toEqual(["a"]);
    wheel.sweep(1_010);
    expect(log).toEqual(["a", "b"]);
    expect(wheel.size).toBe(0);
    wheel.stop();
  });
});
