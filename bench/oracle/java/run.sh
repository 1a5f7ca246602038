#!/usr/bin/env bash
# Reference call graph of a Java repository: run.sh <repo-dir> <out.jsonl>
# Writes the edges to <out.jsonl> and the analyzed files to <out.jsonl>.files.
# Libraries the repository's code uses go on ORACLE_CLASSPATH; by default the
# jars of Debian's junit4, junit5, libtruth-java, libhamcrest-java, guava,
# error-prone, libre2j-java, libnetty-java and libprotobuf-java packages that
# are installed under /usr/share/java. Missing classes only cost the calls
# whose resolution needs them.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
exports=(
  --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED
)
classes="$(mktemp -d)"
trap 'rm -rf "$classes"' EXIT
javac -d "$classes" "${exports[@]}" "$here/JavaCallGraph.java" "$here/CallScanner.java"
if [ -z "${ORACLE_CLASSPATH+set}" ]; then
  cp=""
  for jar in junit4 junit-jupiter-api junit-jupiter-params hamcrest truth guava \
    error_prone_annotations re2j netty-all protobuf protobuf-util; do
    if [ -f "/usr/share/java/$jar.jar" ]; then
      cp="${cp:+$cp:}/usr/share/java/$jar.jar"
    fi
  done
  export ORACLE_CLASSPATH="$cp"
fi
exec java -Xss8m "${exports[@]}" -cp "$classes" JavaCallGraph "$1" "$2" "$2.files"
