// Rewrites suite-times.json (the seconds each end-to-end suite took, for sequencer.js) from the summary lines that npm
// test's reporter writes (scripts/summary-reporter.js; scripts/test.sh keeps them with TEST_SUMMARY_KEEP=<file>).
// A suite run in several passes keeps the longest.
const { readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const [summary] = process.argv.slice(2);
if (!summary) throw new Error("usage: node test/suite-times.js <summary file>");
const times = {};
for (const line of readFileSync(summary, "utf8").split("\n").filter(Boolean)) {
  const pass = JSON.parse(line);
  if (!String(pass.pass).startsWith("e2e")) continue;
  for (const suite of pass.suites ?? []) {
    const name = path.basename(suite.file);
    times[name] = Math.max(times[name] ?? 0, suite.seconds);
  }
}
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(path.join(__dirname, "suite-times.json"), JSON.stringify(sorted, null, 2) + "\n");
console.log(`suite-times.json: ${Object.keys(sorted).length} suites`);
