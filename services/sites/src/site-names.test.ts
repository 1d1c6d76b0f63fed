// Which basenames and hostnames a site may claim.
import { newId } from "@docshelf/store";
import { BASENAME_PATTERN, hostnameRefusal } from "./site-names";

describe("basenames", () => {
  test("slugs pass; anything with the shape of an id, or not a lower-case slug, does not", () => {
    for (const ok of ["a", "api", "api-docs", "docs-0vbvbafsvtn4d5folspz", "a".repeat(19), "a".repeat(21), `${"a".repeat(19)}-b`, "x".repeat(100)]) {
      expect([ok, BASENAME_PATTERN.test(ok)]).toEqual([ok, true]);
    }
    for (const bad of ["", "Docs", "-a", "a-", "a b", "a/b", "a.b", "a_b", "a".repeat(20), "0123456789abcdefghij", "x".repeat(101)]) {
      expect([bad, BASENAME_PATTERN.test(bad)]).toEqual([bad, false]);
    }
  });

  test("no id, nor an id in lower case, is a basename", () => {
    for (let i = 0; i < 1000; i++) {
      const id = newId();
      expect(BASENAME_PATTERN.test(id)).toBe(false);
      expect(BASENAME_PATTERN.test(id.toLowerCase())).toBe(false);
    }
  });
});

describe("hostnameRefusal", () => {
  const publicUrl = "https://docs.example.com";
  test("refuses IP literals, localhost and the instance's own host and subdomains", () => {
    for (const host of ["10.0.0.1", "127.1", "0x7f.0.0.1", "1.2.3.4", "[::1]", "::1", "localhost", "a.localhost", "docs.example.com", "a.docs.example.com", "a.b.docs.example.com"]) {
      expect([host, hostnameRefusal(host, publicUrl, [])]).toEqual([host, expect.any(String)]);
    }
  });

  test("allows other domains, and subdomains of a listed suffix (not the suffix itself)", () => {
    for (const host of ["docs.other.com", "www.example.com", "example.com.evil.org", "x1.example.org"]) expect(hostnameRefusal(host, publicUrl, [])).toBeUndefined();
    expect(hostnameRefusal("acme.sites.docs.example.com", publicUrl, ["sites.docs.example.com"])).toBeUndefined();
    expect(hostnameRefusal("sites.docs.example.com", publicUrl, ["sites.docs.example.com"])).toEqual(expect.any(String));
    expect(hostnameRefusal("api.docs.example.com", publicUrl, ["sites.docs.example.com"])).toEqual(expect.any(String));
  });
});
