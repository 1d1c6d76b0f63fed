import { hashPassword, passwordProblem, verifyPassword } from "./passwords";

describe("passwords", () => {
  test("a hash verifies its password only, and two hashes of one password differ (salt)", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
  });

  test("no stored hash, or a malformed one, never verifies", async () => {
    expect(await verifyPassword("anything at all", undefined)).toBe(false);
    expect(await verifyPassword("anything at all", "plain")).toBe(false);
    expect(await verifyPassword("x", "scrypt$30$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA")).toBe(false);
  });

  test("length limits", () => {
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("x".repeat(257))).toMatch(/at most 256/);
    expect(passwordProblem("long enough pass")).toBeUndefined();
  });
});
