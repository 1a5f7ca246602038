#!/usr/bin/env bash
# Self-test of the Rust oracle: runs it on selftest/shapes, whose expected
# edges (selftest/shapes.want.jsonl) were checked by hand against the
# conventions of ../README.md, and fails on any difference.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/run.sh" "$here/selftest/shapes" "$out/shapes.jsonl"
diff -u "$here/selftest/shapes.want.jsonl" "$out/shapes.jsonl"
echo "rust oracle self-test: ok"
