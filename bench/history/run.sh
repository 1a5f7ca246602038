#!/usr/bin/env bash
# Times the git history stage of `gitnexus analyze` on a repository and
# prints commits per second for the file-level history (listing the
# commits and reading the files each changed) and for the whole history
# with symbols (file level, diffs, and each version mapped onto symbols).
#
#   bench/history/run.sh <repository> [analyze flags...]
#
# The repository must be a clone outside this one (its .gitnexus/ is
# rewritten). Each run uses --force, so nothing is reused from an earlier
# index, and --wait-history, so that the whole history is read before
# analyze returns (bench/history/vs.sh times the default, which leaves the
# older commits to the background). The numbers come from the analyze summary (--json): history.listMillis,
# history.logMillis and phaseMillis.history; wall time, CPU and peak memory
# from /usr/bin/time.
set -euo pipefail
repo=${1:?usage: run.sh <repository> [analyze flags...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${GITNEXUS_BIN:-$here/../../bin/gitnexus}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GITNEXUS_HOME=${GITNEXUS_HOME:-$out/home}

echo "repository: $repo ($(git -C "$repo" rev-list --count HEAD) commits reachable from HEAD, $(git -C "$repo" rev-list --first-parent --count HEAD) first-parent)"
echo "flags:      $*"
echo "machine:    $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$bin" analyze --force --wait-history --json -q "$@" "$repo" >"$out/summary.json"
read -r wall user sys rss <"$out/time"
python3 - "$out/summary.json" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
wall, user, sys_, rss = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
h, ph = s["history"], s["phaseMillis"]
n = h["commits"]
files_ms = h["listMillis"] + h["logMillis"]
total_ms = ph["history"]
print(f"commits:    {n} ({h['guarded']} over --max-commit-files, {h.get('missingObjects', 0)} with missing objects)")
print(f"records:    {h['fileChanges']} file changes, {h['symbolChanges']} symbol changes, "
      f"{h['historicalSymbols']} historical symbols, {h['reverts']} reverts")
print(f"blobs:      {h['blobsParsed']} parsed ({h['blobsDerived']} derived from the next version, "
      f"{h.get('blobsDiffed', 0)} from another version through a line diff), {h['parseCacheHits']} parse cache hits")
print(f"file level: {files_ms/1000:.2f} s (list {h['listMillis']} ms, log {h['logMillis']} ms) = {n/(files_ms/1000):.0f} commits/s")
print(f"symbols:    {h['symbolMillis']/1000:.1f} s for diffs and symbols")
print(f"history:    {total_ms/1000:.1f} s in all (with linking) = {n/(total_ms/1000):.0f} commits/s")
print(f"analyze:    {wall:.1f} s wall, {user:.1f} s user, {sys_:.1f} s sys, {rss/1024:.0f} MiB peak; phases (ms): {ph}")
PY
