#!/usr/bin/env bash
# Runs the oracle on testdata/fixture and compares with testdata/fixture.jsonl
# (edges checked by hand); test.sh -update rewrites the expectation.
# The fixture covers: field initializers and static blocks owned by the
# class, this(...)/super(...) written and inserted, default and record
# constructors standing for their class, anonymous classes (creation calls
# the superclass constructor; their methods are callers; their field
# initializers belong to the anonymous class), lambdas owned by the
# enclosing method, enum constants, diamond and generic calls, dispatch
# through interfaces, abstract methods, Object methods, default methods and
# a method inherited from a class outside the interface's hierarchy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
ORACLE_CLASSPATH= "$here/run.sh" "$here/testdata/fixture" "$out/edges.jsonl"
if [ "${1:-}" = -update ]; then
  cp "$out/edges.jsonl" "$here/testdata/fixture.jsonl"
fi
if diff -u "$here/testdata/fixture.jsonl" "$out/edges.jsonl"; then
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
  exit 1
fi
