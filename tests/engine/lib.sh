# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup for the engine's TAP tests: the TAP helpers of tests/lib.sh,
# the test driver (built by build.sh unless $ENGINE_DRIVER names one; under
# `make check` against that build), throwaway users named cceng*, and a
# root-owned work directory under /run. Everything is removed on exit.
# Run as root: `prove tests/engine/*.t`, or through `make check`.

COCOON_ROOT=${COCOON_ROOT:-/nonexistent} # lib.sh wants it; unused here
. "$(dirname "$0")/../lib.sh"

ENGINE_DIR=$(cd "$(dirname "$0")" && pwd)
if [ -z "${ENGINE_DRIVER:-}" ]; then
	build=$("$ENGINE_DIR/build.sh") || { echo "Bail out! cannot build the driver"; exit 1; }
	ENGINE_DRIVER=$build/engine-driver
fi

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the engine tests run as root"
	exit 0
fi

WORK=$(mktemp -d /run/cocoon-eng-test.XXXXXX)
chmod 0755 "$WORK"
ENGINE_USERS=""
ENGINE_GROUPS=""

engine_cleanup() {
	local u g
	for u in $ENGINE_USERS; do userdel -r "$u" >/dev/null 2>&1; done
	for g in $ENGINE_GROUPS; do groupdel "$g" >/dev/null 2>&1; done
	rm -rf "$WORK"
}
trap engine_cleanup EXIT

# engine_user NAME [useradd options]: a throwaway user with a home.
engine_user() {
	local name=$1; shift
	userdel -r "$name" >/dev/null 2>&1
	useradd -m -s /bin/sh "$@" "$name" || { echo "Bail out! useradd $name"; exit 1; }
	ENGINE_USERS="$ENGINE_USERS $name"
}

engine_group() {
	groupdel "$1" >/dev/null 2>&1
	groupadd "$1" || { echo "Bail out! groupadd $1"; exit 1; }
	ENGINE_GROUPS="$ENGINE_GROUPS $1"
}

# The system part every sandbox here starts from.
BASE="--ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64
	--symlink usr/bin /bin --symlink usr/sbin /sbin --proc /proc --dev /dev
	--unshare pid"

# sandbox USER [DRIVER OPTIONS] -- COMMAND...: run through the engine with
# $BASE first; output and status in OUT and RC (see run in tests/lib.sh).
sandbox() {
	local user=$1; shift
	# shellcheck disable=SC2086
	run "$ENGINE_DRIVER" --user "$user" $BASE "$@"
}

# The host's mount table without the fields that change between reads.
host_mounts() {
	awk '{print $5, $6, $9, $10}' /proc/self/mountinfo | sort
}

# live_processes USER: how many processes USER runs, zombies left out
# (the host's pid 1 here never reaps, and a uid may be reused from an
# earlier test's user).
live_processes() {
	ps -o stat= -u "$1" | grep -vc '^Z'
}
