// The rate limiter over the in-memory store.
import { MemoryCounterStore } from "./counter-store";
import { RateLimiter } from "./rate-limiter";

describe("RateLimiter", () => {
  const t0 = 1_700_000_080_000; // 40 s into a minute

  test("a user gets their own limit and a fresh count in the next window", async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 2, perAddress: 1 });
    const user = { kind: "user", userId: "h1" } as const;
    expect((await limiter.hit(user, t0))?.allowed).toBe(true);
    expect((await limiter.hit(user, t0))?.allowed).toBe(true);
    const third = await limiter.hit(user, t0);
    expect(third).toMatchObject({ allowed: false, retryAfter: 20, headers: { "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "0" } });
    expect((await limiter.hit(user, t0 + 20_000))?.allowed).toBe(true);
  });

  test("users and addresses are counted apart", async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 1, perAddress: 1 });
    expect((await limiter.hit({ kind: "user", userId: "h1" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "user", userId: "h2" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "address", address: "::1" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "address", address: "::1" }, t0))?.allowed).toBe(false);
  });

  test("readers of published sites are counted apart from API callers of the same address, and not at all without a limit", async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 1, perAddress: 1, perReader: 2 });
    expect((await limiter.hit({ kind: "address", address: "::1" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "reader", address: "::1" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "reader", address: "::1" }, t0))?.allowed).toBe(true);
    expect((await limiter.hit({ kind: "reader", address: "::1" }, t0))?.allowed).toBe(false);
    const unlimited = new RateLimiter(new MemoryCounterStore(), { perUser: 1, perAddress: 1 });
    expect(unlimited.hit({ kind: "reader", address: "::1" }, t0)).toBeNull();
  });

  test("a user id is the key as it is (no hash); an address, or an id that is not plain, is hashed into a key-safe name", async () => {
    const keys: string[] = [];
    const store = new MemoryCounterStore();
    const increment = store.increment.bind(store);
    store.increment = (key, ttlMs) => (keys.push(key), increment(key, ttlMs));
    const limiter = new RateLimiter(store, { perUser: 5, perAddress: 5 });
    const userId = "0AbCdEfGhIjKlMnOpQrS";
    await limiter.hit({ kind: "user", userId }, t0);
    await limiter.hit({ kind: "address", address: "2001:db8::1" }, t0);
    await limiter.hit({ kind: "user", userId: "not plain:1" }, t0);
    expect(keys[0]).toBe(`w${Math.floor(t0 / 60_000)}.u${userId}`);
    expect(keys[1]).toMatch(/^w\d+\.[0-9a-f]{40}$/);
    expect(keys[2]).toMatch(/^w\d+\.[0-9a-f]{40}$/);
  });

  test("a clock that steps back counts in its own window, and the current window's counts go on", () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 2, perAddress: 1 });
    const user = { kind: "user", userId: "cd".repeat(32) } as const;
    expect(limiter.hit(user, t0)?.headers["X-RateLimit-Remaining"]).toBe("1");
    expect(limiter.hit(user, t0 + 60_000)?.headers["X-RateLimit-Remaining"]).toBe("1");
    // Back in the first window: its count, not the second's.
    const late = limiter.hit(user, t0);
    expect(late).toMatchObject({ allowed: true, headers: { "X-RateLimit-Remaining": "0" } });
    expect(late?.headers["X-RateLimit-Reset"]).toBe(String(Math.ceil((Math.floor(t0 / 60_000) + 1) * 60)));
    expect(limiter.hit(user, t0)?.allowed).toBe(false);
    // And the second window's count went on where it was.
    expect(limiter.hit(user, t0 + 60_000)?.headers["X-RateLimit-Remaining"]).toBe("0");
    expect(limiter.hit(user, t0 + 60_000)?.allowed).toBe(false);
  });

  test("counts survive the limiter forgetting the keys it built (more subjects than it keeps)", () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 2, perAddress: 2 });
    const first = { kind: "address", address: "10.0.0.1" } as const;
    expect(limiter.hit(first, t0)?.allowed).toBe(true);
    for (let i = 0; i < 10_050; i++) limiter.hit({ kind: "user", userId: i.toString(16).padStart(64, "0") }, t0);
    expect(limiter.hit(first, t0)?.allowed).toBe(true);
    expect(limiter.hit(first, t0)?.allowed).toBe(false);
  });

  test("a user is never counted with an address, whatever their id looks like", () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 1, perAddress: 1 });
    expect(limiter.hit({ kind: "address", address: "10.0.0.2" }, t0)?.allowed).toBe(true);
    expect(limiter.hit({ kind: "user", userId: "address:10.0.0.2" }, t0)?.allowed).toBe(true);
    expect(limiter.hit({ kind: "user", userId: "address:10.0.0.2" }, t0)?.allowed).toBe(false);
  });

  test("a limit of 0 disables counting for that kind", async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(), { perUser: 0, perAddress: 5 });
    expect(await limiter.hit({ kind: "user", userId: "h1" }, t0)).toBeNull();
    expect(await limiter.hit({ kind: "address", address: "1.2.3.4" }, t0)).not.toBeNull();
  });
});
