import { isActive, needsAuthorOrAdmin, refusedMove } from "./status-rules";

describe("change request status moves", () => {
  test.each([
    ["draft", "open"],
    ["open", "draft"],
    ["draft", "archived"],
    ["open", "archived"],
    ["archived", "open"],
    ["archived", "draft"],
    ["open", "open"],
  ] as const)("%s → %s is allowed", (from, to) => {
    expect(refusedMove(from, to)).toBeNull();
  });

  test.each([
    ["merged", "open"],
    ["merged", "archived"],
    ["open", "merged"],
    ["draft", "merged"],
  ] as const)("%s → %s is refused with a reason", (from, to) => {
    expect(refusedMove(from, to)).toMatch(/merge/);
  });

  test("archiving and unarchiving take the author or an admin; draft ⇄ open does not", () => {
    expect(needsAuthorOrAdmin("open", "archived")).toBe(true);
    expect(needsAuthorOrAdmin("archived", "open")).toBe(true);
    expect(needsAuthorOrAdmin("draft", "open")).toBe(false);
  });

  test("only draft and open change requests are active", () => {
    expect(["draft", "open", "archived", "merged"].filter((s) => isActive(s as never))).toEqual(["draft", "open"]);
  });
});
