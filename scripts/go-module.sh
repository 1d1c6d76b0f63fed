# Sourced by scripts/ferretdb.sh and scripts/jaeger.sh: builds a Go program from its module's own source, so that
# its go.mod (replace directives, the versions it pins) applies, which `go install module@version` does not allow
# for modules with replace directives.
#
#   build_go_module <module> <version> <package dir in the module> <output binary> [<prepare function>]
#
# <prepare function>, when given, runs in the (writable) source directory before the build. The binary is written
# to <output>.partial and renamed, so an interrupted build never leaves a binary that looks finished.
build_go_module() {
  local module="$1" version="$2" package="$3" out="$4" prepare="${5:-}"
  command -v go >/dev/null 2>&1 || { echo "Go is needed to build ${module} (https://go.dev/dl/)" >&2; return 1; }
  mkdir -p "$(dirname "${out}")"
  local work
  work="$(mktemp -d)"
  # shellcheck disable=SC2064 # the directory is known now
  trap "chmod -R u+w '${work}' 2>/dev/null; rm -rf '${work}'" EXIT
  (cd "${work}" && go mod download -json "${module}@${version}" >"${work}/mod.json")
  local src
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "${work}/mod.json")"
  cp -r "${src}" "${work}/src" && chmod -R u+w "${work}/src"
  if [ -n "${prepare}" ]; then (cd "${work}/src" && "${prepare}"); fi
  (cd "${work}/src" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -o "${out}.partial" "./${package}" >&2)
  mv "${out}.partial" "${out}"
}
