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

# ---- Two concurrent logins of one user share one sandbox; tmux
# started by one login is attached by the next.
share_two_logins "$SHARED" "$TMPDIR_T" 4207
A=$SHARE_FIRST

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
share_alone_control "$ALONE" "$TMPDIR_T" 4209

# ---- Simultaneous first logins make one sandbox
pids=""
for i in 1 2 3 4 5; do
	ssh_as "$LINGER" "$pidns" > "$TMPDIR_T/race.$i" 2>&1 &
	pids="$pids $!"
done
wait $pids
is "$(cat "$TMPDIR_T"/race.* | sort -u | wc -l)" 1 "five simultaneous first logins share one sandbox"

# ---- linger: a nohup job outlives the last login, until the linger ends
share_linger_job "$LINGER" 4210
L2=$(ssh_as "$LINGER" "pgrep -x sleep >/dev/null && echo job-alive; echo new")
unlike "$L2" "job-alive" "and the next login gets a new sandbox"

done_testing
