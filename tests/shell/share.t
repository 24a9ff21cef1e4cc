#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# share-sandbox in shell mode: ssh logins of a cocoon-shell account (an
# sshd without pam_cocoon) share one sandbox as PAM logins do: one pid
# namespace, /tmp and processes, tmux across logins, every wall on the
# login that joined (seccomp, no_new_privs, no capabilities, its own
# controlling terminal), linger keeps a nohup job past the last login,
# and cocoonctl stop ends the sandbox with its logins, whose own end
# records say so. The control: the same policy without share-sandbox.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-shshare-$T
TMPDIR_T=$(mktemp -d /run/cocoon-shshare-test.XXXXXX)
CLIENTS=""
cleanup() {
	local c
	for c in $CLIENTS; do kill "$c" 2>/dev/null; done
	syslog_release
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$TMPDIR_T"
}
trap cleanup EXIT

SHARED=ccss1$T ALONE=ccss2$T DIRECT=ccss3$T HOSTDEV=ccss4$T
for u in $SHARED $ALONE; do add_user "$u" -s "$SHELL_BIN"; done
add_user "$DIRECT" -s /bin/sh
add_user "$HOSTDEV" -s /bin/sh
limits_policy "[user $HOSTDEV]
profile = default
share-sandbox = yes
ro-bind = /dev
[user $DIRECT]
profile = default
share-sandbox = yes
[user $SHARED]
profile = default
share-sandbox = yes
linger = 10s
pids-max = 300
[user $ALONE]
profile = default
pids-max = 300"
sshd_start || bail_out "sshd did not start"
for u in $SHARED $ALONE; do sshd_allow "$u"; done

LOGGED=yes
syslog_capture "$TMPDIR_T/syslog" || LOGGED=""
share_two_logins "$SHARED" "$TMPDIR_T" 4211 "cocoon-shell: "
A=$SHARE_FIRST
kill "$A" 2>/dev/null; wait "$A" 2>/dev/null
if [ -n "$LOGGED" ]; then
	# The end records come after both start records.
	syslog_wait "$TMPDIR_T/syslog" "event=end user=$SHARED "
	log=$(grep "user=$SHARED " "$TMPDIR_T/syslog")
	like "$log" "event=start" "cocoon-shell logs its logins' start records"
	like_re "$log" "event=start .*sandbox=[0-9a-f]+ share=created" "the first names the sandbox it created"
	like_re "$log" "event=start .*sandbox=[0-9a-f]+ share=joined" "a later one the sandbox it joined"
	like_re "$log" "event=end .*share=left" "and an end record says the login left"
else
	skip "/dev/log is taken: no audit records to read"
fi

share_linger_job "$SHARED" 4213

# cocoonctl stop ends a shared sandbox with both its logins, and each
# login's own end record (cocoon-shell's) says result=stopped, as stop's
# does, not result=ended.
for n in 1 2; do
	ssh_bg "$TMPDIR_T/s$n.out" "$SHARED" "echo up; sleep 421$((4 + n))"
	CLIENTS="$CLIENTS $CLIENT"
	for i in $(seq 100); do grep -q . "$TMPDIR_T/s$n.out" 2>/dev/null && break; sleep 0.1; done
done
logins=$("$CTL" list 2>/dev/null | awk -v u="$SHARED" '$2 == u { print $1 }' | xargs)
sandbox=$("$CTL" list 2>/dev/null | awk -v u="$SHARED" '$2 == u && / shared, / { print $1 }')
run "$CTL" stop "$sandbox"
like "$OUT" "stopped shared sandbox $sandbox (user $SHARED" "stop ends the shared sandbox of two cocoon-shell logins"
for i in $(seq 100); do [ "$(live_procs "$SHARED")" = 0 ] && break; sleep 0.1; done
if [ -n "$LOGGED" ]; then
	for id in $logins; do syslog_wait "$TMPDIR_T/syslog" "session=$id result=stopped duration=" 10; done
	is "$(grep -F "event=end" "$TMPDIR_T/syslog" | grep -cE "session=(${logins// /|}) result=stopped duration=[0-9]+ status=[0-9]+ sandbox=$sandbox share=left")" 2 \
		"each login's own end record says result=stopped, share=left ($logins)"
else
	skip "/dev/log is taken: no audit records to read"
fi
ok $([ -n "$logins" ] && [ "$(ls -A "$COCOON_ROOT/run/cocoon" | grep -cE "^\.(${logins// /|})\.stop")" = 0 ]; echo $?) \
	"and no mark of stop's is left"

# The control: the same policy without share-sandbox.
share_alone_control "$ALONE" "$TMPDIR_T" 4214

# The real shell is the front door's in every mode: an account whose
# login shell is /bin/sh, running cocoon-shell itself, gets the shell
# cocoon-shell picks when none is set (bash), shared as unshared.
out=$(cd / && runuser -u "$DIRECT" -- "$SHELL_BIN" -c 'echo shell=${BASH_VERSION:+bash}' 2>&1)
is "$out" "shell=bash" "a shared login runs the real shell the front door chose, not the account's login shell"

# A joined login on a terminal gets /dev/console-ID only in the plan's
# own /dev: with the host's bound there (ro-bind = /dev after the
# profile's dev), it runs as before, by the host's name for its terminal,
# and nothing is made in the host's /dev (which is nodev there: no
# /dev/null).
on_tty() { timeout 30 script -qec "runuser -u $HOSTDEV -- $SHELL_BIN -c '$1'" /dev/null < /dev/null 2>&1 | tr -d '\r'; }
(cd / && exec runuser -u "$HOSTDEV" -- "$SHELL_BIN" -c 'sleep 4260') < /dev/null > /dev/null 2>&1 &
CLIENTS="$CLIENTS $!"
wait_process "$HOSTDEV" -x sleep
before=$(ls /dev | grep -c '^console-')
OUT=$(cd / && on_tty 'pgrep -x sleep | grep -q . && echo sees-holder; tty')
like "$OUT" "sees-holder" "host /dev in the plan: a login on a terminal joins the sandbox"
like_re "$OUT" "^/dev/pts/[0-9]+$" "and runs, its terminal named by the host's devpts"
is "$(ls /dev | grep -c '^console-')" "$before" "nothing is made in the host's /dev"
done_testing
