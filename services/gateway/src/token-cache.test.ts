// The gateway's token cache: bounded, expiring, and dropped on revocation.
import { TokenCache } from "./token-cache";

describe("TokenCache", () => {
  const caller = { id: "u1", instanceAdmin: false };

  test("a cached caller is returned until it expires", () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000);
    const cache = new TokenCache(500);
    cache.set("h", caller);
    expect(cache.get("h")).toEqual(caller);
    now.mockReturnValue(1_499);
    expect(cache.get("h")).toEqual(caller);
    now.mockReturnValue(1_500);
    expect(cache.get("h")).toBeUndefined();
    now.mockRestore();
  });

  test("dropping a token hash forgets it at once", () => {
    const cache = new TokenCache(60_000);
    cache.set("h", caller);
    cache.drop("h");
    expect(cache.get("h")).toBeUndefined();
  });

  test("a zero TTL disables caching", () => {
    const cache = new TokenCache(0);
    cache.set("h", caller);
    expect(cache.get("h")).toBeUndefined();
  });

  test("clear forgets every token", () => {
    const cache = new TokenCache(60_000);
    cache.set("a", caller);
    cache.set("b", caller);
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeUndefined();
  });
});
