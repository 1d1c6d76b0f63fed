// The bounded cache: least recently used out first, by count and by weight.
import { Lru } from "./lru";

test("keeps at most maxEntries, dropping the least recently used", () => {
  const lru = new Lru<string, number>(2);
  lru.set("a", 1);
  lru.set("b", 2);
  expect(lru.get("a")).toBe(1);
  lru.set("c", 3);
  expect(lru.get("b")).toBeUndefined();
  expect([lru.get("a"), lru.get("c"), lru.size]).toEqual([1, 3, 2]);
});

test("keeps the total weight under maxWeight, but always the newest entry", () => {
  const lru = new Lru<string, string>(100, 10);
  lru.set("a", "x", 4);
  lru.set("b", "y", 4);
  lru.set("c", "z", 4);
  expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([undefined, "y", "z"]);
  lru.set("huge", "h", 50);
  expect([lru.size, lru.get("huge")]).toEqual([1, "h"]);
  lru.set("huge", "h", 1);
  lru.set("d", "d", 2);
  expect(lru.size).toBe(2);
});
