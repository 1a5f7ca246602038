#!/usr/bin/env bash
# Builds the release archives, one per Linux architecture, and their
# checksums:
#
#   dist/gitnexus-<version>-linux-amd64.tar.gz
#   dist/gitnexus-<version>-linux-arm64.tar.gz
#   dist/SHA256SUMS                            both archives
#
# each holding gitnexus-<version>-linux-<arch>/ with
#
#   gitnexus        the binary (stripped; version, commit and date inside)
#   lib/            shared libraries it needs besides the C library, if any,
#                   found at run time through the rpath $ORIGIN/lib
#   REQUIREMENTS    the platform and the oldest C library (glibc) it runs with
#   LICENSE, README.md, docs/
#
# The C parts (SQLite, the tree-sitter grammars) are compiled for each
# architecture: natively for the machine's own, with Debian's cross
# compiler for the other (gcc-aarch64-linux-gnu and libc6-dev-arm64-cross,
# or their x86-64 counterparts, installed when missing). The first build for an architecture takes
# several minutes (packaging/build.sh says so); Go's build cache keeps it
# for the next. The shared libraries are read from the ELF headers
# (readelf), so nothing of the other architecture is run; an arm64 binary
# is run only when qemu-aarch64 is there (Debian's qemu-user; optional).
#
# Usage: packaging/release.sh <version> <commit> <date> [arch...]
# (make release passes them; the architectures default to amd64 arm64).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

version=${1:?version}
commit=${2:?commit}
date=${3:?date}
shift 3
archs=("$@")
((${#archs[@]})) || archs=(amd64 arm64)
hostarch=$(go env GOHOSTARCH)
pkg=gitnexus.dev/gitnexus/internal/cli

packaging/apt-install.sh file file
packaging/apt-install.sh readelf binutils

# Libraries of the C library itself are on every Linux system; anything
# else the binary links goes beside it.
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux[-a-z0-9_]*)\.so'

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }

# bundle FILE DIR LIBDIRS...: copies the libraries FILE needs, and theirs,
# into DIR, looking for them in LIBDIRS.
bundle() {
	local file=$1 dir=$2 lib found d
	shift 2
	for lib in $(needed "$file"); do
		[[ "$lib" =~ $glibc || -e "$dir/$lib" ]] && continue
		found=
		for d in "$@"; do
			[[ -f "$d/$lib" ]] && { found="$d/$lib"; break; }
		done
		[[ -n "$found" ]] || { echo "release: $file needs $lib, which is in none of $*" >&2; exit 1; }
		cp -L "$found" "$dir/"
		echo "release: bundled $lib" >&2
		bundle "$dir/$lib" "$dir" "$@"
	done
}

rm -f dist/SHA256SUMS
archives=()
for arch in "${archs[@]}"; do
	case $arch in
	amd64) triple=x86_64-linux-gnu machine=x86-64 ;;
	arm64) triple=aarch64-linux-gnu machine=aarch64 ;;
	*)
		echo "release: no recipe for linux/$arch (amd64, arm64)" >&2
		exit 2
		;;
	esac
	if [[ $arch == "$hostarch" ]]; then
		cc=${CC:-gcc}
	else
		# The compiler, and the C library's headers for it.
		cc=$triple-gcc
		packaging/apt-install.sh "$cc" "gcc-${triple//_/-}"
		packaging/apt-install.sh "/usr/$triple/include/stdio.h" "libc6-dev-$arch-cross"
	fi
	name="gitnexus-${version}-linux-${arch}"
	stage="dist/${name}"
	rm -rf "$stage" "dist/${name}.tar.gz"
	mkdir -p "$stage/lib"

	start=$SECONDS
	GOOS=linux GOARCH=$arch CGO_ENABLED=1 CC=$cc packaging/build.sh -tags sqlite_fts5 \
		-ldflags "-s -w -X ${pkg}.version=${version} -X ${pkg}.commit=${commit} -X ${pkg}.buildDate=${date} -extldflags '-Wl,-rpath,\$ORIGIN/lib'" \
		-o "$stage/gitnexus" ./cmd/gitnexus
	echo "release: linux/$arch built in $((SECONDS - start)) s" >&2

	# The binary is for the architecture it is named after.
	kind=$(file -b "$stage/gitnexus")
	[[ $kind == *"ELF 64-bit"*"$machine"* ]] || { echo "release: $stage/gitnexus is not a linux/$arch binary: $kind" >&2; exit 1; }

	# Its libraries, found where the compiler for that architecture finds them.
	sysroot=$("$cc" -print-sysroot 2>/dev/null || true)
	# shellcheck disable=SC2046 # one word per directory
	bundle "$stage/gitnexus" "$stage/lib" $("$cc" -print-search-dirs | sed -n 's/^libraries: =//p' | tr ':' ' ') \
		"$sysroot/lib/$triple" "$sysroot/usr/lib/$triple" "/usr/$triple/lib"
	rmdir "$stage/lib" 2>/dev/null || true

	# The newest C library version it asks for: the oldest system it runs on.
	need=$(readelf -V --wide "$stage/gitnexus" "$stage"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1 || true)
	need=${need#GLIBC_}

	# It runs: here, or under qemu when it is there.
	if [[ $arch == "$hostarch" ]]; then
		run=("$stage/gitnexus")
	elif [[ $arch == arm64 ]] && command -v qemu-aarch64 >/dev/null; then
		run=(qemu-aarch64 -L "/usr/$triple" "$stage/gitnexus")
	else
		run=()
	fi
	if ((${#run[@]})); then
		got=$("${run[@]}" --version) || { echo "release: ${run[*]} --version failed" >&2; exit 1; }
		[[ $got == "gitnexus ${version}"* ]] || { echo "release: ${run[*]} --version says: $got" >&2; exit 1; }
		echo "release: ${run[*]} --version: $got" >&2
	fi

	libs=$(find "$stage/lib" -mindepth 1 -printf '%f\n' 2>/dev/null | sort | paste -sd' ' || true)
	cat >"$stage/REQUIREMENTS" <<-EOF
		gitnexus ${version} for linux/${arch} (${machine})
		C library: glibc ${need:-(any)} or newer
		bundled libraries (lib/): ${libs:-none}
		other programs: git
	EOF
	cp LICENSE README.md "$stage/"
	cp -r docs "$stage/docs"

	tar -C dist -czf "dist/${name}.tar.gz" --owner=0 --group=0 --sort=name --mtime="$date" "$name"
	rm -rf "$stage"
	archives+=("${name}.tar.gz")
	echo "dist/${name}.tar.gz: $(du -h "dist/${name}.tar.gz" | cut -f1), needs glibc ${need:-(any)}" >&2
done

(cd dist && sha256sum "${archives[@]}" >SHA256SUMS)
cat dist/SHA256SUMS
