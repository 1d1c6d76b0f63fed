import { decodeKey, decodeKeys, encodeKey, encodeKeys } from "./keys";

describe("stored keys (keys.ts)", () => {
  test("every key round-trips, and only keys MongoDB would read as paths or operators change", () => {
    const keys = ["plain", "with space", "a.b", ".", "$", "$set", "a$", "", "%", "%2E", "\uE000", "\uE000%2E", "__proto__", "a\0b", "图.md", "x\uE000"];
    for (const key of keys) {
      const stored = encodeKey(key);
      expect(decodeKey(stored)).toBe(key);
      expect(stored.includes(".") || stored.startsWith("$") || stored === "" || stored.includes("\0")).toBe(false);
    }
    for (const key of ["plain", "with space", "a$", "%", "%2E", "图", "x\uE000"]) expect(encodeKey(key)).toBe(key);
  });

  test("a value that needs nothing is returned as is; one that does is copied, never changed in place", () => {
    const plain = { a: { b: [1, { c: "d" }] } };
    expect(encodeKeys(plain)).toBe(plain);
    expect(decodeKeys(plain)).toBe(plain);
    const odd = { list: [{ "x.y": 1 }], keep: { a: 1 } };
    const stored = encodeKeys(odd);
    expect(stored).not.toBe(odd);
    expect(odd).toEqual({ list: [{ "x.y": 1 }], keep: { a: 1 } });
    expect((stored as { keep: unknown }).keep).toBe(odd.keep);
    expect(decodeKeys(stored)).toEqual(odd);
  });

  test("__proto__ as a key stays an own property and never changes a prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const back = decodeKeys(encodeKeys(value));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
