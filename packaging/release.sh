#!/usr/bin/env bash
# Builds the release tarball dist/gitnexus-<version>-linux-amd64.tar.gz:
#
#   gitnexus-<version>-linux-amd64/
#     gitnexus        the binary (linux/amd64, stripped, version, commit and date inside)
#     lib/            shared libraries it needs besides the C library, if any,
#                     found at run time through the rpath $ORIGIN/lib
#     README.md, docs/
#
# and dist/SHA256SUMS. Usage: packaging/release.sh <version> <commit> <date>
# (make release passes them).
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?version}
commit=${2:?commit}
date=${3:?date}
name="gitnexus-${version}-linux-amd64"
stage="dist/${name}"

rm -rf "$stage" "dist/${name}.tar.gz"
mkdir -p "$stage/lib"

pkg=gitnexus.dev/gitnexus/internal/cli
GOOS=linux GOARCH=amd64 CGO_ENABLED=1 go build -tags sqlite_fts5 \
  -ldflags "-s -w -X ${pkg}.version=${version} -X ${pkg}.commit=${commit} -X ${pkg}.buildDate=${date} -extldflags '-Wl,-rpath,\$ORIGIN/lib'" \
  -o "$stage/gitnexus" ./cmd/gitnexus

# Libraries of the C library itself are on every Linux system; anything
# else the binary links goes beside it.
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux[-a-z0-9_]*)\.so'
ldd "$stage/gitnexus" | awk '/=>/ {print $1, $3; next} {print $1, ""}' | while read -r lib path; do
  lib=$(basename "$lib")
  if [[ "$lib" =~ $glibc ]]; then
    continue
  fi
  if [[ -z "$path" || ! -f "$path" ]]; then
    echo "release: the binary needs $lib, which ldd cannot find" >&2
    exit 1
  fi
  cp -L "$path" "$stage/lib/"
  echo "release: bundled $lib"
done
rmdir "$stage/lib" 2>/dev/null || true

cp README.md "$stage/"
cp -r docs "$stage/docs"

# The newest C library version the binary asks for: the oldest system it runs on.
need=$(objdump -T "$stage/gitnexus" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1 || true)

tar -C dist -czf "dist/${name}.tar.gz" --owner=0 --group=0 --sort=name "$name"
rm -rf "$stage"
(cd dist && sha256sum "${name}.tar.gz" > SHA256SUMS)
echo "dist/${name}.tar.gz (needs ${need:-no versioned glibc symbol}; $(cut -c1-16 dist/SHA256SUMS)...)"
