#!/usr/bin/env bash
# The fresh-machine check: a clean clone of this repository, the README's
# first command in it (make analyze on a small sample repository) and a
# query, a rebuild that says nothing, then `gitnexus setup --dry-run --agent
# all` and `gitnexus doctor`, all with an empty home directory, and make
# release. (The README's second command, make test, is what CI runs on its
# own fresh clone; running it here would recurse.)
#
# A first build with an empty Go build cache compiles SQLite and the
# tree-sitter grammars, and says so before it starts. That is checked with
# an empty cache too, but only as far as the word: the build is stopped
# once it has said it (a few seconds), because the whole of it takes
# minutes (5m20s on 2 cores), and make test must stay within its time.
# With GITNEXUS_FRESH_COLD=1, everything here builds with a cache of its
# own, empty at first, instead: make analyze says it, builds in full and
# indexes the sample, which answers the query, and make release compiles
# both architectures from nothing (9m23s for the whole check, against 27 s
# warm).
#
# Otherwise the Go build and module caches are the caller's, and the clone
# builds with -trimpath, so that packages compiled by an earlier run in
# another temporary directory are reused: a run compiles only the packages
# that changed since the last one (the first run compiles the parsers' C
# code too, once). Only this check (and packaging/dockerfile-check.sh)
# builds with -trimpath: `go vet` in the work tree must not reuse cgo
# packages compiled in a clone that is gone.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$PATH:/usr/local/go/bin"
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
flags=$(go env GOFLAGS)
[[ " $flags " == *" -trimpath "* ]] || flags="$flags -trimpath"
export GOFLAGS="$flags"
export GOPROXY=$(go env GOPROXY) GOSUMDB=$(go env GOSUMDB) GOTOOLCHAIN=$(go env GOTOOLCHAIN)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" GITNEXUS_HOME="$tmp/home/.gitnexus"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_CONFIG_HOME
mkdir -p "$HOME"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=fresh GIT_AUTHOR_EMAIL=fresh@example.com \
  GIT_COMMITTER_NAME=fresh GIT_COMMITTER_EMAIL=fresh@example.com

fail() { echo "fresh: $*" >&2; exit 1; }

git clone -q "$src" "$tmp/gitnexus"

# The word before a long build: with an empty build cache, make build says
# that it compiles SQLite and the grammars before it compiles anything.
notice='^build: compiling SQLite and 13 tree-sitter grammars for linux/amd64 .*several minutes'
if [[ -n "${GITNEXUS_FRESH_COLD:-}" ]]; then
	# Everything below builds with a cache of its own, empty at first.
	export GOCACHE="$tmp/gocache"
else
	# In a session of its own, so that stopping it stops go build too.
	GOCACHE="$tmp/gocache" setsid make -s -C "$tmp/gitnexus" build > "$tmp/cold.out" 2>&1 &
	build=$!
	for _ in $(seq 600); do
		grep -q "$notice" "$tmp/cold.out" && break
		kill -0 "$build" 2>/dev/null || break
		sleep 0.1
	done
	kill -- -"$build" 2>/dev/null || true
	wait "$build" 2>/dev/null || true
	while kill -0 -- -"$build" 2>/dev/null; do sleep 0.1; done # go build and the compilers it started
	grep -q "$notice" "$tmp/cold.out" || { cat "$tmp/cold.out"; fail "a build with an empty cache did not say that it compiles the C code"; }
	rm -rf "$tmp/gocache" "$tmp/gitnexus/bin"
fi

# A small repository to index.
sample="$tmp/sample"
mkdir -p "$sample/greet"
printf 'module example.com/sample\n\ngo 1.22\n' > "$sample/go.mod"
printf 'package greet\n\n// Hello greets.\nfunc Hello(name string) string { return prefix() + name }\n\nfunc prefix() string { return "hello, " }\n' > "$sample/greet/greet.go"
printf 'package main\n\nimport "example.com/sample/greet"\n\nfunc main() { println(greet.Hello("you")) }\n' > "$sample/main.go"
git -C "$sample" init -q -b main
git -C "$sample" add -A
git -C "$sample" commit -q -m "sample"

# The README's first command.
make -s -C "$tmp/gitnexus" analyze REPO="$sample" > "$tmp/analyze.out" 2>&1 || { cat "$tmp/analyze.out"; fail "make analyze failed"; }
grep -q "Indexed $sample" "$tmp/analyze.out" || { cat "$tmp/analyze.out"; fail "make analyze did not index the sample"; }
grep -q "index is fresh" "$tmp/analyze.out" || { cat "$tmp/analyze.out"; fail "make analyze did not report a fresh index"; }
if [[ -n "${GITNEXUS_FRESH_COLD:-}" ]]; then
	grep -q "$notice" "$tmp/analyze.out" || { cat "$tmp/analyze.out"; fail "make analyze with an empty cache did not say it compiles the C code"; }
	grep "^build: done in " "$tmp/analyze.out" >&2 || { cat "$tmp/analyze.out"; fail "make analyze with an empty cache did not say when its build was done"; }
fi
bin="$tmp/gitnexus/bin/gitnexus"

# The index answers.
"$bin" context prefix --repo sample > "$tmp/context.out" 2>&1 || { cat "$tmp/context.out"; fail "context prefix failed"; }
grep -q 'Hello' "$tmp/context.out" || { cat "$tmp/context.out"; fail "context prefix does not name its caller Hello"; }

# A rebuild with the cache warm says nothing.
make -s -C "$tmp/gitnexus" build > "$tmp/rebuild.out" 2>&1 || { cat "$tmp/rebuild.out"; fail "make build again failed"; }
[[ ! -s "$tmp/rebuild.out" ]] || { cat "$tmp/rebuild.out"; fail "make build with a warm cache printed something"; }

before=$(find "$HOME" | sort)
"$bin" setup --dry-run --agent all > "$tmp/setup.out" || { cat "$tmp/setup.out"; fail "setup --dry-run --agent all failed"; }
for agent in "Claude Code" Cursor Codex OpenCode "Gemini CLI"; do
  grep -q "^$agent  *would create" "$tmp/setup.out" || { cat "$tmp/setup.out"; fail "setup --dry-run does not show $agent"; }
done
[ "$(find "$HOME" | sort)" = "$before" ] || fail "setup --dry-run wrote into the home directory: $(diff <(echo "$before") <(find "$HOME" | sort))"

"$bin" doctor > "$tmp/doctor.out" || { cat "$tmp/doctor.out"; fail "doctor found problems"; }
grep -q "ok  *sample " "$tmp/doctor.out" || { cat "$tmp/doctor.out"; fail "doctor does not report the sample as ok"; }

# The release tarball: the binary runs from wherever it is unpacked.
make -s -C "$tmp/gitnexus" release > "$tmp/release.out" 2>&1 || { cat "$tmp/release.out"; fail "make release failed"; }
tarball=$(ls "$tmp"/gitnexus/dist/gitnexus-*-linux-amd64.tar.gz)
mkdir "$tmp/unpacked"
tar -C "$tmp/unpacked" -xzf "$tarball"
"$tmp"/unpacked/gitnexus-*/gitnexus --version | grep -q "^gitnexus .*(commit [0-9a-f]\{12\}, built 20" || fail "the released binary does not say its version, commit and date"
grep -q '^C library: glibc 2\.[0-9]* or newer$' "$tmp"/unpacked/gitnexus-*/REQUIREMENTS || fail "the amd64 archive does not name its glibc: $(cat "$tmp"/unpacked/gitnexus-*/REQUIREMENTS)"
arm=$(ls "$tmp"/gitnexus/dist/gitnexus-*-linux-arm64.tar.gz)
tar -C "$tmp/unpacked" -xzf "$arm" --wildcards '*/gitnexus' '*/REQUIREMENTS'
file -b "$tmp"/unpacked/gitnexus-*-linux-arm64/gitnexus | grep -q 'ELF 64-bit .*ARM aarch64' || fail "the arm64 archive's binary is not an arm64 binary"
grep -q '^C library: glibc 2\.[0-9]* or newer$' "$tmp"/unpacked/gitnexus-*-linux-arm64/REQUIREMENTS || fail "the arm64 archive does not name its glibc"
[[ $(wc -l < "$tmp/gitnexus/dist/SHA256SUMS") == 2 ]] || fail "SHA256SUMS does not cover both archives: $(cat "$tmp/gitnexus/dist/SHA256SUMS")"
(cd "$tmp/gitnexus/dist" && sha256sum -c --quiet SHA256SUMS) || fail "SHA256SUMS does not match the archives"

echo "fresh: clone, the build's word with an empty cache, make analyze, a query, a quiet rebuild, setup --dry-run --agent all, doctor and make release (amd64, arm64): ok"
