#!/usr/bin/env bash
# run.sh: soak test of `gitnexus serve` (not part of `make test`).
#
# Clones the repository given (default: this one) into $SCRATCH/repo at its HEAD, builds bin/gitnexus
# (unless BIN is set) and the soak program, and runs it: CLIENTS well-formed clients for DURATION,
# an edit and `gitnexus analyze` every REINDEX, and a hostile client (bench/soak/main.go says what
# it sends). Prints a markdown report; exits non-zero when a well-formed request failed or a hostile
# one got another answer than the 4xx it calls for.
#
# Usage: bench/soak/run.sh [repository]
# Environment: SCRATCH (default /work/scratch/soak), BIN, CLIENTS (4), DURATION (10m), REINDEX (10s),
#   STALLED (100).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SCRATCH=${SCRATCH:-/work/scratch/soak}
src=$(cd "${1:-$root}" && pwd)
if [ "${1:-}" = "-h" ] || ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
fi
bin=${BIN:-}
if [ -z "$bin" ]; then
	make -C "$root" --no-print-directory build >&2
	bin=$root/bin/gitnexus
fi
rm -rf "$SCRATCH/repo" "$SCRATCH/home"
mkdir -p "$SCRATCH/home"
git clone -q "$src" "$SCRATCH/repo"
(cd "$root" && go build -o "$SCRATCH/soak" ./bench/soak)
echo "$(git -C "$SCRATCH/repo" rev-parse --short HEAD) of $(basename "$src"); $(date -u +%Y-%m-%dT%H:%MZ)"
"$SCRATCH/soak" -bin "$bin" -home "$SCRATCH/home" -repo-path "$SCRATCH/repo" \
	-clients "${CLIENTS:-4}" -duration "${DURATION:-10m}" -reindex "${REINDEX:-10s}" -stalled "${STALLED:-100}"
