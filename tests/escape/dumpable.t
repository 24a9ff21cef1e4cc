#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The setup window cannot be read or traced by the user: cocoon-shell's
# session process between its switch to the user and the exec of the
# shell, and cocoon-launch between its exec and the shell's. Root's
# strace holds each at a system call (delay injection) while a process
# of the user opens its /proc/PID/mem: the kernel's attach check
# (PTRACE_MODE_ATTACH, as PTRACE_ATTACH; the attach itself would meet
# strace, already its tracer). The control holds a dumpable process of
# the same user the same way and reads it.
. "$(dirname "$0")/../lib.sh"
U=tstdump$T
H=/home/$U
LAUNCH=$COCOON_ROOT/usr/libexec/cocoon/cocoon-launch
suid_dumpable=""
held=""
cleanup() {
	[ -n "$held" ] && kill -KILL $held 2>/dev/null
	[ -n "$suid_dumpable" ] && echo "$suid_dumpable" > /proc/sys/fs/suid_dumpable
	policy_reset; cleanup_users
}
trap cleanup EXIT
command -v strace >/dev/null || bail_out "strace is missing (make deps)"
add_user $U || bail_out "useradd"
policy_reset
install -d -o $U -m 0755 "$H/t"

# hold COMM SYSCALL PROGRAM ARGS...: PROGRAM run as the user under root's
# strace, each SYSCALL of its held 2 s; waits until a process of the user
# named COMM is held, and leaves its pid in PID.
hold() {
	local comm=$1 call=$2 i p; shift 2
	strace -f -qq -o /dev/null -u $U -e trace="$call" -e inject="$call":delay_enter=2s "$@" \
		> "$H/t/held.out" 2>&1 &
	held=$!
	PID=""
	for i in $(seq 100); do
		p=$(ps -o pid=,stat=,comm= -u $U | awk -v c="$comm" '$2 ~ /^t/ && $3 == c { print $1; exit }')
		[ -n "$p" ] && PID=$p && return 0
		sleep 0.05
	done
	return 1
}
# peek: the user opens the held process's memory.
peek() {
	run runuser -u $U -- perl -e 'print open(my $f, "<", "/proc/$ARGV[0]/mem") ? "mem:OK\n" : "mem:ERR" . ($! + 0) . "\n"' "$PID"
}
release() { wait "$held" 2>/dev/null; held=""; }

# ---- the control: a dumpable process of the user, held the same way
hold sh execve /bin/sh -c 'exec /bin/true' || bail_out "strace held nothing"
peek
is "$OUT" "mem:OK" "control: the user opens the memory of its own held sh"
release

# ---- cocoon-launch: the kernel starts a program its caller may not read
# undumpable. Held at its first system call on the host (it then fails:
# no settings there), as it is at every exec in a session.
hold cocoon-launch readlink "$LAUNCH" -c true || bail_out "strace held no cocoon-launch"
peek
is "$OUT" "mem:ERR13" "cocoon-launch (mode $(stat -c %a "$LAUNCH")): its memory is out of the user's reach (EACCES)"
release
install -o root -m 0755 "$LAUNCH" "$H/t/launch-copy"
hold launch-copy readlink "$H/t/launch-copy" -c true || bail_out "strace held no launch-copy"
peek
is "$OUT" "mem:OK" "control: a copy of it the user may read is open to the user"
release

# ---- cocoon-shell's session process, after the switch to the user and
# before the exec of the shell. A credential change makes a process
# dumpable as fs.suid_dumpable says: with 1 only cocoon's own
# PR_SET_DUMPABLE keeps it closed (with 0, the default, the kernel does).
# The sysctl is the host's: held, so that a copy running beside neither
# reads our 1 as the value to restore nor restores its own under us.
host_lock suid-dumpable || bail_out "another copy of the suite holds fs.suid_dumpable"
suid_dumpable=$(cat /proc/sys/fs/suid_dumpable)
echo 1 > /proc/sys/fs/suid_dumpable
hold cocoon-shell execve "$SHELL_BIN" -c 'echo SESSION-RAN' || bail_out "strace held no session process"
like "$(grep '^Uid:' /proc/$PID/status)" "$(id -u $U)	$(id -u $U)	$(id -u $U)	$(id -u $U)" \
	"the held process has switched to the user (fs.suid_dumpable = 1)"
peek
is "$OUT" "mem:ERR13" "cocoon-shell's session process: its memory is out of the user's reach (EACCES)"
release
like "$(cat "$H/t/held.out")" "SESSION-RAN" "the session then ran"
echo "$suid_dumpable" > /proc/sys/fs/suid_dumpable
suid_dumpable=""
host_unlock suid-dumpable

done_testing
