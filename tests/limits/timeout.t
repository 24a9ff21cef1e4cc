#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# max-session-time: cocoon-init ends the whole session (every process of
# its pid namespace, a SIGHUP-ignoring one too) when the time runs out,
# through cocoonctl run, cocoon-shell and pam_cocoon in a real sshd.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-limits-$T
work=$(mktemp -d /run/cocoon-limits-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	sshd_cleanup
	syslog_release
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccl4$T
add_user ccl2$T
limits_policy "[user ccl4$T]
profile = default
max-session-time = 2s"

# elapsed CMD...: run CMD (as `run`) and put its wall time in whole
# seconds in SECS.
elapsed() {
	local start=$SECONDS
	run "$@"
	SECS=$((SECONDS - start))
}

elapsed "$CTL" run --user ccl4$T -- /bin/sh -c 'sleep 30 & sleep 30; echo survived'
is "$RC" 129 "cocoonctl run: the session is hung up (128+SIGHUP)"
unlike "$OUT" "survived" "its command did not run on"
like "$OUT" "reached its max-session-time" "the reason is on stderr"
ok $([ "$SECS" -le 5 ] && echo 0 || echo 1) "it ended at the deadline ($SECS s)"
ok $(wait_gone ccl4$T; echo $?) "no process of the user is left"

elapsed "$CTL" run --user ccl4$T -- /bin/sh -c 'trap "" HUP; sleep 30; echo survived'
unlike "$OUT" "survived" "a process that ignores SIGHUP is killed after the grace period"
ok $([ "$SECS" -le 7 ] && echo 0 || echo 1) "within the grace period ($SECS s)"
ok $(wait_gone ccl4$T; echo $?) "nothing is left"

elapsed "$CTL" run --user ccl2$T -- /bin/sh -c 'sleep 3; echo survived'
is "$OUT" "survived" "control: without max-session-time a session outlives that time"

elapsed runuser -u ccl4$T -- "$SHELL_BIN" -c 'sleep 30; echo survived'
is "$RC" 129 "cocoon-shell: the session is ended"
like_re "$OUT" "cocoon: session ended: max-session-time reached \\(reference [0-9a-f]{32}\\)" \
	"with the reason and the session's id"
ok $(wait_gone ccl4$T; echo $?) "and nothing is left"

# ---- pam_cocoon: cocoon-init in hold mode ends the session ----
have_syslog=yes
syslog_capture "$work/syslog" || have_syslog=""
sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccl4$T
sshd_allow ccl2$T
elapsed ssh_as ccl4$T 'cat /proc/1/comm; sleep 30 & sleep 30; echo survived'
like "$OUT" "cocoon-init" "PAM: the session ran in the sandbox"
unlike "$OUT" "survived" "PAM: the session is ended at the deadline"
ok $([ "$SECS" -le 8 ] && echo 0 || echo 1) "PAM: promptly ($SECS s)"
ok $(wait_gone ccl4$T; echo $?) "PAM: no process of the user is left"
if [ -n "$have_syslog" ]; then
	syslog_wait "$work/syslog" "event=end user=ccl4$T "
	like_re "$(cat "$work/syslog")" "user=ccl4$T .*result=expired reason=max-session-time" "PAM: the reason goes to syslog"
else
	skip "/dev/log exists: syslog not captured"
fi
run ssh_as ccl2$T 'sleep 3; echo survived'
is "$OUT" "survived" "PAM control: without the limit the session goes on"

done_testing
