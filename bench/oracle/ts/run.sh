#!/usr/bin/env bash
# TypeScript/JavaScript call-graph oracle: run.sh <repo-dir> <out.jsonl>
# Installs the pinned typescript package beside this script on first use.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -f "$here/node_modules/typescript/package.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --silent)
fi
exec node --max-old-space-size=8192 "$here/oracle.js" "$1" "$2"
