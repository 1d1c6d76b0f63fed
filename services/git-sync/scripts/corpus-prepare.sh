#!/usr/bin/env bash
# Prepare one repository of the Git sync corpus (see services/git-sync/README.md, "The corpus"):
#   services/git-sync/scripts/corpus-prepare.sh <source: path or URL of a Git repository> <corpus dir> <name>
# Makes <corpus dir>/<name>, a repository with one commit whose tree is the source HEAD's tree (its
# commit id in <name>/.git/corpus-source-commit). When the source is a partial snapshot (blobs listed in
# its tree but absent, as in some mirrors), those files are left out and listed in <name>/.git/corpus-absent;
# nothing else is changed. test/src/git-sync-corpus.test.ts runs every folder of GIT_SYNC_CORPUS_DIR.
set -euo pipefail
if [ $# -ne 3 ] || [ -z "$1" ] || [ -z "$2" ] || [ -z "$3" ]; then
  echo "usage: $0 <path or URL of a Git repository> <corpus dir> <name>" >&2; exit 64
fi
src="$1"; dir="$2"; name="$3"
case "$name" in */*|.|..) echo "the name must be one folder name: $name" >&2; exit 64;; esac
out="$dir/$name"
mkdir -p "$dir"
rm -rf "$out"
export GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -d "$src" ]; then
  # A local repository (a mirror, possibly a partial snapshot that cannot be cloned): read its objects in place.
  git init -q --bare "$tmp/src.git"
  srcdir="$(cd "$src" && git rev-parse --absolute-git-dir)"
  echo "$srcdir/objects" > "$tmp/src.git/objects/info/alternates"
  git -C "$tmp/src.git" update-ref HEAD "$(git -C "$srcdir" rev-parse HEAD)"
else
  git clone -q --bare --depth 1 "$src" "$tmp/src.git"
fi
head="$(git -C "$tmp/src.git" rev-parse HEAD)"
git -C "$tmp/src.git" ls-tree -r -z HEAD > "$tmp/tree"
# Entries whose blob is absent.
tr '\0' '\n' < "$tmp/tree" | awk -F'\t' '{split($1,a," "); if (a[2]=="blob") print a[3]}' \
  | git -C "$tmp/src.git" cat-file --batch-check | awk '$2=="missing"{print $1}' | sort -u > "$tmp/missing"
git init -q "$out"
# One commit with the source's tree (its history is not needed, and snapshots may lack it); files whose
# blob is absent are left out and listed in .git/corpus-absent.
export GIT_INDEX_FILE="$tmp/index"
python3 - "$tmp/tree" "$tmp/missing" "$tmp/keep" "$out/.git/corpus-absent" <<'PY'
import sys
tree, missing, keep, absent = sys.argv[1:5]
gone = set(open(missing).read().split())
with open(tree, "rb") as f, open(keep, "wb") as k, open(absent, "wb") as a:
    for entry in f.read().split(b"\0"):
        if not entry: continue
        meta, path = entry.split(b"\t", 1)
        if meta.split()[2].decode() in gone: a.write(path + b"\n")
        else: k.write(entry + b"\0")
PY
git -C "$tmp/src.git" update-index -z --index-info < "$tmp/keep"
tree="$(git -C "$tmp/src.git" write-tree)"
unset GIT_INDEX_FILE
subject="$(git -C "$tmp/src.git" log -1 --format=%s HEAD 2>/dev/null || true)"
commit="$(GIT_AUTHOR_NAME=corpus GIT_AUTHOR_EMAIL=corpus@localhost GIT_COMMITTER_NAME=corpus GIT_COMMITTER_EMAIL=corpus@localhost \
  git -C "$tmp/src.git" commit-tree "$tree" -m "corpus: tree of $head ($(wc -l < "$tmp/missing") absent blob(s) left out)" -m "$subject")"
git -C "$tmp/src.git" update-ref refs/heads/corpus "$commit"
git -C "$tmp/src.git" bundle create -q "$tmp/head.bundle" refs/heads/corpus
git -C "$out" fetch -q "$tmp/head.bundle" refs/heads/corpus
git -C "$out" reset -q --hard FETCH_HEAD
echo "$head" > "$out/.git/corpus-source-commit"
echo "$out: $(git -C "$out" ls-files | wc -l) files (source $head, $(wc -l < "$out/.git/corpus-absent") absent file(s) left out)"
