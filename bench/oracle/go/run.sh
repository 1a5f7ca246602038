#!/usr/bin/env bash
# Reference call graph of a Go repository: run.sh <repo-dir> <out.jsonl>
# Writes the edges to <out.jsonl> and the analyzed files to <out.jsonl>.files.
# For the Go standard library pass $(go env GOROOT)/src; ORACLE_GO_CMD=1 also
# loads cmd (its own module under src/cmd).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
(cd "$here" && go build -o "$bin/gocallgraph" .)
flags=()
if [ "${ORACLE_GO_CMD:-}" = 1 ]; then
  flags+=(-cmd)
fi
"$bin/gocallgraph" "${flags[@]}" -files "$2.files" -out "$2" "$1"
