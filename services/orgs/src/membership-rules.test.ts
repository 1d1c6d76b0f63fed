import { ConflictError } from "@docshelf/errors";
import { assertAdminRemains, assertBatchKeepsAdmin, memberSearchText } from "./membership-rules";

describe("assertAdminRemains", () => {
  test("demoting or removing the last admin is a conflict with a clear message", () => {
    expect(() => assertAdminRemains("admin", "edit", 1)).toThrow(ConflictError);
    expect(() => assertAdminRemains("admin", null, 1)).toThrow(/last administrator/);
    expect(() => assertAdminRemains("admin", undefined, 1)).toThrow(/cannot be removed/);
  });
  test("another admin makes the change fine", () => {
    expect(() => assertAdminRemains("admin", "read", 2)).not.toThrow();
    expect(() => assertAdminRemains("admin", undefined, 2)).not.toThrow();
  });
  test("changes to non-admins and admin to admin are always fine", () => {
    expect(() => assertAdminRemains("edit", undefined, 1)).not.toThrow();
    expect(() => assertAdminRemains(null, "admin", 0)).not.toThrow();
    expect(() => assertAdminRemains("admin", "admin", 1)).not.toThrow();
  });
});

describe("memberSearchText", () => {
  test("joins display name and email in lower case", () => {
    expect(memberSearchText({ displayName: "Ada Lovelace", email: "Ada@Example.com" })).toBe("ada lovelace ada@example.com");
  });
  test("an unknown user has empty text", () => {
    expect(memberSearchText(undefined)).toBe("");
  });
});

describe("assertBatchKeepsAdmin", () => {
  test("demoting every administrator at once is a conflict", () => {
    expect(() => assertBatchKeepsAdmin(2, 2)).toThrow(ConflictError);
  });
  test("keeping one administrator, or demoting none, is fine", () => {
    expect(() => assertBatchKeepsAdmin(2, 1)).not.toThrow();
    expect(() => assertBatchKeepsAdmin(1, 0)).not.toThrow();
  });
});
