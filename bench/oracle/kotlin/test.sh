#!/usr/bin/env bash
# Runs the Kotlin oracle on selftest/repo and compares its edges with
# selftest/want.txt, written by hand: an interface with a default method and
# three implementations (dispatch, super calls), a class calling its supertype's
# constructor in its header, a secondary constructor, a companion object, a
# custom getter, an extension function, a data class with a default
# argument and an open method called without its default argument, lambdas
# (inlined and not), a local function and an anonymous
# object. Needs Debian's kotlin package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/run.sh" "$here/selftest/repo" "$out/got.jsonl" 2> >(grep -v -e '^OpenJDK' >&2)
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
grep -v '^#' "$here/selftest/want.txt" | sort >"$out/want.sorted"
sort "$out/got.txt" >"$out/got.sorted"
diff -u "$out/want.sorted" "$out/got.sorted"
echo "kotlin oracle: selftest passed ($(wc -l <"$out/want.sorted") edges)"
