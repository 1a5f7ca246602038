#!/usr/bin/env bash
# Runs the C oracle on selftest/repo and compares its edges and its
# unresolved sites with selftest/want*.jsonl, written by hand: a static
# function, a static inline function of a header, a call in a macro's
# arguments (an edge) and one in a macro's body (none), a call through a
# function pointer (indirect) and a name two programs define (unresolved).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/run.sh" "$here/selftest/repo" "$out/got.jsonl"
diff -u "$here/selftest/want.jsonl" "$out/got.jsonl"
diff -u "$here/selftest/want.unresolved.jsonl" "$out/got.jsonl.unresolved.jsonl"
echo "c oracle: selftest passed"
