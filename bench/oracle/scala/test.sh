#!/usr/bin/env bash
# Runs the Scala oracle on selftest/repo and compares its edges with
# selftest/want.txt, written by hand: a trait with a concrete method and
# three implementations (dispatch, a super call), an object, a class calling
# its superclass's constructor in its header, an auxiliary constructor, a
# companion object, a case class with a default argument (apply, copy), a
# lambda, a local def (also in a lambda), an anonymous class, a super call in
# a trait and a tail-recursive def. Needs Debian's scala package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../jvm/selftest.sh" "$here" scala
