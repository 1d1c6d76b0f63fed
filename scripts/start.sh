#!/usr/bin/env bash
# `npm start`: builds what changed, then becomes the server (exec), so the signals npm passes on
# (SIGINT, SIGTERM) reach the server itself and npm exits with it. The server also stops when the
# process that started it goes away (npm killed with SIGKILL): see --exit-with-parent in packages/server/src/main.ts.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ ! -d node_modules ]; then
  echo "docshelf: node_modules is missing; run 'npm install' first" >&2
  exit 1
fi
if [ "${DOCSHELF_SKIP_BUILD:-}" = "1" ]; then
  # Set by the tests, which run after a build (a second turbo run inside `npm test` would wait on it).
  exec scripts/node22.sh node packages/server/dist/main.js --exit-with-parent
fi
if [ ! -f packages/server/dist/main.js ]; then
  echo "docshelf: first start: fetching Node.js 22 if needed and building every package (about a minute or two)..." >&2
else
  echo "docshelf: building what changed..." >&2
fi

# The build runs in the background so that a signal stops it and this script (bash waits for a
# foreground child before running a trap).
# Every workspace's TypeScript in one process first (tsc -b: the shared libraries parsed once), then each workspace's
# build (its tsc -b finds itself up to date; the app's and the sites' browser bundles, the gateway's OpenAPI file).
(scripts/node22.sh node_modules/.bin/tsc -b tsconfig.workspaces.json && scripts/node22.sh turbo run build --output-logs=errors-only) &
build=$!
trap 'kill -TERM "$build" 2>/dev/null; wait "$build" 2>/dev/null; exit 130' INT
trap 'kill -TERM "$build" 2>/dev/null; wait "$build" 2>/dev/null; exit 143' TERM
wait "$build"
trap - INT TERM

echo "docshelf: starting..." >&2
exec scripts/node22.sh node packages/server/dist/main.js --exit-with-parent
