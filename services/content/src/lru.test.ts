import { rememberLru, WeightedLru } from "./lru";

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

describe("WeightedLru", () => {
  test("keeps entries while their weights fit the budget, dropping the least recently used first, and always the last few", () => {
    const cache = new WeightedLru<string>(100, 2);
    cache.set("a", "A", 40);
    cache.set("b", "B", 40);
    expect(cache.get("a")).toBe("A"); // "b" is now the least recently used
    cache.set("c", "C", 40);
    expect([cache.get("b"), cache.get("a"), cache.get("c")]).toEqual([undefined, "A", "C"]);
    expect(cache.weight).toBe(80);
    // Heavier than the whole budget: still kept, with one other (at least two entries).
    cache.set("huge", "H", 500);
    expect(cache.size).toBe(2);
    expect(cache.get("huge")).toBe("H");
    expect(cache.delete("huge")).toBe(true);
    expect(cache.weight).toBe(40);
  });
});
