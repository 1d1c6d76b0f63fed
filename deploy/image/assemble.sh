#!/usr/bin/env bash
# Makes docshelf's release filesystem in <dir>: what the container image holds under /app, and all it holds of
# docshelf. The Dockerfile runs it after the build; test/src/image.test.ts runs it on a built checkout, moves the
# result away from the repository and starts the server from it. Run it from a built checkout (npm run build):
#   deploy/image/assemble.sh <dir>        (<dir> must not exist or be empty)
# <dir> gets:
#   package.json, package-lock.json       the root's (the workspaces list and the pinned dependency tree)
#   <workspace>/package.json, dist/       @docshelf/server and every workspace it depends on, nothing else
#                                          (no sources, tests, source maps or declaration files)
#   node_modules/ (and <workspace>/node_modules/ where npm nests a version)
#                                          production dependencies only, installed by `npm ci --omit=dev` from
#                                          the lockfile, so npm itself decides what is hoisted and what nests
#                                          (copying the root node_modules alone lost services/openapi's
#                                          @apidevtools/swagger-parser and services/sites' jose)
#   deploy/make-secrets.mjs               the Kubernetes Secrets maker (deploy/k8s/secrets.yaml's Job)
# Then `node packages/server/dist/main.js` in <dir> runs docshelf; the workspace links in node_modules/@docshelf
# are relative, so <dir> may be moved anywhere. npm needs the registry or its cache (it prefers the cache).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${1:?usage: deploy/image/assemble.sh <dir>}"
if [ -e "${target}" ] && [ -n "$(ls -A "${target}")" ]; then
  echo "assemble: ${target} is not empty" >&2
  exit 1
fi
mkdir -p "${target}"
target="$(cd "${target}" && pwd)"
cd "${root}"

# @docshelf/server and the workspaces it depends on, transitively (their folders, relative to the root).
workspaces="$(node -e '
const fs = require("fs"), path = require("path");
const byName = new Map();
for (const group of ["packages", "services"]) {
  if (!fs.existsSync(group)) continue;
  for (const dir of fs.readdirSync(group)) {
    const file = path.join(group, dir, "package.json");
    if (fs.existsSync(file)) byName.set(JSON.parse(fs.readFileSync(file, "utf8")).name, path.join(group, dir));
  }
}
const wanted = new Set(), todo = ["@docshelf/server"];
while (todo.length) {
  const name = todo.pop();
  if (wanted.has(name)) continue;
  if (!byName.has(name)) throw new Error(`workspace ${name} not found`);
  wanted.add(name);
  const pkg = JSON.parse(fs.readFileSync(path.join(byName.get(name), "package.json"), "utf8"));
  for (const dep of Object.keys(pkg.dependencies || {})) if (byName.has(dep)) todo.push(dep);
}
console.log([...wanted].map((n) => byName.get(n)).sort().join("\n"));
')"

cp package.json package-lock.json "${target}/"
for dir in ${workspaces}; do
  if [ ! -d "${dir}/dist" ]; then
    echo "assemble: ${dir}/dist is missing: run npm run build first" >&2
    exit 1
  fi
  mkdir -p "${target}/${dir}"
  cp "${dir}/package.json" "${target}/${dir}/"
  cp -R "${dir}/dist" "${target}/${dir}/dist"
done
mkdir -p "${target}/deploy" "${target}/scripts"
cp deploy/image/make-secrets.mjs "${target}/deploy/"
# `npm run admin -- …`, `npm run backup` and `npm run restore` in the container (docker exec, kubectl exec).
cp scripts/admin.js scripts/node22.sh "${target}/scripts/"
# What only compiling or debugging needs.
find "${target}" -path "${target}/node_modules" -prune -o -type f \( -name '*.test.js' -o -name '*.test.d.ts' -o -name '*.map' -o -name '*.d.ts' -o -name '*.tsbuildinfo' \) -exec rm -f {} +
find "${target}" -type d \( -name __tests__ \) -prune -exec rm -rf {} +

# Production dependencies from the lockfile. npm accepts the lockfile although workspaces it lists (test, bench,
# testkit) are absent, and installs nothing for them. Install scripts are skipped: none of the production
# dependencies needs one, and the image has no compiler.
(cd "${target}" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >&2)
echo "${target}"
