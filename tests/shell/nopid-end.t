#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A login's session without a pid namespace ends with its login only
# through its cgroup: the caller signals the cgroup and the first
# process. A plan with neither (no 'unshare = pid', no limit that makes
# a cgroup) let a child that ignores SIGHUP outlive the login (measured
# 2026-12-04 before the fix: `trap "" HUP; sleep & exec sleep`, its
# runuser killed, the background sleep still ran 15 s later; the same
# through a real sshd). Such a login is now refused. The control: the
# same plan with pids-max ends every process with the login.
. "$(dirname "$0")/../lib.sh"
U=revnp1$T
P=""
OUTF=$(mktemp /tmp/revnp.XXXXXX)
cleanup() {
	[ -n "$P" ] && kill -KILL "$P" 2>/dev/null
	pkill -KILL -u "$U" 2>/dev/null
	syslog_release
	policy_reset; cleanup_users; rm -f "$OUTF" "$log"
}
log=$(mktemp /tmp/revnp-syslog.XXXXXX)
trap cleanup EXIT
# Refusals show the user a reference; the reason is in the log.
syslog_capture "$log" || log=""
add_user $U -s "$SHELL_BIN" || bail_out "useradd $U"
policy_reset
profile='[profile nopid]\nro-bind = /usr\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib\nsymlink = usr/lib64 /lib64\nunshare = ipc\n[default]\nsandbox = none\n'
cmd='trap "" HUP; sleep 307 & exec sleep 306'

# login LIMITS: the session started by runuser in the background, its
# own session (no terminal), runuser then killed; prints how many of the
# user's sleeps are left 5 s later.
login() {
	printf "[user %s]\nprofile = nopid\n$1$profile" $U | policy_write cocoon.conf
	setsid runuser -u $U -- "$SHELL_BIN" -c "$cmd" > "$OUTF" 2>&1 &
	P=$!
	local i
	for i in $(seq 50); do pgrep -u $U -x sleep >/dev/null && [ "$(pgrep -u $U -x sleep | wc -l)" = 2 ] && break; sleep 0.1; done
	STARTED=$(pgrep -u $U -x sleep | wc -l)
	# runuser is the login's process: its end is the login's.
	pkill -KILL -P "$P" -x runuser 2>/dev/null; kill -KILL "$P" 2>/dev/null
	wait "$P" 2>/dev/null; P=""
	sleep 5
	LEFT=$(pgrep -u $U -x sleep | wc -l)
	OUT=$(cat "$OUTF")
	pkill -KILL -u $U 2>/dev/null; wait_gone $U
}

login 'pids-max = 100\n'
is "$STARTED" 2 "control: with a cgroup (pids-max), the session starts both sleeps"
is "$LEFT" 0 "control: with a cgroup, killing the login ends the sleep that ignores SIGHUP"

login ''
is "$STARTED" 0 "without a pid namespace or a cgroup, the login is refused"
is "$LEFT" 0 "nothing of it outlives the login"
refusal_logged "$log" "needs a cgroup" "the refusal says why, in the log"

done_testing
