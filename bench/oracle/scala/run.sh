#!/usr/bin/env bash
# Reference call graph of a Scala 2 repository: run.sh <repo-dir> <out.jsonl>
# Compiles the repository's main sources with Debian's scalac (package
# `scala`, 2.11.12) into a scratch directory and reads the classes
# (callgraph.py). Writes <out.jsonl>, <out.jsonl>.files (the files compiled)
# and <out.jsonl>.stats.json.
#
# Sources: the .scala files that `git ls-files` lists (all files when the
# directory is no git work tree) outside test, build-definition (`project`),
# other-platform (`js`, `native`), vendor and hidden trees; or the files of
# $SCALA_SOURCES (repository-relative paths, one a line). Libraries go on
# $ORACLE_CLASSPATH. A file scalac reports an error in is left out and the
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

if [ -n "${SCALA_SOURCES:-}" ]; then
  sort -u "$SCALA_SOURCES" >"$work/files.txt"
else
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$repo" ls-files -co --exclude-standard -- '*.scala'
  else
    (cd "$repo" && find . -name '*.scala' | sed 's|^\./||')
  fi | grep -Ev '(^|/)(test|tests|it|[a-zA-Z]*Test|project|js|native|testdata|fixtures|vendor|third_party|\.[^/]*)/' |
    sort -u >"$work/files.txt"
fi
: >"$out.left-out.txt"
for round in 1 2 3 4 5; do
  rm -rf "$work/classes" && mkdir "$work/classes"
  mapfile -t files <"$work/files.txt"
  if [ ${#files[@]} -eq 0 ]; then
    echo "scala oracle: no .scala files to compile in $repo" >&2
    exit 1
  fi
  if (cd "$repo" && scalac -nowarn ${ORACLE_CLASSPATH:+-classpath "$ORACLE_CLASSPATH"} -d "$work/classes" "${files[@]}") \
    >"$work/scalac.log" 2>&1; then
    break
  fi
  # scalac prints `path:line: error: ...` (path as given).
  grep -E '^[^ ]+\.scala:[0-9]+: error:' "$work/scalac.log" | cut -d: -f1 | sort -u >"$work/bad.txt" || true
  if [ ! -s "$work/bad.txt" ] || [ "$round" = 5 ]; then
    cat "$work/scalac.log" >&2
    echo "scala oracle: scalac failed" >&2
    exit 1
  fi
  echo "scala oracle: leaving out $(wc -l <"$work/bad.txt") files scalac rejects" >&2
  cat "$work/bad.txt" >>"$out.left-out.txt"
  comm -23 "$work/files.txt" "$work/bad.txt" >"$work/rest.txt"
  mv "$work/rest.txt" "$work/files.txt"
done
python3 "$here/callgraph.py" "$repo" "$work/classes" "$work/files.txt" "$out"
