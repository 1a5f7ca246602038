#!/usr/bin/env bash
# go build with a word before a long build and its progress during it:
#
#   packaging/build.sh <go build arguments>...
#
# make build, make release and the Dockerfile build through it. It first
# asks go build -n what would run (0.4 s when nothing has to be compiled).
# When that includes the C code of SQLite or the tree-sitter grammars (a
# first build, a new Go version, a new target, an emptied build cache),
# which takes several minutes, it says so on stderr, then shows each
# package as it is compiled: one updating line on a terminal, otherwise a
# line for each package with C code; then the time taken. Otherwise it is
# go build itself, as quiet. Errors and compiler warnings pass through
# either way, and the exit status is go build's.
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"
go=${GO:-go}

# What would run: the packages to compile (one "# path" header each) and,
# among them, those with C code (a cgo command naming them). A plan that
# cannot be made (a missing module, say) is the build's to report.
plan=$("$go" build -n "$@" 2>&1) || plan=
todo=$(sed -n 's/^# \(.*\)/\1/p' <<<"$plan" | grep -v '^import config$' | sort -u) || true
with_c=$(grep -o ' -importpath [^ ]*' <<<"$plan" | cut -d' ' -f3 | sort -u) || true

# Slow is the C code of SQLite and the grammars; the runtime's own cgo and
# the small binding packages take seconds.
grammars=$(grep -c '/tree-sitter-[a-z-]*/bindings/go$' <<<"$with_c") || true
sqlite=$(grep -c '^github.com/mattn/go-sqlite3$' <<<"$with_c") || true
if ((grammars + sqlite == 0)); then
	exec "$go" build "$@"
fi

if ((sqlite && grammars)); then
	what="SQLite and $grammars tree-sitter grammars"
elif ((sqlite)); then
	what=SQLite
else
	what="$grammars tree-sitter grammars"
fi
total=$(grep -c . <<<"$todo")
echo "build: compiling $what for $("$go" env GOOS)/$("$go" env GOARCH)" \
	"(C code not in the Go build cache yet; $total packages): several minutes, later builds take seconds" >&2

# go build -v names each package once it is compiled; anything else it
# prints (errors, compiler warnings) goes through as it is. The last line
# is go build's exit status.
start=$SECONDS
tty=0
[[ -t 2 ]] && tty=1
width=$( ( ((tty)) && tput cols 2>/dev/null) || echo 80)
pending=$with_c
done=0
status=1
while IFS= read -r line; do
	if [[ $line == "build.sh: go build exit "* ]]; then
		status=${line##* }
	elif grep -qxF -- "$line" <<<"$todo"; then
		done=$((done + 1))
		at=$(printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)))
		if grep -qxF -- "$line" <<<"$with_c"; then
			pending=$(grep -vxF -- "$line" <<<"$pending") || true
			((tty)) || echo "build: $done/$total packages, $at: $line (C code)" >&2
		fi
		if ((tty)); then
			# One line, cut to the terminal's width so that it never wraps.
			msg="build: $done/$total packages, $at"
			[[ -n "$pending" ]] && msg+="; C code to go: $(sed 's|.*/\(tree-sitter-[a-z-]*\)/bindings/go$|\1|; s|.*/||' <<<"$pending" | paste -sd' ')"
			printf '\r\033[K%s' "${msg:0:$((width - 1))}" >&2
		fi
	else
		((tty)) && printf '\r\033[K' >&2
		printf '%s\n' "$line" >&2
	fi
done < <(
	status=0
	"$go" build -v "$@" 2>&1 || status=$?
	echo "build.sh: go build exit $status"
)
((tty)) && printf '\r\033[K' >&2
if ((status == 0)); then
	echo "build: done in $(((SECONDS - start) / 60))m$(printf %02d $(((SECONDS - start) % 60)))s" >&2
fi
exit "$status"
