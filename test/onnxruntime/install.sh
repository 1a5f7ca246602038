#!/usr/bin/env bash
# Installs the ONNX Runtime shared library that the onnx embedding
# provider's tests run: the CPU build shipped inside the npm package
# onnxruntime-node (pinned in package-lock.json; its install script, which
# fetches GPU builds, is not run). Prints the library's path.
#
# Usage: test/onnxruntime/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lib="$here/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"

# Install once; reinstall when the lockfile changes.
stamp="$here/node_modules/.lock-sha"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" || ! -f "$lib" ]]; then
	echo "install.sh: installing onnxruntime-node from package-lock.json" >&2
	(cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	echo "$want" >"$stamp"
fi
[[ -f "$lib" ]] || { echo "install.sh: onnxruntime-node did not bring $lib" >&2; exit 1; }
echo "$lib"
