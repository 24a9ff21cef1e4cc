#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# share-sandbox and linger through sshd with pam_cocoon: a user's logins
# with the same plan share one sandbox (one pid namespace, /tmp, the
# processes, tmux), each with every wall a new login gets; a login whose
# plan differs gets its own; simultaneous first logins make one sandbox;
# linger keeps a nohup job past the last login, and the sandbox ends when
# the linger does. The control: the same user without share-sandbox sees
# none of another login's processes or files.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-share-$T
TMPDIR_T=$(mktemp -d /run/cocoon-share-test.XXXXXX)
cleanup() {
	sshd_cleanup
	syslog_release
	policy_reset; cleanup_users; rm -rf "$TMPDIR_T"
}
trap cleanup EXIT
LOG=$TMPDIR_T/syslog
syslog_capture "$LOG" || LOG=""

share_sandbox_or_skip

SHARED=ccsh1$T LINGER=ccsh2$T ALONE=ccsh3$T
for u in $SHARED $LINGER $ALONE; do add_user "$u" -s /bin/bash; done
# pids-max: the sandbox gets a cgroup of its own, which the logins share.
limits_policy "[user $SHARED]
profile = default
share-sandbox = yes
pids-max = 300
[user $LINGER]
profile = default
share-sandbox = yes
linger = 10s
[user $ALONE]
profile = default
pids-max = 300"
run "$CTL" check
is "$RC" 0 "the policy passes check" ; [ "$RC" = 0 ] || printf "%s\n" "$OUT" | sed "s/^/# /"
guest_sshd_start || bail_out "sshd did not start"
for u in $SHARED $LINGER $ALONE; do sshd_allow "$u"; done

pidns='stat -L -c %i /proc/self/ns/pid'

# ---- Two concurrent logins of one user share one sandbox
ssh_bg "$TMPDIR_T/a.out" "$SHARED" "$pidns; echo from-a > /tmp/share-mark; sleep 4207"
A=$CLIENT
for i in $(seq 100); do grep -q . "$TMPDIR_T/a.out" 2>/dev/null && break; sleep 0.1; done
sleep 0.5
# shellcheck disable=SC2046
B=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$SHARED" 127.0.0.1 "$pidns; cat /tmp/share-mark; pgrep -x sleep >/dev/null && echo sees-sleep; grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status | tr -s '\t' ' '; echo tty_nr=\$(cut -d' ' -f7 /proc/self/stat)" 2>&1 | tr -d '\r')
ns_a=$(head -1 "$TMPDIR_T/a.out")
ns_b=$(printf '%s\n' "$B" | head -1)
ok $([ -n "$ns_a" ] && [ "$ns_a" = "$ns_b" ]; echo $?) "a second login is in the first one's pid namespace ($ns_a, $ns_b)"
like "$B" "from-a" "it sees the first login's /tmp"
like "$B" "sees-sleep" "and its processes"
like "$B" "Seccomp: 2" "the login that joined runs under the seccomp filter"
like "$B" "NoNewPrivs: 1" "with no_new_privs"
like "$B" "CapEff: 0000000000000000" "and no capabilities"
like_re "$B" "tty_nr=[1-9]" "and a controlling terminal of its own"

# tmux started by one login, attached by the next.
ssh_as "$SHARED" "tmux new-session -d -s work 'sleep 4208'" >/dev/null 2>&1
# shellcheck disable=SC2046
T2=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$SHARED" 127.0.0.1 "TERM=xterm tmux attach-session -t work \\; detach-client" 2>&1 | tr -d '\r')
like "$T2" "[detached (from session work)]" "tmux started in one login attaches from the next, over ssh with a pty"

# A login shell changed while the sandbox lives (chsh, the directory):
# the tree covers the old one with cocoon-launch, not the new one, which
# would run there without the walls. The joining login is refused.
# (/bin/sh's file, dash, is covered too: python3 stands for another shell.)
W=$(ssh_as "$SHARED" 'stat -L -c %i /bin/bash /usr/bin/python3' 2>/dev/null | tail -2 | sort -u | wc -l)
is "$W" 2 "control: in the shared tree python3 is not cocoon-launch, as the login shell /bin/bash is"
usermod -s /usr/bin/python3 "$SHARED"
run ssh_as "$SHARED" 'grep Seccomp: /proc/self/status'
like "$OUT" "refused by the session policy" "a login whose shell changed since the sandbox was made is refused"
unlike "$OUT" "Seccomp:" "and runs nothing"
refusal_logged "$LOG" "the login shell /usr/bin/python3 is not the shared sandbox's (changed since it was made)" \
	"the log says the login shell changed"
usermod -s /bin/bash "$SHARED"
# cocoon upgraded while the sandbox lives: the tree covers the login shell
# with the old cocoon-launch, which need not speak the new module's
# language. The joining login is refused, and the log names the upgrade,
# not the login shell.
launcher=$COCOON_ROOT/usr/libexec/cocoon/cocoon-launch
run ssh_as "$SHARED" 'echo joined-before'
like "$OUT" "joined-before" "control: before the upgrade a login joins"
cp -p "$launcher" "$launcher.new" && mv "$launcher.new" "$launcher"
run ssh_as "$SHARED" 'echo joined-after'
unlike "$OUT" "joined-after" "after cocoon-launch is replaced, a login that would join is refused"
refusal_logged "$LOG" "cocoon-launch $launcher was replaced since the shared sandbox was made" \
	"the log says cocoon-launch was replaced, not that the login shell changed"

kill "$A" 2>/dev/null; wait "$A" 2>/dev/null
# With linger = no the sandbox ends with its last login: nothing of it
# survives.
for i in $(seq 50); do [ "$(live_procs "$SHARED")" = 0 ] && break; sleep 0.1; done
is "$(live_procs "$SHARED")" 0 "once the last login is over, nothing of the shared sandbox survives (linger = no)"
# The control: the same changed shell in a sandbox of its own, whose tree
# covers it, is let in.
usermod -s /usr/bin/python3 "$SHARED"
run ssh_as "$SHARED" 'import os; print("python-ran", open("/proc/self/status").read().count("Seccomp:\t2"))'
like "$OUT" "python-ran 1" "control: with no shared sandbox to join, that shell runs, under the filter"
usermod -s /bin/bash "$SHARED"
for i in $(seq 50); do [ "$(live_procs "$SHARED")" = 0 ] && break; sleep 0.1; done

# ---- The control: without share-sandbox each login is alone
ssh_bg "$TMPDIR_T/c.out" "$ALONE" "$pidns; echo from-c > /tmp/share-mark; sleep 4209"
C=$CLIENT
for i in $(seq 100); do grep -q . "$TMPDIR_T/c.out" 2>/dev/null && break; sleep 0.1; done
D=$(ssh_as "$ALONE" "$pidns; cat /tmp/share-mark 2>&1; pgrep -x sleep >/dev/null && echo sees-sleep")
ok $([ "$(head -1 "$TMPDIR_T/c.out")" != "$(printf '%s\n' "$D" | head -1)" ]; echo $?) \
	"control: without share-sandbox a second login has a pid namespace of its own"
unlike "$D" "from-c" "control: and does not see the first login's /tmp"
unlike "$D" "sees-sleep" "control: or its processes"
kill "$C" 2>/dev/null; wait "$C" 2>/dev/null

# ---- Simultaneous first logins make one sandbox
pids=""
for i in 1 2 3 4 5; do
	ssh_as "$LINGER" "$pidns" > "$TMPDIR_T/race.$i" 2>&1 &
	pids="$pids $!"
done
wait $pids
is "$(cat "$TMPDIR_T"/race.* | sort -u | wc -l)" 1 "five simultaneous first logins share one sandbox"

# ---- linger: a nohup job outlives the last login, until the linger ends
ssh_as "$LINGER" "nohup sleep 4210 >/dev/null 2>&1 </dev/null & echo started" >/dev/null
sleep 1
L=$(ssh_as "$LINGER" "pgrep -x sleep >/dev/null && echo job-alive")
like "$L" "job-alive" "a nohup job outlives its login while the sandbox lingers"
for i in $(seq 300); do [ "$(live_procs "$LINGER")" = 0 ] && break; sleep 0.1; done
is "$(live_procs "$LINGER")" 0 "once the linger is over the sandbox ends with everything in it"
L2=$(ssh_as "$LINGER" "pgrep -x sleep >/dev/null && echo job-alive; echo new")
unlike "$L2" "job-alive" "and the next login gets a new sandbox"

done_testing
