#!/usr/bin/env bash
# Lays out the npm CLI installed on this machine as its repository is laid
# out: lib/, bin/, index.js, docs/lib/ and workspaces/<name> (the bundled packages whose
# package.json says they come from the repository's workspaces/ directory),
# with node_modules/ linking each bundled package, workspaces to their
# workspaces/ copy, and @types/node installed beside it (in <dest-dir>.deps).
# The oracle skips node_modules/, as the indexer does.
# usage: prepare-npm-cli.sh <dest-dir>
set -euo pipefail
dest="$1"
src="$(npm root -g)/npm"
[ -d "$src/lib" ] || { echo "no npm at $src" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/workspaces" "$dest/node_modules"
cp -a "$src/lib" "$src/bin" "$src/index.js" "$src/package.json" "$dest/"
if [ -d "$src/docs/lib" ]; then  # the docs workspace's code
  mkdir -p "$dest/docs" && cp -a "$src/docs/lib" "$dest/docs/"
fi
cd "$src/node_modules"
for pj in */package.json @*/*/package.json; do
  pkg="${pj%/package.json}"
  dir="$(node -e 'const r = require(process.argv[1]).repository; if (r && typeof r === "object" && /^workspaces\//.test(r.directory || "")) console.log(r.directory)' "$src/node_modules/$pj")"
  mkdir -p "$dest/node_modules/$(dirname "$pkg")"
  if [ -n "$dir" ]; then
    mkdir -p "$dest/$dir"
    (cd "$src/node_modules/$pkg" && tar --exclude=./node_modules -cf - .) | (cd "$dest/$dir" && tar -xf -)
    ln -s "$dest/$dir" "$dest/node_modules/$pkg"
  else
    ln -s "$src/node_modules/$pkg" "$dest/node_modules/$pkg"
  fi
done
# Node's own modules are typed by @types/node (npm's bundle has no types).
mkdir -p "$dest.deps"
(cd "$dest.deps" && { [ -f package.json ] || echo '{"private":true}' > package.json; } \
  && npm install --no-audit --no-fund --ignore-scripts --save-exact @types/node@20 >/dev/null)
rm -rf "$dest/node_modules/@types"
ln -s "$dest.deps/node_modules/@types" "$dest/node_modules/@types"
echo "npm $(node -p 'require(process.argv[1]).version' "$src/package.json") laid out in $dest"
