// The deprecated moves' `position` parameter.
import { moveTargetOf } from "./move";

describe("moveTargetOf", () => {
  test("before, after, or the end when absent", () => {
    expect(moveTargetOf({ before: { type: "site-space", siteSpace: "a" } }, "siteSpace")).toEqual({ before: "a" });
    expect(moveTargetOf({ after: { type: "site-space", siteSpace: "b" } }, "siteSpace")).toEqual({ after: "b" });
    expect(moveTargetOf(undefined, "siteSpace")).toEqual({ end: true });
    expect(moveTargetOf({}, "id")).toEqual({ end: true });
  });

  test("both before and after is a 400 naming position", () => {
    expect(() => moveTargetOf({ before: { type: "site-section", id: "a" }, after: { type: "site-section", id: "b" } }, "id")).toThrow(/'position'/);
  });
});
