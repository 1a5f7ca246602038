#!/usr/bin/env bash
# compare.sh: two builds of gitnexus side by side on the same one-file edits.
#
# Each build gets its own clone of the repository (and its own GITNEXUS_HOME) and indexes it in
# full. Then, N times, the same function is appended to the same file in both clones and each build
# re-indexes its clone with `gitnexus analyze`, the build that goes first alternating; with -c the
# edit is committed first (what the post-commit hook's run finds). Prints wall times (median, min,
# max) per build and the ratio of the second's median to the first's, and the median of each phase
# the summary times (phaseMillis); per-run times and phases go to the TSV file. Each clone's git
# index is refreshed once after cloning (a second later, so that no file is as new as the index),
# as a work tree's own git commands keep it.
#
# Usage: bench/incremental/compare.sh [-n N] [-c] [-f file] [-o results.tsv] <old gitnexus> <new gitnexus> <repository>
#   -f: the file to edit, relative to the repository (default as in run.sh).
# Environment: SCRATCH (default /work/scratch/incremental).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCRATCH=${SCRATCH:-/work/scratch/incremental}
n=8 commit=0 file="" tsv=""

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:cf:o:h" opt; do
	case $opt in
	n) n=$OPTARG ;;
	c) commit=1 ;;
	f) file=$OPTARG ;;
	o) tsv=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || usage 2
bins=("$(realpath "$1")" "$(realpath "$2")")
# shellcheck source=lib.sh
. "$here/lib.sh"
src=$(cd "$3" && pwd)
name=$(basename "$src")
work=$SCRATCH/compare-$name
rm -rf "$work"
mkdir -p "$work"
for k in 0 1; do
	mkdir -p "$work/home$k"
	clone_repo "$src" "$work/repo$k"
done
# A work tree's own git commands keep its index's file times current and
# older than the index; in a fresh clone they are as new as the index
# ("racily clean"), and every `git status --no-optional-locks` (which does
# not write the index) hashes those files again: 53 against 17 ms on trpc.
sleep 1.1
for k in 0 1; do
	git -C "$work/repo$k" status >/dev/null
done
[ -n "$file" ] || file=$(default_file "$work/repo0")
[ -f "$work/repo0/$file" ] || { say "no file $file to edit"; exit 2; }
[ -n "$tsv" ] || tsv=$work/results.tsv
say "editing $file; $n edits"

snippet() {
	case $file in
	*.go) printf '\nfunc gnxCompareEdit%s() int { return %s }\n' "$1" "$1" ;;
	*.ts | *.js | *.mjs | *.cjs) printf '\nexport function gnxCompareEdit%s() { return %s; }\n' "$1" "$1" ;;
	*.py) printf '\n\ndef gnx_compare_edit_%s():\n    return %s\n' "$1" "$1" ;;
	*) say "no snippet for $file"; exit 2 ;;
	esac
}
analyze() { # build index, extra args
	env GITNEXUS_HOME="$work/home$1" "${bins[$1]}" analyze --json -q "${@:2}" "$work/repo$1"
}
for k in 0 1; do
	say "full index: build $k"
	analyze "$k" --force >/dev/null
done
echo "edit	build	wall_ms	phases" >"$tsv"
load_start=$(uptime)
for i in $(seq 1 "$n"); do
	for k in 0 1; do
		snippet "$i" >>"$work/repo$k/$file"
		if [ "$commit" = 1 ]; then
			git -C "$work/repo$k" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q -am "compare edit $i"
		fi
	done
	order="0 1"
	[ $((i % 2)) = 0 ] && order="1 0"
	for k in $order; do
		t0=$(date +%s%N)
		out=$(analyze "$k")
		t1=$(date +%s%N)
		echo "$i	$k	$(((t1 - t0) / 1000000))	$(jq -c '.summary.phaseMillis' <<<"$out")" >>"$tsv"
	done
done
load_end=$(uptime)
python3 - "$tsv" "$name" "$file" "$commit" "$load_start" "$load_end" "${bins[@]}" <<'EOF'
import json, statistics, sys
tsv, name, file, commit, l0, l1, b0, b1 = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
t = {k: [int(r[2]) for r in rows if r[1] == k] for k in ("0", "1")}
what = "committed" if commit == "1" else "saved"
print(f"{name}, {what} edits appending a function to {file}, {len(t['0'])} each, alternating.")
print(f"Load at start: {l0.split('load average:')[-1].strip()}; at end: {l1.split('load average:')[-1].strip()}.\n")
print("| build | median | min | max |")
print("|---|---:|---:|---:|")
for k, b in (("0", b0), ("1", b1)):
    ts = t[k]
    print(f"| {b} | {statistics.median(ts)/1000:.3f} s | {min(ts)/1000:.3f} s | {max(ts)/1000:.3f} s |")
print(f"\nSecond build's median over the first's: {statistics.median(t['1'])/statistics.median(t['0']):.2f}")
# The phases the summary times (phaseMillis), median per build.
phases = {k: [json.loads(r[3]) for r in rows if r[1] == k and r[3] not in ("", "null")] for k in ("0", "1")}
names = [p for p in ("walk", "parse", "resolve", "enrich", "history", "embed", "store")
         if any(p in ph for k in phases for ph in phases[k])]
if names:
    print("\n| phase (median ms) | first | second |")
    print("|---|---:|---:|")
    for p in names:
        cells = [statistics.median([ph.get(p, 0) for ph in phases[k]]) if phases[k] else 0 for k in ("0", "1")]
        print(f"| {p} | {cells[0]:.0f} | {cells[1]:.0f} |")
EOF
