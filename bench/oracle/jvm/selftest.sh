#!/usr/bin/env bash
# selftest.sh <oracle-dir> <name>: runs the oracle's run.sh on its
# selftest/repo and compares the edges, one line each
# (`kind file:line caller [kind] -> file:line callee @site-line`), with
# selftest/want.txt, written by hand. Shared by the Kotlin and Scala
# oracles' test.sh.
set -euo pipefail
dir="$(cd "$1" && pwd)"
name="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$dir/run.sh" "$dir/selftest/repo" "$out/got.jsonl" 2> >(grep -v -e '^OpenJDK' >&2)
python3 - "$out/got.jsonl" >"$out/got.txt" <<'PY'
import json, sys
def end(e):
    return f"{e['file'].rsplit('/', 1)[-1]}:{e['line']}"
for l in open(sys.argv[1]):
    e = json.loads(l)
    c, d = e["caller"], e["callee"]
    kind = f" {c['kind']}" if "kind" in c else ""
    print(f"{e['kind']} {end(c)} {c['name']}{kind} -> {end(d)} {d['name']} @{e['site']['line']}")
PY
grep -v '^#' "$dir/selftest/want.txt" | sort >"$out/want.sorted"
sort "$out/got.txt" >"$out/got.sorted"
diff -u "$out/want.sorted" "$out/got.sorted"
echo "$name oracle: selftest passed ($(wc -l <"$out/want.sorted") edges)"
