#!/usr/bin/env bash
# Runs a command with Node.js 22 first on PATH. When the machine's node is another major version,
# Node.js 22 comes from the npm registry's `node@22` package into .tools/ (once).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$major" != "22" ]; then
  if [ ! -x "$root/.tools/node_modules/node/bin/node" ]; then
    echo "node ${major} found; installing Node.js 22 from the npm registry into .tools/" >&2
    mkdir -p "$root/.tools"
    # The node package makes bin/node in its preinstall script. npm 11 warns about dependency install scripts
    # that no allowScripts entry covers, and says it will block them; this entry allows that one script.
    # Older npm ignores the field.
    echo '{"private": true, "allowScripts": {"node": true}}' >"$root/.tools/package.json"
    (cd "$root/.tools" && npm install --no-save --no-package-lock --no-audit --no-fund --prefix . node@22 >&2)
  fi
  export PATH="$root/.tools/node_modules/node/bin:$PATH"
fi
exec "$@"
