// Idempotency-Key parsing and the run-or-replay decision, on the in-memory store.
import { MemoryIdempotencyStore } from "./idempotency-store";
import { IdempotencyInProgressError, IdempotencyKeyReusedError, beginIdempotent, parseIdempotencyKey, scopedKey } from "./idempotency";

const answer = { status: 201, body: { id: "o1" }, headers: {} };
const options = { leaseMs: 10_000, waitMs: 1_000, pollMs: 5 };

describe("parseIdempotencyKey", () => {
  test("an absent header means no idempotency", () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  test("1 to 255 printable characters are a key", () => {
    expect(parseIdempotencyKey("a")).toBe("a");
    expect(parseIdempotencyKey("order 42:retry/1")).toBe("order 42:retry/1");
    expect(parseIdempotencyKey("k".repeat(255))).toHaveLength(255);
  });

  test("empty, too long or non-printable keys are 400", () => {
    for (const bad of ["", "k".repeat(256), "tab\there", "é", " padded "]) {
      expect(() => parseIdempotencyKey(bad)).toThrow(expect.objectContaining({ code: 400 }));
    }
  });
});

describe("scopedKey", () => {
  test("the same key of two callers is two records", () => {
    expect(scopedKey("tokenA", "k")).not.toBe(scopedKey("tokenB", "k"));
    expect(scopedKey("tokenA", "k")).toBe(scopedKey("tokenA", "k"));
  });
});

describe("beginIdempotent", () => {
  test("the first attempt runs and a retry after its answer replays it", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    expect(await beginIdempotent(store, "k", "f", options)).toEqual({ run: true });
    await store.complete("k", "f", answer);
    expect(await beginIdempotent(store, "k", "f", options)).toEqual({ run: false, answer });
  });

  test("the same key with another request is refused with 422", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    await beginIdempotent(store, "k", "f", options);
    await store.complete("k", "f", answer);
    await expect(beginIdempotent(store, "k", "other", options)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  });

  test("a concurrent retry waits for the first attempt's answer", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    await beginIdempotent(store, "k", "f", options);
    const waiting = beginIdempotent(store, "k", "f", options);
    await store.complete("k", "f", answer);
    expect(await waiting).toEqual({ run: false, answer });
  });

  test("a concurrent retry runs itself when the first attempt failed and released the key", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    await beginIdempotent(store, "k", "f", options);
    const waiting = beginIdempotent(store, "k", "f", options);
    await store.release("k");
    expect(await waiting).toEqual({ run: true });
  });

  test("a retry still waiting at the deadline gets 409", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    await beginIdempotent(store, "k", "f", options);
    await expect(beginIdempotent(store, "k", "f", { ...options, waitMs: 20 })).rejects.toBeInstanceOf(IdempotencyInProgressError);
  });

  test("a pending key whose lease ran out (its gateway died) is taken over", async () => {
    const store = new MemoryIdempotencyStore(60_000);
    await beginIdempotent(store, "k", "f", { ...options, leaseMs: -1 });
    expect(await beginIdempotent(store, "k", "f", options)).toEqual({ run: true });
  });

  test("records are forgotten after the TTL", async () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const store = new MemoryIdempotencyStore(500);
    await store.claim("k", "f", 2_000);
    await store.complete("k", "f", answer);
    now.mockReturnValue(1_500);
    expect(await store.claim("k", "other", 9_000)).toEqual({ claimed: true });
    now.mockRestore();
  });
});
