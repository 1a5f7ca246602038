#!/usr/bin/env bash
# Reference call graph of a Kotlin repository: run.sh <repo-dir> <out.jsonl>
# Compiles the repository's main sources with Debian's kotlinc (package
# `kotlin`, 1.3.31) into a scratch directory and reads the classes
# (callgraph.py). Writes <out.jsonl>, <out.jsonl>.files (the files compiled)
# and <out.jsonl>.stats.json.
#
# Sources: the .kt files that `git ls-files` lists (all files when the
# directory is no git work tree) outside test, vendor and hidden trees; or
# the files of $KOTLIN_SOURCES (repository-relative paths, one a line).
# Libraries the code needs go on $ORACLE_CLASSPATH (kotlin-reflect is
# always on it). A file kotlinc reports an error in is left out and the
# rest compiled again (at most 5 rounds); the files left out are listed in
# <out.jsonl>.left-out.txt.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$1" && pwd)"
out="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -n "${KOTLIN_SOURCES:-}" ]; then
  sort -u "$KOTLIN_SOURCES" >"$work/files.txt"
else
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$repo" ls-files -co --exclude-standard -- '*.kt'
  else
    (cd "$repo" && find . -name '*.kt' | sed 's|^\./||')
  fi | grep -Ev '(^|/)(test|tests|androidTest|testFixtures|testdata|test_data|fixtures|vendor|third_party|buildSrc|\.[^/]*)/' |
    sort -u >"$work/files.txt"
fi
: >"$out.left-out.txt"
cp="/usr/share/java/kotlin-reflect.jar${ORACLE_CLASSPATH:+:$ORACLE_CLASSPATH}"
for round in 1 2 3 4 5; do
  rm -rf "$work/classes" && mkdir "$work/classes"
  mapfile -t files <"$work/files.txt"
  if [ ${#files[@]} -eq 0 ]; then
    echo "kotlin oracle: no .kt files to compile in $repo" >&2
    exit 1
  fi
  if (cd "$repo" && kotlinc -module-name main -nowarn -cp "$cp" -d "$work/classes" "${files[@]}") \
    >"$work/kotlinc.log" 2>&1; then
    break
  fi
  # kotlinc prints `path:line:column: error: ...` (path as given).
  grep -E '^[^ ]+\.kt:[0-9]+:[0-9]+: error:' "$work/kotlinc.log" | cut -d: -f1 | sort -u >"$work/bad.txt" || true
  if [ ! -s "$work/bad.txt" ] || [ "$round" = 5 ]; then
    cat "$work/kotlinc.log" >&2
    echo "kotlin oracle: kotlinc failed" >&2
    exit 1
  fi
  echo "kotlin oracle: leaving out $(wc -l <"$work/bad.txt") files kotlinc rejects" >&2
  cat "$work/bad.txt" >>"$out.left-out.txt"
  comm -23 "$work/files.txt" "$work/bad.txt" >"$work/rest.txt"
  mv "$work/rest.txt" "$work/files.txt"
done
python3 "$here/callgraph.py" "$repo" "$work/classes" "$work/files.txt" "$out"
