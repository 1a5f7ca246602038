#!/bin/sh
# compare.sh BEFORE-BINARY AFTER-BINARY REPO...
#
# Indexes each repository with both binaries, each into a clone of its own
# and a GITNEXUS_HOME of its own, and requires the node, edge and full-text
# tables of the two indexes to be identical row for row (the clone's path
# is replaced by REPO where it appears in a row). Prints one line per
# repository and exits 1 when any differs; the differing dumps stay in the
# work directory it names.
set -eu
if [ $# -lt 3 ]; then
	echo "usage: $0 BEFORE-BINARY AFTER-BINARY REPO..." >&2
	exit 2
fi
before=$1 after=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/identical.XXXXXX")
status=0
dump() { # dump DB CLONE OUT
	for q in "SELECT * FROM node ORDER BY rid" \
		"SELECT * FROM edge ORDER BY rowid" \
		"SELECT * FROM search_data ORDER BY id" \
		"SELECT * FROM search_idx ORDER BY segid, term, pgno" \
		"SELECT * FROM search_docsize ORDER BY id"; do
		echo "== $q"
		sqlite3 "$1" "$q"
	done | sed "s|$2|REPO|g" >"$3"
}
for repo in "$@"; do
	name=$(basename "$repo")
	for side in before after; do
		bin=$before
		[ $side = after ] && bin=$after
		clone=$work/$name-$side
		git clone -q "$repo" "$clone"
		GITNEXUS_HOME=$work/home-$side "$bin" analyze -q --no-history --force "$clone" >"$work/$name-$side.log" 2>&1
		dump "$clone/.gitnexus/graph.db" "$clone" "$work/$name-$side.dump"
	done
	if cmp -s "$work/$name-before.dump" "$work/$name-after.dump"; then
		echo "$name: identical ($(grep -vc '^== ' "$work/$name-before.dump") rows)"
	else
		echo "$name: DIFFERENT (see $work/$name-before.dump and $work/$name-after.dump)"
		status=1
	fi
done
[ $status = 0 ] && rm -rf "$work"
exit $status
