#!/usr/bin/env bash
# Communities and processes on real code of each language: community count,
# size distribution, modularity, process count and time, plus 10 processes
# per corpus (chosen at random, seed 1) with the source line of every call,
# for checking by hand. Nothing is written into the corpora. Results and
# the hand check: bench/flows/RESULTS.md.
#
#   bench/flows/run.sh OUT_DIR [JAVA_REPO]
#
# Corpora: the Go standard library ($(go env GOROOT)/src), the Python
# standard library of python3, the npm CLI (lib/ of `npm root -g`/npm), and
# a Java repository given as JAVA_REPO (junit4 in RESULTS.md).
set -euo pipefail
out=${1:?usage: run.sh OUT_DIR [JAVA_REPO]}
java=${2:-}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
go build -tags sqlite_fts5 -o "$out/flows" ./bench/flows

run() { # name dir [extra flags]
	local name=$1 dir=$2
	shift 2
	echo "== $name ($dir)" >&2
	/usr/bin/time -f "%e s wall, %M KiB max RSS" "$out/flows" -repo "$dir" -largest 8 -sample 10 "$@" \
		>"$out/$name.txt" 2>"$out/$name.time"
}

run go "$(go env GOROOT)/src" -resolution 0,1,2 -hub 0,-1,40
# The standard library may sit in an ignored corner of a git work tree
# (pyenv): index a copy, without site-packages.
py=$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
rm -rf "$out/python-stdlib" && mkdir -p "$out/python-stdlib"
tar -C "$py" --exclude=site-packages --exclude=__pycache__ -cf - . | tar -C "$out/python-stdlib" -xf -
run python "$out/python-stdlib" -resolution 0,1 -hub 0,-1
run npm "$(npm root -g)/npm" -resolution 0,1 -hub 0,-1
if [ -n "$java" ]; then
	run java "$java" -resolution 0,1 -hub 0,-1
fi
head -n 20 "$out"/*.txt
