#!/usr/bin/env bash
# `npm test`: every package's jest suites through turbo, then one closing line with the totals.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export TEST_SUMMARY_FILE="$(mktemp)"
export TURBO_TELEMETRY_DISABLED=1
"$root/node_modules/.bin/turbo" run test --concurrency=1 "$@"
status=$?
# With E2E_MONGO_URL (which turbo does not pass on, so the run above is today's): the end-to-end suites
# once more over NATS, one process per service, every collection in MongoDB (test/jest.config.js).
if [ -n "${E2E_MONGO_URL:-}" ] && [ $# -eq 0 ]; then
  echo
  echo "end-to-end suites again: over NATS, every collection on the MongoDB server E2E_MONGO_URL names"
  (cd "$root/test" && "$root/node_modules/.bin/jest" --runInBand) || status=1
fi
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map(JSON.parse);
const sum = (k) => lines.reduce((n, l) => n + l[k], 0);
console.log(`\ntest packages: ${lines.length}`);
console.log(`${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`);
' "$TEST_SUMMARY_FILE"
rm -f "$TEST_SUMMARY_FILE"
exit $status
