#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every file system a sandbox makes in memory is bounded: the root tmpfs
# (root-size), `tmpfs` without size= and /dev/shm (tmpfs-size), `tmpfs`
# with size=, /dev, the tmpfs home (home-size) and private tmp
# (tmp-size). A user filling each gets ENOSPC at its bound, by bytes and
# by inodes; the host's shared memory (Shmem: what tmpfs pages are) grows
# by no more than the sum of the bounds while the files are held, and
# gets it back at the end. The
# control: a larger bound in the policy lets the same writer go further.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-exhaust-test.XXXXXX)
chmod 0755 "$work"
bg_pid=""
cleanup() {
	[ -n "$bg_pid" ] && kill -KILL "$bg_pid" 2>/dev/null
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccft1$T
policy_reset
M=$((1 << 20))

# ---- the defaults, as the kernel sees them ----
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
# stat -f: total blocks and block size of the file system holding each path.
run "$CTL" run --user ccft1$T -- /bin/sh -c \
	'for p in / /tmp /dev /dev/shm; do echo "$p $(($(stat -f -c "%b*%S" $p)))"; done'
is "$OUT" "/ $((16 * M))
/tmp $((256 * M))
/dev 65536
/dev/shm $((256 * M))" "default bounds: root 16M, tmpfs and /dev/shm 256M, /dev 64K"
run "$CTL" explain ccft1$T
like "$OUT" "root-size    $((16 * M))" "explain shows root-size"
like "$OUT" "tmpfs-size   $((256 * M))" "and tmpfs-size"

# ---- filling each one ----
policy_write cocoon.conf <<CONF
[default]
profile = default
[user ccft1$T]
profile = default
root-size = 4M
tmpfs-size = 8M
tmpfs = /scratch size=5M
home = tmpfs
home-size = 7M
private-tmp = session
tmp-size = 6M
CONF
# fill DIR: bytes written into DIR before ENOSPC, and the error; then
# files created before running out of inodes. Everything stays until
# the session ends, so the host's memory can be measured meanwhile.
FILL='fill() {
	err=$(dd if=/dev/zero of="$1/fill" bs=64k 2>&1 >/dev/null | grep -o "No space left on device" | head -1)
	echo "$1 $(stat -c %s "$1/fill") $err"
}
for d in / /scratch /tmp /var/tmp /dev/shm /run "$HOME" /dev; do fill "$d"; done
echo filled
exec sleep 30'
# Shmem, not MemAvailable: compilers, page cache and other tests move
# the latter by hundreds of MiB; only tmpfs and shared memory move Shmem.
# A second copy of this test would, hence the lock.
shmem() { echo $(($(awk '/^Shmem:/ { print $2 }' /proc/meminfo) * 1024)); }
host_lock shmem
before=$(shmem)
"$CTL" run --user ccft1$T -- /bin/bash -c "$FILL" > "$work/fill.out" 2>&1 &
bg_pid=$!
for i in $(seq 100); do grep -q filled "$work/fill.out" && break; sleep 0.1; done
sleep 0.5
during=$(shmem)
home=$(getent passwd ccft1$T | cut -d: -f6)
# Each file stops within a page or so of its bound (the directory and
# the page rounding of the tmpfs take some).
within() { # within GOT BOUND
	[ "$1" -le "$2" ] && [ "$1" -ge $(($2 - 256 * 1024)) ]
}
check_fill() { # check_fill DIR BOUND NAME
	local dir size error
	read -r dir size error < <(grep "^$1 " "$work/fill.out")
	ok $(within "$size" "$2"; echo $?) "$3 is full at its bound ($size of $2 bytes)"
	is "$error" "No space left on device" "  and the writer got ENOSPC"
}
check_fill / $((4 * M)) "the root tmpfs (root-size)"
check_fill /scratch $((5 * M)) "tmpfs with size="
check_fill /tmp $((6 * M)) "private /tmp (tmp-size)"
check_fill /var/tmp $((6 * M)) "private /var/tmp (tmp-size)"
check_fill /dev/shm $((6 * M)) "private /dev/shm (tmp-size)"
check_fill /run $((8 * M)) "tmpfs without size= (tmpfs-size)"
check_fill "$home" $((7 * M)) "the tmpfs home (home-size)"
check_fill /dev 65536 "/dev"
bounds=$(((4 + 5 + 6 * 3 + 8 + 7) * M + 65536))
used=$((during - before))
# At least what the files hold, so the measure sees them at all.
ok $([ "$used" -le $((bounds + 32 * M)) ] && [ "$used" -ge $((bounds - 8 * M)) ]; echo $?) \
	"the host's shared memory grew by $((used / M))M while held: the bounds ($((bounds / M))M), within slack"
kill -TERM "$bg_pid"; wait "$bg_pid" 2>/dev/null; bg_pid=""
# The tmpfs pages go back as the namespaces die; other work on the host
# moves the figure too, so give it a few looks.
for i in $(seq 30); do
	sleep 0.2
	after=$(shmem)
	[ $((after - before)) -le $((16 * M)) ] && break
done
ok $([ $((after - before)) -le $((16 * M)) ]; echo $?) \
	"the memory comes back when the session ends ($(((after - before) / M))M still used)"

# ---- inodes: a tmpfs runs out of them at one per 4K of size ----
INODES='cd "$1" && i=0; while { : > "f$i"; } 2>/dev/null; do i=$((i + 1)); done; echo "$i"; { : > x; } 2>&1 | grep -o "No space left on device"'
run "$CTL" run --user ccft1$T -- /bin/bash -c "$INODES" - /scratch
# 5M / 4K = 1280 inodes, one of which is the root directory.
like "$OUT" "1279" "a 5M tmpfs holds 1279 files"
like "$OUT" "No space left on device" "then ENOSPC"
run "$CTL" run --user ccft1$T -- /bin/bash -c "$INODES" - /dev
n=$(echo "$OUT" | head -1)
ok $([ "$n" -lt 1024 ] 2>/dev/null; echo $?) "/dev runs out of inodes below 1024 ($n files)"

# ---- the control: a larger bound lets the same writer go further ----
sed -i 's/^tmpfs-size = 8M/tmpfs-size = 12M/' "$CONF_DIR/cocoon.conf"
run "$CTL" run --user ccft1$T -- /bin/bash -c 'dd if=/dev/zero of=/run/fill bs=64k 2>/dev/null; stat -c %s /run/fill'
ok $(within "$OUT" $((12 * M)); echo $?) "control: with tmpfs-size = 12M the same write stops at 12M ($OUT)"

done_testing
