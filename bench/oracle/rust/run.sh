#!/usr/bin/env bash
# Reference call graph of the Rust crates of a corpus: run.sh <repo-dir> <out.jsonl>
# The crates of each corpus (by the repository folder's name) are listed in
# crates.tsv beside this script. Needs rustup's nightly toolchain (rustc and
# rustdoc with -Z flags); nothing is downloaded, so only crates that build
# without other crates are listed.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
(cd "$here/../../.." && go build -o "$bin/rustcallgraph" ./bench/oracle/rust)
"$bin/rustcallgraph" -spec "$here/crates.tsv" "$1" "$2"
