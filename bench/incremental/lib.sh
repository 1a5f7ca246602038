# lib.sh: what run.sh and watch.sh share. Source it after setting root (the repository of
# gitnexus).

say() { printf '%s\n' "$*" >&2; }

# start sets src (the repository $1, absolute) and name (its base name), and builds bin/gitnexus,
# setting ours to its path.
start() {
	src=$(cd "$1" && pwd)
	name=$(basename "$src")
	ours=$root/bin/gitnexus
	say "building ours: make build"
	make -C "$root" build >/dev/null
}

# clone_repo makes $2 a work tree of the repository $1: a clone of a git repository (a copy when
# it cannot be cloned, e.g. a clone missing objects), else a copy made a git work tree with one
# commit.
clone_repo() {
	local src=$1 dst=$2
	if [ -e "$src/.git" ]; then
		git clone -q --no-hardlinks "$src" "$dst" 2>/dev/null || { rm -rf "${dst:?}"; cp -a "$src" "$dst"; }
	else
		cp -a "$src" "$dst"
		git -C "$dst" init -q
		git -C "$dst" add -A
		git -C "$dst" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q -m "import"
	fi
}

# default_file prints the file an edit goes to in the work tree $1: the largest .go, .ts, .js or
# .py file git tracks outside tests and vendored trees.
default_file() {
	(cd "$1" && git ls-files '*.go' '*.ts' '*.js' '*.py' | grep -Ev '(^|/)(vendor|node_modules|testdata|third_party)/|_test\.go$|\.test\.|\.spec\.|\.d\.ts$|\.min\.js$' |
		xargs -d '\n' wc -c 2>/dev/null | grep -v ' total$' | sort -n | tail -1 | awk '{ print $2 }')
}
