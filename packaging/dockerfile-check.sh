#!/usr/bin/env bash
# Checks the Dockerfile without a Docker engine (make test runs it):
#
#   - every stage's base image is pinned to a version (a tag with a version
#     number, or a digest; never latest or no tag), the Go image is at
#     least go.mod's Go, and the build stage's Debian is the runtime's, so
#     that the binary finds the C library it was linked against;
#   - every file and directory COPY takes from the build context exists and
#     is not left out by .dockerignore;
#   - the build is `make build` (the Makefile's recipe, packaging/build.sh:
#     one source for both), and no RUN calls go build itself;
#   - that build works on the context Docker would send: the files git
#     knows, less .dockerignore, copied to a directory of their own; the
#     binary it makes runs, and takes the image's command (CMD) as
#     arguments;
#   - ENTRYPOINT runs the binary the runtime stage copies onto PATH.
#
# The context build compiles with -trimpath, like test/fresh, so that it
# shares the build cache with that check's builds in other directories.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

fail() { echo "dockerfile-check: $*" >&2; exit 1; }
[[ -f Dockerfile ]] || fail "no Dockerfile"

# The instructions, one a line: continuations joined, comments and the
# parser directive dropped.
instructions=$(sed -e '/^[[:space:]]*#/d' Dockerfile | sed -e ':a' -e '/\\$/{N; s/\\\n[[:space:]]*/ /; ba' -e '}' | sed -e '/^[[:space:]]*$/d')

# --- the base images --------------------------------------------------------
stages=()     # the stage names, in order
images=()     # the image of each stage
while read -r _ image rest; do
	name=$(sed -n 's/^[Aa][Ss] \([^ ]*\)$/\1/p' <<<"$rest")
	stages+=("${name:-stage${#stages[@]}}")
	images+=("$image")
done < <(grep -i '^FROM ' <<<"$instructions" | sed 's/--platform=[^ ]* //')
((${#images[@]} >= 2)) || fail "want a build stage and a runtime stage, found ${#images[@]} FROM lines"

for image in "${images[@]}"; do
	[[ " ${stages[*]} " == *" $image "* ]] && continue # a stage built above
	if [[ $image == *@sha256:* ]]; then
		continue
	fi
	tag=${image##*:}
	[[ $image == *:* && $tag != latest && $tag =~ [0-9]+\.[0-9]+ ]] ||
		fail "base image $image is not pinned to a version (name:1.2-variant or name@sha256:...)"
done

build_image=${images[0]}
runtime_image=${images[${#images[@]} - 1]}
[[ $build_image == golang:* ]] || fail "the build stage's image is $build_image, want golang:<version>-<debian>"
image_go=$(sed -n 's/^golang:\([0-9][0-9.]*\).*/\1/p' <<<"$build_image")
mod_go=$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)
[[ $(printf '%s\n' "$mod_go" "$image_go" | sort -V | head -1) == "$mod_go" ]] ||
	fail "the build image has Go $image_go, go.mod asks for $mod_go"

# Debian: the build's codename against the runtime's release number.
declare -A debian_release=([bullseye]=11 [bookworm]=12 [trixie]=13)
codename=$(sed -n 's/^golang:[^-]*-\([a-z]*\).*/\1/p' <<<"$build_image")
[[ -n "$codename" && -n "${debian_release[$codename]:-}" ]] ||
	fail "the build image $build_image names no Debian release (golang:<version>-bookworm, say)"
runtime_major=$(sed -n 's/^debian:\([0-9][0-9]*\).*/\1/p; s/^debian:\([a-z][a-z]*\).*/\1/p' <<<"$runtime_image")
[[ $runtime_major =~ ^[0-9]+$ ]] || runtime_major=${debian_release[$runtime_major]:-}
[[ "$runtime_major" == "${debian_release[$codename]}" ]] ||
	fail "the binary is built on Debian $codename (${debian_release[$codename]}) but runs on $runtime_image"

# --- what COPY takes from the context ----------------------------------------
# The context: the files git knows (tracked, and untracked ones it does not
# ignore) that exist, less what .dockerignore leaves out. Its patterns are
# matched as shell patterns against the path and each of its parent
# directories (`**/` also matching at the top), which is what the file's
# few lines need.
patterns=()
if [[ -f .dockerignore ]]; then
	while read -r p; do
		[[ -z "$p" || $p == \#* ]] && continue
		[[ $p == !* ]] && fail ".dockerignore exceptions (!) are not understood here: $p"
		patterns+=("${p%/}")
	done <.dockerignore
fi
ignored() {
	local path=$1 part p
	while :; do
		for p in "${patterns[@]}"; do
			# shellcheck disable=SC2053 # a pattern, on purpose
			[[ $path == $p || ($p == \*\*/* && ($path == ${p#\*\*/} || $path == */${p#\*\*/})) ]] && return 0
		done
		part=${path%/*}
		[[ $part == "$path" ]] && return 1
		path=$part
	done
}
context=()
while IFS= read -r f; do
	[[ -e $f ]] && ! ignored "$f" && context+=("$f")
done < <(git ls-files --cached --others --exclude-standard | sort -u)
((${#context[@]})) || fail "the build context is empty"

while read -r _ args; do
	[[ $args == *--from=* ]] && continue
	read -ra words <<<"$args"
	for src in "${words[@]:0:${#words[@]}-1}"; do
		[[ $src == --* ]] && continue
		src=${src#./}
		[[ $src == . ]] && continue
		ok=0
		for f in "${context[@]}"; do
			[[ $f == "$src" || $f == "$src"/* ]] && { ok=1; break; }
		done
		((ok)) || fail "COPY $src: not in the build context (missing, or left out by .dockerignore)"
	done
done < <(grep -i '^COPY ' <<<"$instructions")

# --- the build ----------------------------------------------------------------
runs=$(grep -i '^RUN ' <<<"$instructions")
grep -q 'go build' <<<"$runs" && fail "a RUN calls go build; build with make build, as the Makefile does"
[[ $(grep -c '\bmake build\b' <<<"$runs") == 1 ]] || fail "want one RUN with make build, found: $(grep -c '\bmake build\b' <<<"$runs")"
recipe=$(make -n build VERSION=x COMMIT=x DATE=x)
grep -q '^GO=.* packaging/build.sh ' <<<"$recipe" || fail "the Makefile's build no longer runs packaging/build.sh: $recipe"

# The essential equivalent of the build stage: the context in a directory
# of its own, make build there.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\0' "${context[@]}" | tar --null -T - -cf - | tar -C "$tmp" -xf -
flags=$(go env GOFLAGS)
[[ " $flags " == *" -trimpath "* ]] || flags="$flags -trimpath"
GOFLAGS="$flags" make -s -C "$tmp" build VERSION=dockerfile-check COMMIT=0000000000000000000000000000000000000000 ||
	fail "make build on the build context failed"
bin="$tmp/bin/gitnexus"
"$bin" --version | grep -q '^gitnexus dockerfile-check ' || fail "the binary built from the context does not say its version"

# --- the runtime stage ----------------------------------------------------------
json_words() { python3 -c 'import json, sys; print("\n".join(json.loads(sys.argv[1])))' "$1"; }
entry=$(grep -i '^ENTRYPOINT ' <<<"$instructions" | tail -1 | cut -d' ' -f2-)
[[ $entry == \[* ]] || fail "ENTRYPOINT should be in JSON form, is: $entry"
[[ $(json_words "$entry") == gitnexus ]] || fail "ENTRYPOINT should run gitnexus, runs: $entry"
grep -qi '^COPY --from=[a-z0-9]* [^ ]*bin/gitnexus /usr/local/bin/gitnexus$' <<<"$instructions" ||
	fail "the runtime stage does not copy bin/gitnexus to /usr/local/bin/gitnexus"
cmd=$(grep -i '^CMD ' <<<"$instructions" | tail -1 | cut -d' ' -f2-)
[[ $cmd == \[* ]] || fail "CMD should be in JSON form, is: $cmd"
mapfile -t cmd_words < <(json_words "$cmd")
"$bin" "${cmd_words[@]}" --help >/dev/null || fail "gitnexus ${cmd_words[*]}: the binary does not take these arguments"

echo "dockerfile-check: ${#images[@]} stages ($build_image, $runtime_image), ${#context[@]} files in the context, make build there, gitnexus ${cmd_words[*]}: ok" >&2
