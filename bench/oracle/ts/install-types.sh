#!/usr/bin/env bash
# Installs packages that a corpus's type-checking needs (type definitions,
# test libraries) into a scratch directory beside the corpus, and links it as
# the corpus's node_modules, without running any package's scripts.
# usage: install-types.sh <repo-dir> <package@version>...
set -euo pipefail
repo="$(cd "$1" && pwd)"; shift
scratch="$repo.deps"
mkdir -p "$scratch"
cd "$scratch"
[ -f package.json ] || echo '{"private":true}' > package.json
npm install --no-audit --no-fund --ignore-scripts --save-exact "$@"
if [ -e "$repo/node_modules" ] && [ ! -L "$repo/node_modules" ]; then
  echo "$repo/node_modules exists and is no link; leaving it" >&2
  exit 1
fi
ln -sfn "$scratch/node_modules" "$repo/node_modules"
