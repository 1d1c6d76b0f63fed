// The README's API coverage summary and docs/API-COVERAGE.md are generated from the route table; this
// keeps them from drifting, and checks that routes are matched to GitBook's operations.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coverage, coverageDocument, coverageSummary, latestGitBookSpec, withCoverageSummary } from "./api-coverage";

const root = join(__dirname, "..", "..", "..");
const { spec, version } = latestGitBookSpec();
const ops = coverage(spec);

test("a routed operation names its action whatever its parameters are called; an unrouted one names none", () => {
  const byId = new Map(ops.map((o) => [o.operationId, o]));
  expect(byId.get("getSpaceById")?.action).toBe("content.getSpace");
  expect(byId.get("mergeChangeRequest")?.action).toMatch(/^change-requests\./);
  const sample = coverage(
    { paths: { "/spaces/{spaceId}/things/{thingId}": { get: { operationId: "getThing", tags: ["things"] }, delete: { operationId: "deleteThing" } } } },
    { "GET /spaces/:id/things/:other": "things.get" },
  );
  expect(sample).toEqual([
    { operationId: "getThing", method: "GET", path: "/spaces/{spaceId}/things/{thingId}", tag: "things", deprecated: false, action: "things.get" },
    { operationId: "deleteThing", method: "DELETE", path: "/spaces/{spaceId}/things/{thingId}", tag: "other", deprecated: false, action: undefined },
  ]);
});

test("docs/API-COVERAGE.md is what the route table says (node scripts/api-coverage.js after a build)", () => {
  expect(readFileSync(join(root, "docs", "API-COVERAGE.md"), "utf8")).toBe(coverageDocument(ops, version));
});

test("the README's coverage summary is current", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  expect(withCoverageSummary(readme, coverageSummary(ops, version))).toBe(readme);
});
