#!/usr/bin/env bash
# Prints the path of a Jaeger binary (Jaeger v2, built on the OpenTelemetry Collector) for
# test/src/deploy-traces-jaeger.test.ts: a real OTLP/HTTP receiver and trace store that the tracing exporter's
# spans must reach and be read back from. Built once with Go from the module's own source (its go.mod's replace
# directives apply only there, so `go install ...@version` refuses it), cached outside the repository like
# FerretDB. The first build takes several minutes; set JAEGER to use a binary you have.
set -euo pipefail
version="v1.76.0" # the module's tag of Jaeger v2.13
cache="${DOCSHELF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docshelf}"
bin="${cache}/jaeger-${version}"
if [ ! -x "${bin}" ]; then
  command -v go >/dev/null 2>&1 || { echo "Go is needed to build Jaeger (https://go.dev/dl/)" >&2; exit 1; }
  mkdir -p "${cache}"
  work="$(mktemp -d)"
  trap 'chmod -R u+w "${work}" 2>/dev/null; rm -rf "${work}"' EXIT
  (cd "${work}" && go mod download -json "github.com/jaegertracing/jaeger@${version}" >"${work}/mod.json")
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "${work}/mod.json")"
  cp -r "${src}" "${work}/src" && chmod -R u+w "${work}/src"
  (cd "${work}/src" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -o "${bin}.partial" ./cmd/jaeger >&2)
  mv "${bin}.partial" "${bin}"
fi
echo "${bin}"
