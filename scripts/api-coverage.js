// Rewrites docs/API-COVERAGE.md and the README's summary of it from the gateway's route table and
// GitBook's newest OpenAPI document (run after a build); services/gateway's api-coverage test checks them.
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { coverage, coverageDocument, coverageSummary, latestGitBookSpec, withCoverageSummary } = require("../services/gateway/dist/api-coverage");

const root = join(__dirname, "..");
const { spec, version } = latestGitBookSpec();
const ops = coverage(spec);
writeFileSync(join(root, "docs", "API-COVERAGE.md"), coverageDocument(ops, version));
const readme = join(root, "README.md");
writeFileSync(readme, withCoverageSummary(readFileSync(readme, "utf8"), coverageSummary(ops, version)));
console.log(`API coverage: ${ops.filter((o) => o.action).length} of ${ops.length} operations`);
