#!/usr/bin/env bash
# Prints the path of a Jaeger binary (Jaeger v2, built on the OpenTelemetry Collector) for
# test/src/deploy-traces.test.ts: a real OTLP/HTTP receiver and trace store that the tracing exporter's
# spans must reach and be read back from. Built once with Go from the module's own source (its go.mod's replace
# directives apply only there, so `go install ...@version` refuses it), cached outside the repository like
# FerretDB. The first build takes several minutes; set JAEGER to use a binary you have.
set -euo pipefail
version="v1.76.0" # the module's tag of Jaeger v2.13
cache="${DOCSHELF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docshelf}"
bin="${cache}/jaeger-${version}"
if [ ! -x "${bin}" ]; then
  # shellcheck source=scripts/go-module.sh
  . "$(dirname "$0")/go-module.sh"
  build_go_module github.com/jaegertracing/jaeger "${version}" cmd/jaeger "${bin}"
fi
echo "${bin}"
