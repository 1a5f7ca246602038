#!/usr/bin/env bash
# Runs the C++ oracle on selftest/repo and compares its edges and its
# unresolved sites with selftest/want*.jsonl, checked by hand: an
# out-of-line constructor and method, a pure virtual method called through
# a reference (its declaration, and dispatch to both overrides), a call
# qualified by the class (no dispatch), std::make_unique (the constructor),
# a copy (no call), a call in a macro's arguments (an edge) and one in a
# macro's body (none), and a dependent call in a function template
# (unresolved).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/run.sh" "$here/selftest/repo" "$out/got.jsonl"
diff -u "$here/selftest/want.jsonl" "$out/got.jsonl"
diff -u "$here/selftest/want.unresolved.jsonl" "$out/got.jsonl.unresolved.jsonl"
echo "cpp oracle: selftest passed"
