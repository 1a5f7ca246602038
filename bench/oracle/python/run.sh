#!/usr/bin/env bash
# Python call-graph oracle: run.sh <repo-dir> <out.jsonl>
# Needs python3 with jedi. pytest fixtures are typed only when Debian's
# python3-pytest is installed (apt-get install python3-pytest).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <repo-dir> <out.jsonl>" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -d /usr/lib/python3/dist-packages/_pytest ]; then
  # Without it a test's fixture parameters have no type: calls through
  # them are unresolved sites, and our edges there score as unverifiable.
  echo "run.sh: warning: Debian's python3-pytest is not installed; pytest fixtures stay untyped (apt-get install python3-pytest)" >&2
fi
exec python3 "$here/oracle.py" "$1" "$2"
