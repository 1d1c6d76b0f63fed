// Fingerprints of idempotent requests.
import { canonicalJson, requestFingerprint } from "./canonical-json";

describe("canonicalJson", () => {
  test("object keys are sorted at every level and arrays keep their order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });

  test("undefined members are left out as JSON.stringify does", () => {
    expect(canonicalJson({ a: undefined, b: "x" })).toBe('{"b":"x"}');
  });
});

describe("requestFingerprint", () => {
  test("the same body with keys in another order has the same fingerprint", () => {
    expect(requestFingerprint("POST", "/v1/orgs", { title: "A", emoji: "x" })).toBe(requestFingerprint("post", "/v1/orgs", { emoji: "x", title: "A" }));
  });

  test("another body, path or method has another fingerprint", () => {
    const base = requestFingerprint("POST", "/v1/orgs", { title: "A" });
    expect(requestFingerprint("POST", "/v1/orgs", { title: "B" })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/users", { title: "A" })).not.toBe(base);
    expect(requestFingerprint("PUT", "/v1/orgs", { title: "A" })).not.toBe(base);
  });

  test("a missing body and an empty object are the same request", () => {
    expect(requestFingerprint("POST", "/v1/orgs", undefined)).toBe(requestFingerprint("POST", "/v1/orgs", {}));
  });
});
