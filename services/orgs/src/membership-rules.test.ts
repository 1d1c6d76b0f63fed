import { BadRequestError, ConflictError } from "@docshelf/errors";
import { assertAdminRemains, inviteRoles, linkInviteRole, memberSearchText } from "./membership-rules";

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

describe("inviteRoles", () => {
  test("one role per lower-cased email: the last entry wins, bare emails take the default", () => {
    const roles = inviteRoles(["Ann@Example.com", { email: "bob@example.com", role: "admin" }, { email: "ANN@example.com", role: "edit" }, "bob@example.com"], "read");
    expect([...roles]).toEqual([
      ["ann@example.com", "edit"],
      ["bob@example.com", "read"],
    ]);
  });
});

describe("linkInviteRole", () => {
  test("takes the role, or the level under GitBook's other name; null is a guest", () => {
    expect(linkInviteRole({ role: "edit" })).toBe("edit");
    expect(linkInviteRole({ level: "admin" })).toBe("admin");
    expect(linkInviteRole({ role: null })).toBeNull();
    expect(linkInviteRole({ level: null })).toBeNull();
  });
  test("both, or neither, is a bad request naming the fields", () => {
    expect(() => linkInviteRole({ role: "read", level: "read" })).toThrow(BadRequestError);
    expect(() => linkInviteRole({ role: null, level: "edit" })).toThrow(/'role'.*'level'.*not both/);
    expect(() => linkInviteRole({})).toThrow(BadRequestError);
    expect(() => linkInviteRole({})).toThrow(/'role' field/);
  });
});
