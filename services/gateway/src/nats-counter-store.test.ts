// The shared counter store's local counting and flushing, over an in-memory stand-in for a JetStream KV
// bucket that keeps JetStream's compare-and-swap rules (create fails on a live key, update needs the revision).
import type { KV, KvEntry } from "nats";
import { NatsCounterStore } from "./nats-stores";

class FakeKv {
  readonly values = new Map<string, { value: Uint8Array; revision: number }>();
  private revision = 0;
  gets = 0;
  failing = false;
  /** While set, writes wait for it. */
  gate: Promise<void> | undefined;
  writing = 0;

  private casError(): Error {
    return Object.assign(new Error("wrong last sequence"), { api_error: { err_code: 10071 } });
  }

  async get(key: string): Promise<KvEntry | null> {
    this.gets++;
    if (this.failing) throw new Error("bucket unreachable");
    const found = this.values.get(key);
    return found ? ({ key, value: found.value, revision: found.revision, operation: "PUT" } as unknown as KvEntry) : null;
  }

  async create(key: string, value: Uint8Array): Promise<number> {
    this.writing++;
    await this.gate;
    if (this.values.has(key)) throw this.casError();
    this.values.set(key, { value, revision: ++this.revision });
    return this.revision;
  }

  async update(key: string, value: Uint8Array, revision: number): Promise<number> {
    if (this.values.get(key)?.revision !== revision) throw this.casError();
    this.values.set(key, { value, revision: ++this.revision });
    return this.revision;
  }

  shared(key: string): number {
    const found = this.values.get(key);
    return found ? Number(new TextDecoder().decode(found.value)) : 0;
  }
}

/** Two gateways' stores on one bucket; the timer is long so that only explicit flushes run. */
function gateways(kv = new FakeKv()): [NatsCounterStore, NatsCounterStore, FakeKv] {
  const options = { flushMs: 60_000 };
  return [new NatsCounterStore(kv as unknown as KV, options), new NatsCounterStore(kv as unknown as KV, options), kv];
}

describe("NatsCounterStore", () => {
  test("counts locally at once and exactly, with no bucket round trip per count", () => {
    const [a, , kv] = gateways();
    expect([a.increment("k", 120_000), a.increment("k", 120_000), a.increment("other", 120_000)]).toEqual([1, 2, 1]);
    expect(kv.gets).toBe(0);
    expect(kv.values.size).toBe(0);
  });

  test("a flush adds this gateway's new counts to the shared total, and each gateway then counts on from the total", async () => {
    const [a, b, kv] = gateways();
    for (let i = 0; i < 3; i++) a.increment("k", 120_000);
    for (let i = 0; i < 5; i++) b.increment("k", 120_000);
    await Promise.all([a.flush(), b.flush()]);
    expect(kv.shared("k")).toBe(8);
    // The gateway that flushed first has not yet read the other's counts; the next flush reads them back.
    await Promise.all([a.flush(), b.flush()]);
    expect(a.increment("k", 120_000)).toBe(9);
    // Until the next flush neither sees the other's newest counts: the bounded overshoot.
    expect(b.increment("k", 120_000)).toBe(9);
    await Promise.all([a.flush(), b.flush()]);
    await Promise.all([a.flush(), b.flush()]);
    expect(a.increment("k", 120_000)).toBe(11);
  });

  test("concurrent flushes of one key from two gateways lose no count", async () => {
    const [a, b, kv] = gateways();
    for (let round = 0; round < 20; round++) {
      a.increment("k", 120_000);
      b.increment("k", 120_000);
      b.increment("k", 120_000);
      await Promise.all([a.flush(), b.flush(), a.flush()]);
    }
    expect(kv.shared("k")).toBe(60);
  });

  test("counts made while a flush is under way are kept for the next flush", async () => {
    const [a, , kv] = gateways();
    let open = () => undefined as void;
    kv.gate = new Promise<void>((resolve) => (open = resolve));
    a.increment("k", 120_000);
    const flushing = a.flush();
    const deadline = Date.now() + 5_000;
    while (kv.writing === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(a.increment("k", 120_000)).toBe(2);
    open();
    await flushing;
    expect(kv.shared("k")).toBe(1);
    expect(a.increment("k", 120_000)).toBe(3);
    await a.flush();
    expect(kv.shared("k")).toBe(3);
  });

  test("when the bucket cannot be reached the flush fails but keeps the counts, and the next one sends them", async () => {
    const [a, , kv] = gateways();
    a.increment("k", 120_000);
    a.increment("k", 120_000);
    kv.failing = true;
    await expect(a.flush()).rejects.toThrow("bucket unreachable");
    expect(a.increment("k", 120_000)).toBe(3);
    kv.failing = false;
    await a.flush();
    expect(kv.shared("k")).toBe(3);
  });

  test("the timer flushes by itself", async () => {
    const kv = new FakeKv();
    const a = new NatsCounterStore(kv as unknown as KV, { flushMs: 10 });
    a.increment("k", 120_000);
    const deadline = Date.now() + 5_000;
    while (kv.shared("k") !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(kv.shared("k")).toBe(1);
    await a.close();
  });

  test("closing sends the counts not yet flushed", async () => {
    const [a, , kv] = gateways();
    a.increment("k", 120_000);
    a.increment("k", 120_000);
    await a.close();
    expect(kv.shared("k")).toBe(2);
  });

  test("a finished window's count starts again from zero", () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const [a] = gateways();
    a.increment("k", 100);
    now.mockReturnValue(1_100);
    expect(a.increment("k", 100)).toBe(1);
    now.mockRestore();
  });
});
