#!/usr/bin/env bash
# Prints the path of a Helm binary for test/src/deploy-helm.test.ts (helm lint and helm template of
# deploy/helm/docshelf), building it with Go into GOPATH/bin once, like kustomize in .ci/run. A `helm`
# there of another version is rebuilt. Set HELM to use one you have instead.
set -euo pipefail
version="v3.22.0"
command -v go >/dev/null 2>&1 || { echo "Go is needed to build Helm (https://go.dev/dl/)" >&2; exit 1; }
bin="$(go env GOPATH)/bin/helm"
if [ ! -x "${bin}" ] || ! go version -m "${bin}" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+helm.sh/helm/v3[[:space:]]+${version}[[:space:]]"; then
  CGO_ENABLED=0 go install -trimpath "helm.sh/helm/v3/cmd/helm@${version}" >&2
fi
echo "${bin}"
