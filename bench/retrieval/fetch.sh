#!/bin/sh
# fetch.sh [DIR]: clone every repository of repos.tsv into DIR/<name>
# (default /work/scratch/retrieval) with its whole history, checked out at
# its pinned commit, for `go run -tags sqlite_fts5 ./bench/retrieval`.
#
# Where the history comes from: all of these are public GitHub
# repositories (the source column). With BENCH_MIRRORS set, each is cloned
# from $BENCH_MIRRORS/<owner>+<name>/repo, a bare copy of the GitHub
# repository (the layout a workplace without network keeps its snapshots
# in: /work/.mirror there); otherwise from GitHub itself. The snapshot
# must hold the pinned commit; a newer one does, since the bench reads the
# first-parent history up to the pinned commit only.
#
# A checkout that exists already is checked out at its pinned commit
# (its .gitnexus index is kept); one with changes to tracked files stops
# the script.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-/work/scratch/retrieval}
mkdir -p "$dir"

grep -v '^#' "$here/repos.tsv" | while IFS="$(printf '\t')" read -r name source commit language set; do
	[ -n "$name" ] || continue
	slug=${source#github:}
	if [ -n "${BENCH_MIRRORS:-}" ]; then
		url="$BENCH_MIRRORS/$(echo "$slug" | tr / +)/repo"
	else
		url="https://github.com/$slug.git"
	fi
	target="$dir/$name"
	if [ ! -d "$target/.git" ]; then
		echo "clone $slug ($language, $set set) from $url" >&2
		git clone --quiet "$url" "$target"
	fi
	if ! git -C "$target" cat-file -e "$commit^{commit}" 2>/dev/null; then
		git -C "$target" fetch --quiet origin || true
	fi
	if ! git -C "$target" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "$target lacks the pinned commit $commit: get a newer copy of $source" >&2
		exit 1
	fi
	if [ -n "$(git -C "$target" status --porcelain --untracked-files=no)" ]; then
		echo "$target has changes to tracked files: commit or drop them first" >&2
		exit 1
	fi
	git -C "$target" checkout --quiet --detach "$commit"
	echo "$name at $(git -C "$target" rev-parse --short=12 HEAD)" >&2
done
