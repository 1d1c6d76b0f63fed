#!/usr/bin/env bash
# `npm test`: every package's jest suites through turbo, then one closing line with the totals.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export TEST_SUMMARY_FILE="$(mktemp)"
export TURBO_TELEMETRY_DISABLED=1
"$root/node_modules/.bin/turbo" run test --concurrency=1 "$@"
status=$?
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map(JSON.parse);
const sum = (k) => lines.reduce((n, l) => n + l[k], 0);
console.log(`\ntest packages: ${lines.length}`);
console.log(`${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`);
' "$TEST_SUMMARY_FILE"
rm -f "$TEST_SUMMARY_FILE"
exit $status
