#!/usr/bin/env bash
# `npm test`: every workspace's unit suites (turbo, two workspaces at a time, each result kept by turbo's cache
# under the workspace's inputs), then the end-to-end suites (test/: one system per process mode shared by the
# suites, started by test/global-setup.js): in one process on the embedded store, and over NATS with every
# collection on the MongoDB-wire server E2E_MONGO_URL names (the embedded store without it). Closes with the
# totals, the 15 slowest suites and the name of every failed test.
#
#   npm test                     everything
#   npm run test:quick           the unit suites and the end-to-end suites in one process (no NATS, no MongoDB)
#   npm test -- --filter=@docshelf/content    one workspace's unit suites only (turbo's options)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export TURBO_TELEMETRY_DISABLED=1
summary="$(mktemp)"
started=$(date +%s)
status=0

# Unit suites. A workspace's reporter writes test-summary.json beside it (restored by turbo on a cache hit).
find "$root/packages" "$root/services" "$root/bench" -maxdepth 2 -name test-summary.json -delete 2>/dev/null
TEST_SUMMARY_LOCAL=1 "$root/node_modules/.bin/turbo" run test --continue --filter='!@docshelf/e2e' --concurrency="${TEST_CONCURRENCY:-2}" "$@" || status=1
cat "$root"/packages/*/test-summary.json "$root"/services/*/test-summary.json "$root"/bench/test-summary.json >>"$summary" 2>/dev/null
units_done=$(date +%s)

# The end-to-end systems' data directories (the embedded store's SQLite files, Git repositories, browsers' profiles)
# on tmpfs when the machine has one with room: every acknowledged write there fsyncs, and a disk's fsync blocks the
# one process of an embedded system for milliseconds each time. Nothing a suite checks depends on the disk (a killed
# process loses no written page either way). E2E_TMPDIR names another directory; E2E_TMPDIR=none keeps TMPDIR.
e2e_tmp="${E2E_TMPDIR:-}"
if [ -z "$e2e_tmp" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $4}')" -gt 4194304 ] 2>/dev/null; then
  e2e_tmp="/dev/shm/docshelf-e2e-$(id -u)"
fi
if [ -n "$e2e_tmp" ] && [ "$e2e_tmp" != "none" ]; then
  mkdir -p "$e2e_tmp"
  # What an interrupted run left behind (suites remove their own directories when they end).
  find "$e2e_tmp" -mindepth 1 -maxdepth 1 -mmin +720 -exec rm -rf {} + 2>/dev/null
  export TMPDIR="$e2e_tmp"
fi

e2e() { # $1: the pass's name; $2: jest's options; the rest: environment for it
  local name="$1" options="$2"
  shift 2
  # shellcheck disable=SC2086 # the options are words
  (cd "$root/test" && env TEST_SUMMARY_FILE="$summary" TEST_PASS_NAME="$name" "$@" "$root/node_modules/.bin/jest" $options ${E2E_JEST_ARGS:-}) || status=1
}

# The suites on the shared systems two at a time (E2E_WORKERS), then those about a process's life, time or
# rates one after another (test/jest.config.js lists them).
e2e_pass() { # $1: the pass's name; $2: suites at a time on the shared systems; the rest: environment for it
  local name="$1" workers="$2"
  shift 2
  e2e "$name" "--maxWorkers=${workers}" E2E_GROUP=shared "$@"
  e2e "$name-alone" --runInBand E2E_GROUP=alone "$@"
}

if [ $# -eq 0 ]; then
  echo
  if [ "${TEST_QUICK:-}" = "1" ]; then
    echo "end-to-end suites in one process on the shared system (test:quick: no NATS, no MongoDB, not the suites run alone)"
    e2e e2e "--maxWorkers=${E2E_WORKERS:-2}" E2E_GROUP=shared E2E_ONLY=embedded E2E_MONGO_URL=
  else
    echo "end-to-end suites: in one process, and over NATS${E2E_MONGO_URL:+ with every collection on the MongoDB server E2E_MONGO_URL names}"
    e2e_pass e2e "${E2E_WORKERS:-2}"
  fi
fi

node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map(JSON.parse);
const sum = (k) => lines.reduce((n, l) => n + l[k], 0);
const suites = lines.flatMap((l) => (l.suites ?? []).map((s) => ({ ...s, pass: l.pass }))).sort((a, b) => b.seconds - a.seconds);
const [began, unitsDone] = process.argv.slice(2).map(Number);
const minutes = (s) => `${Math.floor(s / 60)} min ${s % 60} s`;
console.log(`\nthe 15 slowest suites (of ${suites.length}):`);
for (const s of suites.slice(0, 15)) console.log(`  ${s.seconds.toFixed(1).padStart(7)} s  ${s.pass.padEnd(14)} ${s.file}`);
console.log(`units ${minutes(unitsDone - began)}, end-to-end ${minutes(Math.round(Date.now() / 1000) - unitsDone)}`);
// Each end-to-end pass: its wall time against the sum of its suites (how well its workers were used).
for (const l of lines.filter((l) => l.pass.startsWith("e2e") && l.suites?.some((s) => s.start))) {
  const first = Math.min(...l.suites.map((s) => s.start));
  const last = Math.max(...l.suites.map((s) => s.end));
  const total = l.suites.reduce((n, s) => n + s.seconds, 0);
  console.log(`  ${l.pass.padEnd(14)} ${l.suites.length} suites, ${Math.round((last - first) / 1000)} s from the first suite start to the last suite end, ${Math.round(total)} s of suites`);
}
console.log(`\ntest packages: ${lines.length}`);
console.log(`${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`);
const failures = lines.flatMap((l) => (l.failures ?? []).map((f) => `${l.pass}: ${f}`));
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
' "$summary" "$started" "$units_done"
# TEST_SUMMARY_KEEP=<file>: the summary lines kept (test/suite-times.js reads them).
[ -n "${TEST_SUMMARY_KEEP:-}" ] && cp "$summary" "$TEST_SUMMARY_KEEP"
rm -f "$summary"
exit $status
