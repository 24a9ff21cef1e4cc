#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bubblewrap README's example, through bwrap and through the engine,
# interleaved run by run (median of RUNS, default 30, for ROUNDS rounds):
#   tests/bench/engine.sh [RUNS [ROUNDS]]
# "engine" skips the NSS lookup of the user (as bwrap does none); "engine
# +nss" looks the user up as cocoonctl does; "+seccomp" adds the default
# filter, which bwrap's example does not have. Run as root.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$("$here/../sandbox/build-driver.sh")
cc -O2 -Wall -Wextra -o "$build/timeit" "$here/timeit.c"
runs=${1:-30}
rounds=${2:-3}
user=ccengbench
userdel -r "$user" >/dev/null 2>&1 || true
useradd -m "$user"
trap 'userdel -r "$user" >/dev/null 2>&1' EXIT
uid=$(id -u "$user")
gid=$(id -g "$user")
home=$(getent passwd "$user" | cut -d: -f6)

opts="--ro-bind /usr /usr --dir /tmp --proc /proc --dev /dev
	--ro-bind /etc/resolv.conf /etc/resolv.conf --symlink usr/lib /lib
	--symlink usr/lib64 /lib64 --symlink usr/bin /bin --symlink usr/sbin /sbin
	--chdir / --dir /run/user/$uid"
drv="$build/engine-driver"
uptime
for _ in $(seq "$rounds"); do
	# shellcheck disable=SC2086
	"$build/timeit" "$runs" @bwrap /usr/bin/bwrap $opts --unshare-pid --unshare-net /bin/true \
		--- @engine $drv --uid "$user:$uid:$gid:$home" $opts --unshare pid,net -- /bin/true \
		--- @engine+nss $drv --user "$user" $opts --unshare pid,net -- /bin/true \
		--- @+seccomp $drv --user "$user" $opts --unshare pid,net --seccomp default -- /bin/true
	echo
done
