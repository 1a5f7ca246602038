#!/usr/bin/env bash
# Makes the corpora of corpora.tsv (Python, TypeScript, JavaScript rows)
# ready for the oracles under <corpora-dir>/<name>: checks out the recorded
# commit of each git corpus (cloned there beforehand), installs the type
# dependencies of ts/corpus-deps.tsv, and lays out the npm CLI.
# usage: prepare-corpora.sh <corpora-dir>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(cd "$1" && pwd)"
tail -n +2 "$here/corpora.tsv" | while IFS=$'\t' read -r name language source commit lines; do
  case "$language" in python|typescript|javascript) ;; *) continue ;; esac
  case "$source" in
    github:*)
      if [ ! -d "$dir/$name/.git" ]; then
        echo "$name: clone $source into $dir/$name first" >&2
        continue
      fi
      git -C "$dir/$name" -c advice.detachedHead=false checkout -q "$commit" -- 2>/dev/null \
        || git -C "$dir/$name" -c advice.detachedHead=false checkout -q "$commit"
      ;;
    */node_modules/npm)
      "$here/ts/prepare-npm-cli.sh" "$dir/$name"
      ;;
  esac
  deps="$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$here/ts/corpus-deps.tsv")"
  if [ -n "$deps" ]; then
    # shellcheck disable=SC2086
    "$here/ts/install-types.sh" "$dir/$name" $deps
  fi
done
