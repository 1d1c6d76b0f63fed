import { redirect } from "./http";
import { csrfMatches, csrfToken, isSecret, localReturnPath, newSecret, sessionHash, ssoBinding } from "./sessions";

describe("return paths after sign-in", () => {
  test.each(["/o/abc", "/s/x/guide/setup?edit=1", "/app", "/s/x/~/changes/3"])("%p is local and kept", (path) => {
    expect(localReturnPath(path)).toBe(path);
  });

  test.each([
    undefined,
    "",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "evil.example",
    " /o/x",
    "/o/x\r\nSet-Cookie: a=b",
    "/o/\u0000",
    `/${"a".repeat(3000)}`,
  ])("%p goes to the start page instead", (path) => {
    expect(localReturnPath(path)).toBe("/app");
  });
});

describe("session secrets and CSRF tokens", () => {
  test("a secret is 256 random bits in base64url; its stored hash and CSRF token are neither it nor each other", () => {
    const secret = newSecret();
    expect(isSecret(secret)).toBe(true);
    expect(newSecret()).not.toBe(secret);
    expect(sessionHash(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(csrfToken(secret)).not.toBe(secret);
    expect(csrfToken(secret)).not.toBe(sessionHash(secret));
  });

  test("a CSRF token matches its own session only", () => {
    const secret = newSecret();
    expect(csrfMatches(secret, csrfToken(secret))).toBe(true);
    expect(csrfMatches(secret, csrfToken(newSecret()))).toBe(false);
    expect(csrfMatches(secret, undefined)).toBe(false);
    expect(csrfMatches(secret, "")).toBe(false);
    expect(csrfMatches(undefined, csrfToken(secret))).toBe(false);
    expect(csrfMatches("short", csrfToken("short"))).toBe(false);
  });
});

describe("redirects", () => {
  test("a Location is printable ASCII whatever the path holds", () => {
    expect(redirect("/s/x/über page").headers.Location).toBe("/s/x/%C3%BCber%20page");
    expect(redirect("/o/abc?x=1").headers.Location).toBe("/o/abc?x=1");
  });
});

describe("the SSO binding of a sign-in cookie", () => {
  test("64 hex characters, fixed for a secret, differing between secrets and from the CSRF token and stored hash", () => {
    const secret = newSecret();
    expect(ssoBinding(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(ssoBinding(secret)).toBe(ssoBinding(secret));
    expect(ssoBinding(secret)).not.toBe(ssoBinding(newSecret()));
    expect(ssoBinding(secret)).not.toBe(sessionHash(secret));
    expect(ssoBinding(secret)).not.toBe(csrfToken(secret));
  });
});
