#!/usr/bin/env bash
# Prints the path of a FerretDB binary (building it once with Go when missing) for the MongoDB-wire tests.
# FerretDB 1.x embeds its version from build/version/version.txt, which the Go module does not ship,
# so `go install ...@v1.24.2` alone builds a binary that panics at start; this builds from the module
# source with that file written. Cached outside the repository, so CI runs on one machine build it once.
set -euo pipefail
version="v1.24.2"
cache="${DOCSHELF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docshelf}"
bin="${cache}/ferretdb-${version}"
if [ ! -x "${bin}" ]; then
  command -v go >/dev/null 2>&1 || { echo "Go is needed to build FerretDB (https://go.dev/dl/)" >&2; exit 1; }
  mkdir -p "${cache}"
  work="$(mktemp -d)"
  trap 'chmod -R u+w "${work}" 2>/dev/null; rm -rf "${work}"' EXIT
  (cd "${work}" && go mod download -json "github.com/FerretDB/FerretDB@${version}" >"${work}/mod.json")
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "${work}/mod.json")"
  cp -r "${src}" "${work}/src" && chmod -R u+w "${work}/src"
  echo "${version}" >"${work}/src/build/version/version.txt"
  (cd "${work}/src" && CGO_ENABLED=0 go build -trimpath -o "${bin}.partial" ./cmd/ferretdb >&2)
  mv "${bin}.partial" "${bin}"
fi
echo "${bin}"
