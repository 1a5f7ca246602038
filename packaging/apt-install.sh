#!/usr/bin/env bash
# Installs Debian packages when what they bring is missing:
#
#   packaging/apt-install.sh <command or /path/of/file> <package>...
#
# as root with apt-get, otherwise through sudo when it asks for no
# password; with neither, it says what to run and fails. The package lists
# are updated first (a fresh machine may have none).
set -euo pipefail
want=${1:?command or file}
shift
(($#)) || { echo "apt-install: no package named for $want" >&2; exit 2; }

there() { if [[ $want == */* ]]; then [[ -e $want ]]; else command -v "$want" >/dev/null; fi; }

there && exit 0
if [[ $(id -u) == 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
else
	echo "apt-install: $want is missing; install it with: sudo apt-get install $*" >&2
	exit 1
fi
echo "apt-install: installing $* (for $want)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
there || { echo "apt-install: $* did not bring $want" >&2; exit 1; }
