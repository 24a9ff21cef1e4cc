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

SHARED=ccss1$T ALONE=ccss2$T DIRECT=ccss3$T
for u in $SHARED $ALONE; do add_user "$u" -s "$SHELL_BIN"; done
add_user "$DIRECT" -s /bin/sh
limits_policy "[user $DIRECT]
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

pidns='stat -L -c %i /proc/self/ns/pid'
LOGGED=yes
syslog_capture "$TMPDIR_T/syslog" || LOGGED=""
ssh_bg "$TMPDIR_T/a.out" "$SHARED" "$pidns; echo from-a > /tmp/share-mark; sleep 4211"
A=$CLIENT
for i in $(seq 100); do grep -q . "$TMPDIR_T/a.out" 2>/dev/null && break; sleep 0.1; done
sleep 0.5
# shellcheck disable=SC2046
B=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$SHARED" 127.0.0.1 "$pidns; cat /tmp/share-mark; pgrep -x sleep >/dev/null && echo sees-sleep; grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status | tr -s '\t' ' '; echo tty_nr=\$(cut -d' ' -f7 /proc/self/stat)" 2>&1 | tr -d '\r')
ns_a=$(head -1 "$TMPDIR_T/a.out")
ns_b=$(printf '%s\n' "$B" | head -1)
ok $([ -n "$ns_a" ] && [ "$ns_a" = "$ns_b" ]; echo $?) "cocoon-shell: a second login is in the first one's pid namespace ($ns_a, $ns_b)"
like "$B" "from-a" "it sees the first login's /tmp"
like "$B" "sees-sleep" "and its processes"
like "$B" "Seccomp: 2" "the login that joined runs under the seccomp filter"
like "$B" "NoNewPrivs: 1" "with no_new_privs"
like "$B" "CapEff: 0000000000000000" "and no capabilities"
like_re "$B" "tty_nr=[1-9]" "and a controlling terminal of its own"

ssh_as "$SHARED" "tmux new-session -d -s work 'sleep 4212'" >/dev/null 2>&1
# shellcheck disable=SC2046
T2=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$SHARED" 127.0.0.1 "TERM=xterm tmux attach-session -t work \\; detach-client" 2>&1 | tr -d '\r')
like "$T2" "[detached (from session work)]" "tmux started in one login attaches from the next, over ssh with a pty"
kill "$A" 2>/dev/null; wait "$A" 2>/dev/null
if [ -n "$LOGGED" ]; then
	sleep 0.3
	log=$(grep "user=$SHARED " "$TMPDIR_T/syslog")
	like "$log" "event=start" "cocoon-shell logs its logins' start records"
	like_re "$log" "event=start .*sandbox=[0-9a-f]+ share=created" "the first names the sandbox it created"
	like_re "$log" "event=start .*sandbox=[0-9a-f]+ share=joined" "a later one the sandbox it joined"
	like_re "$log" "event=end .*share=left" "and an end record says the login left"
else
	skip "/dev/log is taken: no audit records to read"
fi

ssh_as "$SHARED" "nohup sleep 4213 >/dev/null 2>&1 </dev/null & echo started" >/dev/null
sleep 1
L=$(ssh_as "$SHARED" "pgrep -x sleep >/dev/null && echo job-alive")
like "$L" "job-alive" "a nohup job outlives its login while the sandbox lingers"
for i in $(seq 300); do [ "$(live_procs "$SHARED")" = 0 ] && break; sleep 0.1; done
is "$(live_procs "$SHARED")" 0 "once the linger is over the sandbox ends with everything in it"
[ "$(live_procs "$SHARED")" = 0 ] || ps -eo pid,ppid,uid,stat,args | grep -E "$SHARED|cocoon|sleep 42" | grep -v grep | sed 's/^/# /'


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
is "$(ls -A "$COCOON_ROOT/run/cocoon" | grep -cE "^\.(${logins// /|})\.stopped\$")" 0 \
	"and no mark of stop's is left"

# The control: the same policy without share-sandbox.
ssh_bg "$TMPDIR_T/c.out" "$ALONE" "$pidns; echo from-c > /tmp/share-mark; sleep 4214"
C=$CLIENT
for i in $(seq 100); do grep -q . "$TMPDIR_T/c.out" 2>/dev/null && break; sleep 0.1; done
D=$(ssh_as "$ALONE" "$pidns; cat /tmp/share-mark 2>&1; pgrep -x sleep >/dev/null && echo sees-sleep")
ok $([ "$(head -1 "$TMPDIR_T/c.out")" != "$(printf '%s\n' "$D" | head -1)" ]; echo $?) \
	"control: without share-sandbox a second login has a pid namespace of its own"
unlike "$D" "from-c" "control: and does not see the first login's /tmp"
unlike "$D" "sees-sleep" "control: or its processes"
kill "$C" 2>/dev/null; wait "$C" 2>/dev/null

# The real shell is the front door's in every mode: an account whose
# login shell is /bin/sh, running cocoon-shell itself, gets the shell
# cocoon-shell picks when none is set (bash), shared as unshared.
out=$(cd / && runuser -u "$DIRECT" -- "$SHELL_BIN" -c 'echo shell=${BASH_VERSION:+bash}' 2>&1)
is "$out" "shell=bash" "a shared login runs the real shell the front door chose, not the account's login shell"

done_testing
