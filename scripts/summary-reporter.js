// A jest reporter that records each run's pass/fail counts and each suite's duration, for npm test's closing
// lines (scripts/test.sh): the counts, the failed tests' names: appended to $TEST_SUMMARY_FILE, and with TEST_SUMMARY_LOCAL=1 also written to
// test-summary.json in the package, which turbo keeps as the unit tests' output (a cached run restores it).
const { appendFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = {
      cwd: process.cwd(),
      pass: process.env.TEST_PASS_NAME || path.basename(process.cwd()),
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      // The failed tests by name (and suites that failed to run), for the closing lines' list of failures.
      failures: results.testResults.flatMap((suite) => {
        const file = path.relative(process.cwd(), suite.testFilePath);
        if (suite.testExecError) return [`${file}: ${String(suite.testExecError.message).split("\n")[0]}`];
        return suite.testResults.filter((t) => t.status === "failed").map((t) => `${file}: ${t.fullName}`);
      }),
      suites: results.testResults.map((suite) => ({
        file: path.relative(process.cwd(), suite.testFilePath),
        seconds: Math.round((suite.perfStats.end - suite.perfStats.start) / 100) / 10,
        // When it ran (ms since the epoch), for the closing lines' account of each pass: wall time against the
        // suites' sum, and which suites ran beside the slowest ones.
        start: suite.perfStats.start,
        end: suite.perfStats.end,
      })),
    };
    if (process.env.TEST_SUMMARY_FILE) appendFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify(line) + "\n");
    if (process.env.TEST_SUMMARY_LOCAL === "1") writeFileSync(path.join(process.cwd(), "test-summary.json"), JSON.stringify(line) + "\n");
  }
}
module.exports = SummaryReporter;
