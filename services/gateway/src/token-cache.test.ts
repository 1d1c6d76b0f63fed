// The gateway's token cache: bounded, expiring, and dropped on revocation.
import { TokenCache } from "./token-cache";

describe("TokenCache", () => {
  const caller = { id: "u1", instanceAdmin: false };

  test("a cached caller is returned until it expires", () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const cache = new TokenCache(500);
    cache.set("h", caller, cache.epoch());
    expect(cache.get("h")).toEqual(caller);
    now.mockReturnValue(1_499);
    expect(cache.get("h")).toEqual(caller);
    now.mockReturnValue(1_500);
    expect(cache.get("h")).toBeUndefined();
    now.mockRestore();
  });

  test("dropping a token hash forgets it at once", () => {
    const cache = new TokenCache(60_000);
    cache.set("h", caller, cache.epoch());
    cache.drop("h");
    expect(cache.get("h")).toBeUndefined();
  });

  test("a zero TTL disables caching", () => {
    const cache = new TokenCache(0);
    cache.set("h", caller, cache.epoch());
    expect(cache.get("h")).toBeUndefined();
  });

  test("clear forgets every token", () => {
    const cache = new TokenCache(60_000);
    cache.set("a", caller, cache.epoch());
    cache.set("b", caller, cache.epoch());
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeUndefined();
  });

  test("an answer asked for before a revocation is not kept: a drop or clear while the check is out wins", () => {
    const cache = new TokenCache(60_000);
    // The check of token "h" starts, then "h" is revoked, then the (stale) answer comes back.
    const began = cache.epoch();
    cache.drop("h");
    cache.set("h", caller, began);
    expect(cache.get("h")).toBeUndefined();
    // Same when every token is forgotten (a user changed) while the check is out.
    const again = cache.epoch();
    cache.clear();
    cache.set("h", caller, again);
    expect(cache.get("h")).toBeUndefined();
    // A check that starts after the revocation is kept as usual.
    cache.set("h", caller, cache.epoch());
    expect(cache.get("h")).toEqual(caller);
  });
});
