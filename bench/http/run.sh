#!/usr/bin/env bash
# run.sh: load test of `gitnexus serve` over a large index with history.
#
# Builds bin/gitnexus (unless BIN is set), indexes the repository with its history into a registry
# of its own ($SCRATCH/home; a fresh index is left alone), then runs the load program
# (bench/http/main.go) once per client count: it starts the server on 127.0.0.1, drives bounded
# passes on GET /api/v1/file/{path}/commits and POST /api/v1/tools/impact, stops the server by its
# PID and prints a markdown report. Exits non-zero if any request failed.
#
# Usage: bench/http/run.sh [repository]      (default: $SCRATCH/flask)
# Environment: SCRATCH (default /work/scratch/httpbench), BIN (a built gitnexus), CLIENTS (client
#   counts, default "1 8 32"), REQUESTS (per pass, default 20000), MAX_DURATION (per pass, default 60s).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/httpbench}
CLIENTS=${CLIENTS:-1 8 32}
REQUESTS=${REQUESTS:-20000}
MAX_DURATION=${MAX_DURATION:-60s}
repo=$(cd "${1:-$SCRATCH/flask}" && pwd)
home=$SCRATCH/home

if [ "${1:-}" = "-h" ] || [ ! -d "$repo/.git" ]; then
	sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
	[ -d "$repo/.git" ] || echo "no git repository at $repo (see bench/http/README.md)" >&2
	exit 2
fi

bin=${BIN:-}
if [ -z "$bin" ]; then
	make -C "$root" --no-print-directory build >&2
	bin=$root/bin/gitnexus
fi
mkdir -p "$home"
echo "indexing $repo (GITNEXUS_HOME=$home)" >&2
GITNEXUS_HOME=$home "$bin" analyze "$repo" >&2
(cd "$root" && go build -o "$SCRATCH/http-load" ./bench/http)

echo "$(git -C "$repo" rev-parse --short HEAD) of $(basename "$repo"), $(git -C "$repo" rev-list --first-parent --count HEAD) first-parent commits; $(date -u +%Y-%m-%dT%H:%MZ)"
echo
for c in $CLIENTS; do
	"$SCRATCH/http-load" -bin "$bin" -home "$home" -repo-path "$repo" -clients "$c" \
		-requests "$REQUESTS" -max-duration "$MAX_DURATION"
	echo
done
