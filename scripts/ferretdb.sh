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
  # shellcheck source=scripts/go-module.sh
  . "$(dirname "$0")/go-module.sh"
  write_version() { echo "${version}" >build/version/version.txt; }
  build_go_module github.com/FerretDB/FerretDB "${version}" cmd/ferretdb "${bin}" write_version
fi
echo "${bin}"
