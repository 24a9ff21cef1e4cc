#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults around running guest sessions (the shipped guest.conf, a real
# sshd with pam_cocoon): the session's cocoon-init killed by root, the
# sshd process serving it killed, the client vanishing, the policy file
# deleted or made invalid while sessions run, a pids-max or memory-max
# too small for setup. Each ends or refuses only the affected session,
# with a log line, and leaves no process, mount, cgroup, run-time record
# or sshd descriptor behind; a second session running alongside carries
# on (the control).
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-fault-$T
work=$(mktemp -d /run/cocoon-fault-test.XXXXXX)
chmod 0755 "$work"
CLIENT=""
bystander=""
cleanup() {
	[ -n "$CLIENT" ] && kill -KILL "$CLIENT" 2>/dev/null
	[ -n "$bystander" ] && kill -KILL "$bystander" 2>/dev/null
	sshd_cleanup
	syslog_release
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccft3$T
add_user ccft4$T
guest_policy ccft3$T ccft4$T
LOGGED=yes
syslog_capture "$work/syslog" || { LOGGED=""; echo "# /dev/log is taken: log lines are not checked"; }
guest_sshd_start || { echo "Bail out! sshd"; exit 1; }
sshd_allow ccft3$T
sshd_allow ccft4$T
before=$(leftovers)

# The bystander: a session of ccft4 through every fault, checked at the end.
ssh_bg "$work/bystander.out" ccft4$T 'cat /proc/1/comm; echo mine > /tmp/mark; sleep 900; cat /tmp/mark; ls /tmp'
bystander=$CLIENT
base=$before
# The count to come back to is taken once its sleep runs.
wait_output "$work/bystander.out" cocoon-init
wait_process ccft4$T -x sleep
base=$(leftovers)

# session_init USER: the cocoon-init (pid 1, "hold" mode) of the pid
# namespace USER's sleep runs in, waited for.
# live_sleep USER: USER's sleep that is alive. pgrep would match the
# zombies of sessions killed earlier too (this machine's pid 1 never reaps
# what is reparented to it), whose parent is long gone.
live_sleep() {
	ps -u "$1" -o pid=,stat=,comm= | awk '$2 !~ /^Z/ && $3 == "sleep" { print $1; exit }'
}
session_init() {
	local i p ns q
	# Up to 30 s: right after the fork bomb of the test before, a login
	# can be slow.
	for i in $(seq 300); do
		p=$(live_sleep "$1")
		ns=$([ -n "$p" ] && readlink "/proc/$p/ns/pid")
		for q in $(pgrep -x cocoon-init); do
			[ -n "$ns" ] && [ "$(readlink "/proc/$q/ns/pid")" = "$ns" ] &&
				{ echo "$q"; return 0; }
		done
		sleep 0.1
	done
	return 1
}
# alive PID: running, not a zombie.
alive() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
# log_lines PATTERN: syslog lines so far matching PATTERN.
log_lines() { grep -E "$1" "$work/syslog" 2>/dev/null; }
# logged GOT WANT NAME: like, when the test could capture syslog.
logged() { if [ -n "$LOGGED" ]; then like "$@"; else skip "no syslog: $3"; fi; }
# start_victim: a ccft3 session that sleeps, its client in CLIENT.
start_victim() {
	ssh_bg "$work/victim.out" ccft3$T 'cat /proc/1/comm; exec sleep 900'
	VICTIM_INIT=$(session_init ccft3$T)
}
# ended WHAT: the victim's client returns, nothing of it is left.
ended() {
	local i
	for i in $(seq 150); do kill -0 "$CLIENT" 2>/dev/null || break; sleep 0.1; done
	ok $(! kill -0 "$CLIENT" 2>/dev/null; echo $?) "$1: the client's connection ends"
	kill -KILL "$CLIENT" 2>/dev/null; wait "$CLIENT" 2>/dev/null; CLIENT=""
	ok $(wait_gone ccft3$T; echo $?) "$1: no process of the user is left"
	is "$(settle_to "$base")" "$base" "$1: processes, mounts, cgroups, records, sshd fds as before"
}

# ---- root kills the session's cocoon-init ----
start_victim
ok $([ -n "$VICTIM_INIT" ]; echo $?) "the victim's session has its cocoon-init ($VICTIM_INIT)"
kill -KILL "$VICTIM_INIT"
ended "cocoon-init killed"
# Its own end record: other sessions on the host log to the same socket.
logged "$(log_lines "event=\"?end\"? user=\"?ccft3$T[\" ]" | tail -1)" "user=ccft3$T" \
	"cocoon-init killed: the session's end is logged"

# ---- the sshd process serving the session is killed ----
start_victim
# The session's privileged sshd ([priv], root): the grandparent of the
# user's command (sleep <- sshd: ccft3@notty <- sshd: ccft3 [priv]).
# (The command starts after the session's pid 1: wait for it.)
victim=""
for i in $(seq 300); do
	victim=$(live_sleep ccft3$T)
	[ -n "$victim" ] && break
	sleep 0.1
done
# (ps pads its numbers: strip them before the next -p.)
parent=$(ps -o ppid= -p "$victim" | tr -d ' ')
serving=$(ps -o ppid= -p "$parent" | tr -d ' ')
# Shown when the chain cannot be followed, to tell why.
[ -n "$serving" ] || { echo "# victim=$victim"; ps -eo pid,ppid,stat,user,cmd |
	grep -E "ccft3$T|sleep 900" | sed "s/^/# /"; }
is "$(ps -o user= -p "$serving" | tr -d ' ')" root "the session's root sshd is $serving"
victim_cg=$(grep -E '^[0-9]+:pids:' "/proc/$victim/cgroup" | cut -d: -f3)
# Never a guess: an empty or low pid here (0 is the whole process group)
# would kill the test run itself.
[ "${serving:-0}" -gt 1 ] 2>/dev/null && kill -KILL "$serving"
for i in $(seq 100); do alive "$VICTIM_INIT" || break; sleep 0.1; done
# Nothing was left to remove the session's cgroup: the next session to
# start removes it once it is old enough (aged here by hand).
ok $([ -d "/sys/fs/cgroup/pids$victim_cg" ]; echo $?) "serving sshd killed: its empty cgroup stays for a while"
for c in pids memory cpu; do touch -d '-10 min' "/sys/fs/cgroup/$c$victim_cg" 2>/dev/null; done
run ssh_as ccft3$T true
ok $([ ! -d "/sys/fs/cgroup/pids$victim_cg" ]; echo $?) "  until the next session sweeps it away"
ended "serving sshd killed"
ok $(! alive "$VICTIM_INIT"; echo $?) "serving sshd killed: its cocoon-init ended too"

# ---- the client vanishes ----
start_victim
kill -KILL "$CLIENT"
ended "client killed"
ok $(! alive "$VICTIM_INIT"; echo $?) "client killed: its cocoon-init ended too"

# ---- the policy deleted, then made invalid, while a session runs ----
cp "$CONF_DIR/cocoon.conf" "$work/policy"
start_victim
rm -f "$CONF_DIR/cocoon.conf"
run ssh_as ccft4$T 'cat /proc/1/comm; test -w /usr || echo usr-read-only'
is "$OUT" "cocoon-init
usr-read-only" "policy deleted: a new session gets the embedded default, confined"
logged "$(log_lines "user=\"?ccft4$T" | tail -1)" "profile=default" "  as its log line says"
printf '[default]\nprofile = guest\nbogus-directive = 1\n' | policy_write cocoon.conf
run ssh_as ccft4$T 'echo sandboxed-run'
ok $([ "$RC" -ne 0 ]; echo $?) "policy invalid: a new session is refused"
logged "$(log_lines bogus-directive | grep -F "$CONF_DIR/" | tail -1)" "cocoon.conf:3" \
	"  the log names the file and line"
ok $(kill -0 "$CLIENT" 2>/dev/null; echo $?) "the running session carries on"
cp "$work/policy" "$CONF_DIR/cocoon.conf"
kill -KILL "$VICTIM_INIT"
ended "after the policy came back"

# ---- setup under a pids-max or memory-max too small for it ----
small_policy() { # small_policy DIRECTIVE: guest.conf plus it, for ccft3$T
	sed "/^\[user ccft3$T\]/,/^\[/ s/^profile = guest$/profile = guest\n$1/" \
		"$work/policy" | policy_write cocoon.conf
}
small_policy "pids-max = 1"
run ssh_as ccft3$T 'echo sandboxed-run'
ok $([ "$RC" -ne 0 ]; echo $?) "pids-max = 1: the session is refused"
unlike "$OUT" "sandboxed-run" "  and runs nothing"
logged "$(log_lines "ccft3$T" | tail -3)" "ccft3$T" "  with a log line"
is "$(settle_to "$base")" "$base" "  and nothing is left"
small_policy "memory-max = 1M"
run "$CTL" check
like "$OUT" "cocoon.conf:" "memory-max = 1M: a policy error at its file:line"
like "$OUT" "too small to set up a session" "  that says why"
run ssh_as ccft3$T 'echo sandboxed-run'
unlike "$OUT" "sandboxed-run" "  and no session starts"
small_policy "memory-max = 32M"
run ssh_as ccft3$T '/usr/bin/python3 -c "b = bytearray(200 << 20); print(\"allocated\")"; echo sandboxed-run'
like "$OUT" "sandboxed-run" "memory-max = 32M: the session is set up"
ok $(! echo "$OUT" | grep -qx allocated; echo $?) "  and an allocation beyond it is killed"
is "$(settle_to "$base")" "$base" "  and nothing is left"
cp "$work/policy" "$CONF_DIR/cocoon.conf"

# ---- the control: the bystander saw none of it ----
ok $(kill -0 "$bystander" 2>/dev/null; echo $?) "the bystander's session is still running"
kill "$(live_sleep ccft4$T)"
wait "$bystander"
is "$(grep -v Terminated "$work/bystander.out")" "cocoon-init
mine
mark" "  its own /tmp intact, none of the others' files in it"
bystander=""
is "$(settle_to "$before")" "$before" "in the end nothing of any session is left"

done_testing
