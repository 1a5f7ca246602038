#!/usr/bin/env bash
# Installs a Debian package when the command it brings is missing:
#
#   packaging/apt-install.sh <command> <package>
#
# as root with apt-get, otherwise through sudo when it asks for no
# password; with neither, it says what to run and fails. The package lists
# are updated first (a fresh machine may have none).
set -euo pipefail
cmd=${1:?command}
pkg=${2:?package}

command -v "$cmd" >/dev/null && exit 0
if [[ $(id -u) == 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
else
	echo "apt-install: $cmd is missing; install it with: sudo apt-get install $pkg" >&2
	exit 1
fi
echo "apt-install: installing $pkg (for $cmd)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
command -v "$cmd" >/dev/null || { echo "apt-install: $pkg did not bring $cmd" >&2; exit 1; }
