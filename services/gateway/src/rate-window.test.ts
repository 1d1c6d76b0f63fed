// Window arithmetic, the rate-limit headers and the in-memory counter store.
import { MemoryCounterStore } from "./counter-store";
import { decide, windowAt } from "./rate-window";

describe("windowAt", () => {
  test("moments in the same minute share a window that resets at the next minute, in epoch seconds", () => {
    const a = windowAt(120_000, 60_000);
    const b = windowAt(179_999, 60_000);
    expect(a).toEqual({ index: 2, resetAt: 180 });
    expect(b).toEqual(a);
    expect(windowAt(180_000, 60_000)).toEqual({ index: 3, resetAt: 240 });
  });
});

describe("decide", () => {
  const window = windowAt(120_000, 60_000);

  test("up to the limit requests pass and Remaining counts down to zero", () => {
    expect(decide(3, 1, window, 120_000)).toMatchObject({ allowed: true, headers: { "X-RateLimit-Limit": "3", "X-RateLimit-Remaining": "2", "X-RateLimit-Reset": "180" } });
    expect(decide(3, 3, window, 120_000)).toMatchObject({ allowed: true, headers: { "X-RateLimit-Remaining": "0" } });
  });

  test("past the limit the request is refused, Remaining stays zero and Retry-After is the time to the reset", () => {
    const d = decide(3, 4, window, 150_500);
    expect(d.allowed).toBe(false);
    expect(d.headers["X-RateLimit-Remaining"]).toBe("0");
    expect(d.retryAfter).toBe(30);
  });

  test("Retry-After is never below one second", () => {
    expect(decide(1, 2, window, 179_999).retryAfter).toBe(1);
  });
});

describe("MemoryCounterStore", () => {
  test("counts per key and starts again once the key expired", async () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const store = new MemoryCounterStore();
    expect(await store.increment("a", 100)).toBe(1);
    expect(await store.increment("a", 100)).toBe(2);
    expect(await store.increment("b", 100)).toBe(1);
    now.mockReturnValue(1_100);
    expect(await store.increment("a", 100)).toBe(1);
    now.mockRestore();
  });

  test("finished windows are swept so the map stays small", async () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const store = new MemoryCounterStore();
    for (let i = 0; i < 999; i++) await store.increment(`k${i}`, 10);
    now.mockReturnValue(2_000);
    await store.increment("late", 10);
    expect(store.size).toBe(1);
    now.mockRestore();
  });
});
