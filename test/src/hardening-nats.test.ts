// The rate counter and idempotency stores' contract, on memory always and on NATS JetStream when it runs:
// two gateways (two store instances on two connections) never lose a count or both win a key. Over NATS
// each gateway counts locally and shares its counts at each flush (explicit here, or its timer's).
import { randomBytes } from "node:crypto";
import { connect } from "nats";
import { NATS_URL } from "@docshelf/testkit";
import { MemoryCounterStore, MemoryIdempotencyStore, bucketName, openNatsStores, type CounterStore, type IdempotencyStore } from "@docshelf/gateway";
import { MODES } from "./modes";

type Kind = "memory" | "nats";
const KINDS: Kind[] = MODES.includes("nats") ? ["memory", "nats"] : ["memory"];

interface Pair {
  /** Two views of one shared store, as two gateways would have. */
  counters: [CounterStore, CounterStore];
  records: [IdempotencyStore, IdempotencyStore];
  close(): Promise<void>;
}

async function openPair(kind: Kind): Promise<Pair> {
  if (kind === "memory") {
    // One process has one store: both "gateways" share it.
    const counters = new MemoryCounterStore();
    const records = new MemoryIdempotencyStore(60_000);
    return { counters: [counters, counters], records: [records, records], close: async () => undefined };
  }
  const namespace = `s${randomBytes(6).toString("hex")}`;
  const options = { connection: { servers: NATS_URL }, namespace, counterTtlMs: 120_000, idempotencyTtlMs: 60_000 };
  const a = await openNatsStores(options);
  const b = await openNatsStores(options);
  return {
    counters: [a.counters, b.counters],
    records: [a.idempotency, b.idempotency],
    async close() {
      // The test's buckets go with it; a gateway never deletes its own.
      const admin = await connect({ servers: NATS_URL });
      const jsm = await admin.jetstreamManager();
      for (const purpose of ["ratelimit", "idempotency"]) await jsm.streams.delete(`KV_${bucketName(purpose, namespace)}`).catch(() => false);
      await admin.close();
      await Promise.all([a.close(), b.close()]);
    },
  };
}

const answer = { status: 201, body: { id: "o1" }, headers: { Location: "http://x/o1" } };

describe.each(KINDS)("gateway stores on %s", (kind) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await openPair(kind);
  });
  afterAll(async () => {
    await pair?.close();
  });

  test("100 increments through two gateways are all counted: each gateway counts its own at once, and after flushing both count on from the shared 100", async () => {
    const key = `w1.${randomBytes(8).toString("hex")}`;
    const [a, b] = pair.counters;
    const seen: [number[], number[]] = [[], []];
    for (let i = 0; i < 100; i++) seen[i % 2].push(pair.counters[i % 2].increment(key, 120_000));
    // No request waits on the shared store: every count is answered at once and goes up one by one or more.
    for (const counts of seen) for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]);
    // Flushed concurrently (compare-and-swap on one key) and once more to read the other's counts back.
    await Promise.all([a.flush(), b.flush()]);
    await Promise.all([a.flush(), b.flush()]);
    expect(a.increment(key, 120_000)).toBe(101);
    await a.flush();
    await b.flush();
    expect(b.increment(key, 120_000)).toBe(102);
  });

  test("keys count apart, and a gateway's count includes the other's once both flushed", async () => {
    const [a, b] = pair.counters;
    const [one, two] = [`w1.${randomBytes(8).toString("hex")}`, `w1.${randomBytes(8).toString("hex")}`];
    a.increment(one, 120_000);
    await a.flush();
    b.increment(one, 120_000);
    await b.flush();
    expect(b.increment(one, 120_000)).toBe(3);
    expect(b.increment(two, 120_000)).toBe(1);
  });

  test("without explicit flushes a gateway sees the other's counts within a flush interval", async () => {
    const [a, b] = pair.counters;
    const key = `w1.${randomBytes(8).toString("hex")}`;
    let mine = 0;
    b.increment(key, 120_000);
    mine++;
    for (let i = 0; i < 5; i++) a.increment(key, 120_000);
    // Each look is a count of b's own; b knows a's five once its count is ahead of its own by five.
    const deadline = Date.now() + 10_000;
    let count = 0;
    while (Date.now() < deadline) {
      count = b.increment(key, 120_000);
      mine++;
      if (count === mine + 5) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(count).toBe(mine + 5);
  });

  test("of concurrent claims of one key through two gateways exactly one wins", async () => {
    const key = randomBytes(16).toString("hex");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => pair.records[i % 2].claim(key, "f", Date.now() + 60_000)));
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    for (const r of results) if (!r.claimed) expect(r.record).toMatchObject({ state: "pending", fingerprint: "f" });
  });

  test("a completed answer is seen from the other gateway", async () => {
    const key = randomBytes(16).toString("hex");
    expect(await pair.records[0].claim(key, "f", Date.now() + 60_000)).toEqual({ claimed: true });
    await pair.records[0].complete(key, "f", answer);
    expect(await pair.records[1].claim(key, "f", Date.now() + 60_000)).toEqual({ claimed: false, record: { state: "done", fingerprint: "f", answer } });
  });

  test("a released key can be claimed again from the other gateway", async () => {
    const key = randomBytes(16).toString("hex");
    await pair.records[0].claim(key, "f", Date.now() + 60_000);
    await pair.records[0].release(key);
    expect(await pair.records[1].claim(key, "f", Date.now() + 60_000)).toEqual({ claimed: true });
  });

  test("a pending key whose lease ran out is taken over by one gateway only", async () => {
    const key = randomBytes(16).toString("hex");
    await pair.records[0].claim(key, "f", Date.now() - 1);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pair.records[i % 2].claim(key, "f", Date.now() + 60_000)));
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
  });
});
