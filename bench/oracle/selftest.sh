#!/usr/bin/env bash
# Runs each oracle on its fixture (python/selftest, ts/selftest) and compares
# the edges with the fixture's want.jsonl, written by hand from the
# conventions. Prints the differences and a closing 'N passed, N failed'.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() {
  local name="$1" want="$2" got="$3"
  if diff -u "$want" "$got" > "$tmp/$name.diff"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; cat "$tmp/$name.diff"
  fi
}
"$here/python/run.sh" "$here/python/selftest" "$tmp/py.jsonl" 2> "$tmp/py.log" || cat "$tmp/py.log"
check python "$here/python/selftest/want.jsonl" "$tmp/py.jsonl"
"$here/ts/run.sh" "$here/ts/selftest" "$tmp/ts.jsonl" 2> "$tmp/ts.log" || cat "$tmp/ts.log"
check ts "$here/ts/selftest/want.jsonl" "$tmp/ts.jsonl"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
