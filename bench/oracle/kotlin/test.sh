#!/usr/bin/env bash
# Runs the Kotlin oracle on selftest/repo and compares its edges with
# selftest/want.txt, written by hand: an interface with a default method and
# three implementations (dispatch, super calls), a class calling its supertype's
# constructor in its header, a secondary constructor, a companion object, a
# custom getter, an extension function, a data class with a default
# argument and an open method called without its default argument, lambdas
# (inlined and not), a local function and an anonymous
# object. Needs Debian's kotlin package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../jvm/selftest.sh" "$here" kotlin
