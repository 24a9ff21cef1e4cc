#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A login that joins a shared sandbox (share-sandbox) and fails half way,
# by a fault injected after pid 1 took it in (the fault-injection build of
# make check-build-fault): the login is refused with the step's name, and
# leaves no record, cgroup or process behind, while the shared sandbox and
# the login that holds it go on. The control: the same login without a
# fault joins. And cocoon-shell's login without its program's pidfd, and
# with its terminal not bound in the sandbox.
ORDINARY_ROOT=$COCOON_ROOT
COCOON_ROOT=$COCOON_ROOT/fault
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-pam-fshare-$T
HOLDER=""
cleanup() {
	syslog_release
	[ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null
	[ -n "${work:-}" ] && rm -rf "$work"
	rm -f "/etc/pam.d/$SERVICE"
	policy_reset; cleanup_users
}
trap cleanup EXIT
[ -x "$CTL" ] || { echo "1..0 # skip no fault-injection build (make check-build-fault)"; exit 0; }
if [ -d /run/systemd/system ]; then
	echo "1..0 # skip under systemd a shared sandbox is a systemd scope (tests/vm/35-share-systemd.t)"
	exit 0
fi

U=ccfs1$T
add_user "$U" -s /bin/bash
limits_policy "[user $U]
profile = default
share-sandbox = yes
pids-max = 300"
work=$(mktemp -d /run/cocoon-fshare-test.XXXXXX)
# After pam_cocoon's close: the cgroups the service went back to.
cat > "$work/cgroups-at-close" <<SH
#!/bin/sh
cat /proc/\$PPID/cgroup > "$work/at-close"
SH
chmod 0755 "$work/cgroups-at-close"
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so
session optional pam_exec.so type=close_session $work/cgroups-at-close
PAM

# The login that holds the shared sandbox: cocoon-shell's, of the same
# plan.
runuser -u "$U" -- "$COCOON_ROOT/usr/bin/cocoon-shell" -c 'sleep 4230' 2>/dev/null &
HOLDER=$!
wait_process "$U" -x sleep
ok $(pgrep -u "$U" -x sleep >/dev/null; echo $?) "a cocoon-shell login holds the shared sandbox"
# Once its record is published (no ".ID.new" left).
for i in $(seq 100); do
	[ -z "$(find "$COCOON_ROOT/run/cocoon" -name '.*.new' 2>/dev/null)" ] && break
	sleep 0.1
done
# Stale records of earlier runs swept now, not half way through.
"$CTL" list >/dev/null 2>&1
before=$(leftovers)
LOGGED=yes
syslog_capture "$work/syslog" || LOGGED=""

for step in join setns "writing the session record"; do
	OUT=$(COCOON_FAULT=$step pamtester "$SERVICE" "$U" open_session close_session 2>&1)
	RC=$?
	ok $([ "$RC" -ne 0 ]; echo $?) "a fault at '$step' refuses the login that joins"
	if [ -n "$LOGGED" ]; then
		syslog_wait "$work/syslog" ": $step" 10
		like "$(cat "$work/syslog")" "fault injected at step" "and the log names the step"
		like "$(cat "$work/syslog")" ": $step" "($step)"
		: > "$work/syslog"
	fi
	now=$(settle_to "$before")
	is "$now" "$before" "and leaves nothing (records, cgroups, processes, inits)"
done
ok $(pgrep -u "$U" -x sleep >/dev/null; echo $?) "the shared sandbox and its holder go on"

# The control: without a fault the same login joins and ends cleanly.
OUT=$(pamtester "$SERVICE" "$U" open_session close_session 2>&1)
is "$?" 0 "control: without a fault the login opens and closes"
# The service entered the sandbox's cgroup to join it, and went back to
# its own, the root of a hierarchy included.
is "$(cat "$work/at-close" 2>/dev/null)" "$(cat /proc/self/cgroup)" \
	"control: at the close the service is back in its own cgroups"
is "$(settle_to "$before")" "$before" "control: and leaves nothing either"

# cocoon-shell's login waits for its program by a pidfd; without one
# (pidfd_open failed: "login pidfd") it looks with waitpid, and a program
# that ends is seen to end, its status the login's. (It used to poll on
# no descriptor and hang until its parent, which waits for it, ended.)
OUT=$(COCOON_FAULT="login pidfd" timeout 30 runuser -u "$U" -- \
	"$COCOON_ROOT/usr/bin/cocoon-shell" -c 'echo login-ran; exit 3' 2>&1)
is "$?" 3 "without its program's pidfd, a login sees it end, with its status"
like "$OUT" "login-ran" "and it ran"
OUT=$(timeout 30 runuser -u "$U" -- "$COCOON_ROOT/usr/bin/cocoon-shell" -c 'echo login-ran; exit 3' 2>&1)
is "$?" 3 "control: with its pidfd, the same"
is "$(settle_to "$before")" "$before" "and both leave nothing"

# A cocoon-shell login on a terminal that joins binds it at
# /dev/console-ID in the sandbox; a fault there refuses the login.
shell_on_tty() { # the login's program, under script(1)'s terminal
	timeout 30 script -qec "runuser -u $U -- $COCOON_ROOT/usr/bin/cocoon-shell -c '$1'" /dev/null \
		< /dev/null 2>&1 | tr -d '\r'
}
OUT=$(COCOON_FAULT="terminal attach" shell_on_tty 'echo login-ran')
unlike "$OUT" "login-ran" "a fault at 'terminal attach' refuses a joined login on a terminal"
like "$OUT" "refused by the session policy" "which is told so"
if [ -n "$LOGGED" ]; then
	syslog_wait "$work/syslog" ": terminal attach" 10
	like "$(cat "$work/syslog")" ": terminal attach" "and the log names the step"
else
	skip "/dev/log is taken: syslog not captured"
fi
OUT=$(shell_on_tty 'echo login-ran; tty')
like "$OUT" "login-ran" "control: without the fault it runs"
like "$OUT" "/dev/console-" "with its terminal at /dev/console-ID"
is "$(settle_to "$before")" "$before" "and both leave nothing"
done_testing
