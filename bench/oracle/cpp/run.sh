#!/usr/bin/env bash
# Reference call graph of a C++ repository: run.sh <repo-dir> <out.jsonl>
# Needs Debian's clang 14 Python bindings (python3-clang-14) and libclang.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/callgraph.py" "$1" "$2"
