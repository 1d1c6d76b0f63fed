// The schema checks decide with the first-error validator and report with the all-errors one.
import { expectComponent, expectSchema } from "./schema";

describe("schema checks", () => {
  test("a valid value passes", () => {
    expect(() => expectComponent("JSONDocument", { object: "document", data: {}, nodes: [] })).not.toThrow();
    expect(() => expectSchema("listOrganizationsForAuthenticatedUser", 200, { items: [], next: undefined })).not.toThrow();
  });

  test("a refused value's message lists every mismatch, not only the first one the fast check met", () => {
    let message = "";
    try {
      expectComponent("JSONDocument", { object: 5, data: {}, nodes: "x" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("component JSONDocument: value does not match GitBook's schema");
    expect(message).toContain("/object");
    expect(message).toContain("/nodes");
  });

  test("a refused response body names the operation and every mismatch", () => {
    expect(() => expectSchema("listOrganizationsForAuthenticatedUser", 200, { items: "no", count: "no" })).toThrow(/listOrganizationsForAuthenticatedUser 200: body does not match[\s\S]*\/count[\s\S]*\/items/);
  });
});
