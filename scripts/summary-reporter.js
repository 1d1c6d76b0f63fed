// A jest reporter that appends each package's pass/fail counts to $TEST_SUMMARY_FILE, for one closing line.
const { appendFileSync } = require("node:fs");

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const line = {
      cwd: process.cwd(),
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    appendFileSync(file, JSON.stringify(line) + "\n");
  }
}
module.exports = SummaryReporter;
