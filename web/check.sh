#!/usr/bin/env bash
# Checks that internal/webui/dist is what web/ builds: installs the pinned
# packages from package-lock.json (npm ci, from the npm registry only),
# builds into a temporary directory and compares. Run it after changing
# web/; to accept the new bundle, run `npm ci && node build.mjs` in web/
# and commit internal/webui/dist.
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
npm ci --no-audit --no-fund --loglevel=error >/dev/null
node build.mjs "$tmp/dist"
if ! diff -r "$tmp/dist" ../internal/webui/dist; then
	echo "internal/webui/dist differs from what web/ builds: run 'npm ci && node build.mjs' in web/ and commit internal/webui/dist" >&2
	exit 1
fi
echo "web: internal/webui/dist matches the sources"
