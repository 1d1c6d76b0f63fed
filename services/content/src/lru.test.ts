import { rememberLru } from "./lru";

describe("rememberLru", () => {
  test("keeps at most max entries, dropping the least recently used", () => {
    const cache = new Map<string, number>();
    rememberLru(cache, "a", 1, 2);
    rememberLru(cache, "b", 2, 2);
    // Using "a" again makes "b" the least recently used.
    expect(rememberLru(cache, "a", 1, 2)).toBe(1);
    rememberLru(cache, "c", 3, 2);
    expect([...cache.keys()]).toEqual(["a", "c"]);
  });
});
