#!/usr/bin/env bash
# go vet for Windows and macOS, so that code written on Linux keeps
# compiling there (make vet runs it after the Linux vet):
#
#   windows  every package, cgo included: the C parts are compiled with
#            MinGW-w64 (Debian's gcc-mingw-w64-x86-64-posix, installed when
#            missing), as a Windows build would;
#   darwin   the packages that build without cgo. Tree-sitter and the
#            parsers need cgo, and cgo for macOS needs Apple's SDK, which
#            no Debian package has; the packages that import them, with
#            their tests, are listed as skipped.
#
# A package named in not_portable below, and every package that imports it,
# is skipped too, saying why; take its line out once it is fixed. The first
# run compiles the C parts for Windows (about four minutes on 2 cores);
# later runs take seconds.
#
# Usage: packaging/vet-os.sh [windows|darwin]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
tags=sqlite_fts5

# package: why it does not build on Windows yet.
not_portable=()

# cgo_only prints the packages that cannot build without cgo for GOOS $1:
# those with cgo files and no file for builds without it (go-sqlite3 has
# one, a driver that fails at run time; the standard library has its own).
cgo_only() {
	local pkgs
	pkgs=$(GOOS=$1 CGO_ENABLED=1 go list -tags $tags -deps -test \
		-f '{{if and .CgoFiles (not .Standard)}}{{.ImportPath}}{{end}}' ./... | cut -d' ' -f1 | sort -u)
	# shellcheck disable=SC2086 # one word per package
	GOOS=$1 CGO_ENABLED=0 go list -tags $tags -e -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles " "}}' $pkgs |
		while read -r pkg dir files; do
			(cd "$dir" && grep -ql '^//go:build.*!cgo' $files /dev/null) || echo "$pkg"
		done
}

# vet_without GOOS CGO_ENABLED BLOCKERS... vets every package of the module
# for GOOS but those whose code or tests import one of BLOCKERS (directly
# or not); of those, it builds the ones whose code alone does not.
vet_without() {
	local goos=$1 cgo=$2
	shift 2
	local blockers=" $* " vet=() build=() skipped=() pkg code tests
	# One line per package: its import path, whether its code imports a
	# blocker, whether its tests do (the test binary's dependencies).
	while read -r pkg code tests; do
		if [[ $code == 0 && $tests == 0 ]]; then
			vet+=("$pkg")
		elif [[ $code == 0 ]]; then
			build+=("$pkg")
		else
			skipped+=("${pkg#gitnexus.dev/gitnexus/}")
		fi
	done < <(GOOS=$goos CGO_ENABLED=$cgo go list -tags $tags -test \
		-f '{{if not .ForTest}}{{.ImportPath}} {{.ImportPath}} {{join .Deps " "}}{{end}}' ./... |
		awk -v blockers="$blockers" '
			{ blocked = 0; for (i = 2; i <= NF; i++) if (index(blockers, " " $i " ")) { blocked = 1; break } }
			$1 ~ /\.test$/ { name = substr($1, 1, length($1) - 5); tests[name] = blocked; next }
			{ code[$1] = blocked }
			END { for (n in code) print n, code[n], (n in tests) ? tests[n] : code[n] }' | sort)
	GOOS=$goos CGO_ENABLED=$cgo go vet -tags $tags "${vet[@]}"
	echo "vet-os: $goos: ${#vet[@]} packages vetted" >&2
	if ((${#build[@]})); then
		GOOS=$goos CGO_ENABLED=$cgo go build -tags $tags -o /dev/null "${build[@]}"
		echo "vet-os: $goos: ${#build[@]} more built, not vetted (their tests need what is not portable)" >&2
	fi
	if ((${#skipped[@]})); then
		echo "vet-os: $goos: ${#skipped[@]} packages skipped: ${skipped[*]}" >&2
	fi
}

blocked=()
for entry in "${not_portable[@]}"; do
	blocked+=("${entry%%:*}")
	echo "vet-os: not portable yet, with its importers: ${entry}" >&2
done

(($#)) || set -- windows darwin
for goos in "$@"; do
	case $goos in
	windows)
		packaging/apt-install.sh x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64-posix
		CC=x86_64-w64-mingw32-gcc vet_without windows 1 "${blocked[@]}"
		;;
	darwin)
		# shellcheck disable=SC2046 # one word per package
		vet_without darwin 0 "${blocked[@]}" $(cgo_only darwin)
		;;
	*)
		echo "vet-os: unknown GOOS $goos (windows or darwin)" >&2
		exit 2
		;;
	esac
done
