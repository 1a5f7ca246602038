#!/usr/bin/env bash
# watch.sh: time a one-file edit under `gitnexus analyze --watch`, from the write to the committed
# graph.
#
# The repository is cloned into the scratch directory and indexed in full; then the watcher runs
# in the background, and N times the same new function is appended to one file. Each edit is timed
# from the write until meta.json shows a new generation (meta.json is written once the index's
# transaction has committed). Prints the latencies (median, min, max) and the watcher's own run
# times (totalMillis, from a run's start to its committed graph). With -b, another gitnexus
# binary (an earlier build) watches a second clone and the edits alternate between the two, so
# that both are measured side by side.
#
# Usage: bench/incremental/watch.sh [-n N] [-d debounce] [-f file] [-b other-binary] <repository>
#   -n: edits (default 8); -d: the watcher's --debounce (default 50ms); -f: the file to edit,
#       relative to the repository (default: the largest .go, .ts, .js or .py file git tracks
#       outside tests and vendored trees).
# Environment: SCRATCH (default /work/scratch/incremental).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/incremental}
n=8 debounce=50ms file="" other=""

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:d:f:b:h" opt; do
	case $opt in
	n) n=$OPTARG ;;
	d) debounce=$OPTARG ;;
	f) file=$OPTARG ;;
	b) other=$(realpath "$OPTARG") ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
# shellcheck source=lib.sh
. "$here/lib.sh"
start "$1"

work=$SCRATCH/watch-$name
rm -rf "$work"
copies=ours
[ -n "$other" ] && copies="ours other"
for copy in $copies; do
	mkdir -p "$work/$copy/home"
	clone_repo "$src" "$work/$copy/repo"
done
[ -n "$file" ] || file=$(default_file "$work/ours/repo")
[ -f "$work/ours/repo/$file" ] || { say "no file $file to edit"; exit 2; }

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
for copy in $copies; do
	bin=$ours
	[ "$copy" = other ] && bin=$other
	say "full index: $copy"
	GITNEXUS_HOME=$work/$copy/home "$bin" analyze -q "$work/$copy/repo" >/dev/null
	GITNEXUS_HOME=$work/$copy/home "$bin" analyze --watch --debounce "$debounce" --json -q "$work/$copy/repo" \
		>"$work/$copy/watch.json" 2>"$work/$copy/watch.err" &
	pids+=($!)
done
say "watching; editing $file $n times"
# shellcheck disable=SC2086 # the copies are words
python3 "$here/watch_edits.py" "$work" "$file" "$n" "$debounce" "$name" $copies
