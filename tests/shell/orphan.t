#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon-shell takes the process that started it (its parent) for the
# login's, and ends the session when it ends. A login whose process had
# already ended when cocoon-shell started (sshd's session child gone
# while its shell child still ran ~/.ssh/rc, the connection dropped) has
# pid 1 as the parent, which never ends: without a terminal the session
# lived on (measured 2026-12-04 before the fix: the orphan's sleep still
# ran 5 s later, its record listed). Such a login is refused.
# The control: the same chain with its parent alive, then killed, ends.
. "$(dirname "$0")/../lib.sh"
U=revor1$T
W=$(mktemp -d /var/tmp/cocoon-rev-orphan.XXXXXX)
chmod 0755 "$W"
PARENT=""
cleanup() {
	[ -n "$PARENT" ] && kill -KILL "$PARENT" 2>/dev/null
	pkill -KILL -u "$U" 2>/dev/null
	syslog_release
	policy_reset; cleanup_users; rm -rf "$W"
}
trap cleanup EXIT
# Refusals show the user a reference; the reason is in the log.
log=$W/syslog
syslog_capture "$log" || log=""
add_user $U -s "$SHELL_BIN" || bail_out "useradd $U"
policy_reset
uid=$(id -u $U) gid=$(id -g $U)
as_user="setpriv --reuid=$uid --regid=$gid --init-groups"
cmd='trap "" HUP; exec sleep 308'
sleeps() { pgrep -u $U -x sleep | wc -l; }
started() { local i; for i in $(seq 50); do [ "$(sleeps)" -ge 1 ] && return 0; sleep 0.1; done; return 1; }

# Control: cocoon-shell's parent (a root sh standing for su or sshd's
# session child) alive while the session starts, then killed.
setsid sh -c "$as_user $SHELL_BIN -c '$cmd' </dev/null >$W/control.out 2>&1 & wait" &
PARENT=$!
started
ok $? "control: with its parent alive, the session starts"
kill -KILL "$PARENT"; wait "$PARENT" 2>/dev/null; PARENT=""
sleep 4
is "$(sleeps)" 0 "control: its parent killed, the session ends within the grace"
pkill -KILL -u $U; wait_gone $U

# The orphan: the parent gone before cocoon-shell's exec.
setsid -f sh -c "sleep 0.5; exec $as_user $SHELL_BIN -c '$cmd' </dev/null >$W/orphan.out 2>&1"
# Until cocoon-shell has said something (a busy host takes seconds to
# start it), then the 3 s a session that got in would need to show.
for i in $(seq 300); do [ -s "$W/orphan.out" ] && break; sleep 0.1; done
sleep 3
is "$(sleeps)" 0 "orphaned before it started (its parent pid 1), the login is refused"
OUT=$(cat "$W/orphan.out")
refusal_logged "$log" "the login is over" "and says why, in the log"
pkill -KILL -u $U; wait_gone $U

done_testing
