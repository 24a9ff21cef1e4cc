#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_env user_readenv=1 in sshd's auth stack, with a cocoon-shell
# account: sshd sets credentials again after pam_cocoon's last session
# line cut the environment, pam_env reads ~/.pam_environment once more,
# and sshd's popen of the host's /bin/sh for ~/.ssh/rc loads the user's
# LD_PRELOAD unfiltered. Shown through a real sshd whose PAM service is
# the test's file, then `cocoonctl check --pam --sshd` that sshd refuses
# the deployment at that file and line. The stack pam_cocoon(8) gives,
# without the auth line, is the control both ways. pam_cocoon as the
# last auth line cuts the refill again: no library, no finding.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
U=lfdae1$T
cleanup() { sshd_cleanup; policy_reset; cleanup_users; }
trap cleanup EXIT

add_user $U -s "$SHELL_BIN" || bail_out "useradd $U"
policy_reset
printf '[user %s]\nservice = shell\nprofile = default\n[default]\nsandbox = none\n' $U |
	policy_write cocoon.conf
host_pidns=$(readlink /proc/self/ns/pid)
h=/home/$U
install -d -o $U -m 0755 "$h/t" "$h/.ssh"
cc -shared -fPIC -o "$h/t/r.so" "$HERE/../escape/report.c" || bail_out "cc report.c"
chmod 0755 "$h/t/r.so"
printf 'LD_PRELOAD DEFAULT=%s/t/r.so\n' "$h" > "$h/.pam_environment"
echo 'true' > "$h/.ssh/rc"
chown $U "$h/.pam_environment" "$h/.ssh/rc"
# Where the user's library ran on the host, without a filter.
host_reports() { grep -F "pidns=$host_pidns " "$h/t/reports" 2>/dev/null | grep 'seccomp=0'; }

AUTHENV='auth required pam_env.so user_readenv=1'
# start [AUTH-LINE...]: the test sshd on a copy of /etc/pam.d/sshd with
# pam_cocoon's two session lines (pam_cocoon(8)); AUTH-LINE goes right
# after the auth stack's include, in order.
start() {
	sshd_cleanup
	sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
	sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		"/etc/pam.d/$SSHD_SERVICE"
	local extra
	extra=$(printf '%s\\n' "$@")
	[ $# -gt 0 ] && sed -i "0,/^@include common-auth/s||&\n${extra%\\n}|" "/etc/pam.d/$SSHD_SERVICE"
	sshd_allow $U
	rm -f "$h/t/reports"
}
# check --pam asks sshd -T, which wants /run/sshd: each check runs while
# the test sshd holds it (sshd_start), never a removal of our own under
# another copy's sshd.

# Control: the deployment pam_cocoon(8) gives.
start
run ssh_as $U 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "control: the cocoon-shell account logs in, sandboxed"
is "$(host_reports)" "" "control: the user's LD_PRELOAD runs nowhere on the host (cut)"
run "$CTL" check --pam --sshd "$SSHD_DIR/$SSHD_SERVICE"
unlike "$OUT" "/etc/pam.d/$SSHD_SERVICE:" "control: check --pam finds nothing in that stack"

# The reported deployment: pam_env user_readenv=1 in the auth stack too.
start "$AUTHENV"
line=$(grep -nF "$AUTHENV" "/etc/pam.d/$SSHD_SERVICE" | cut -d: -f1)
run ssh_as $U 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "with the auth line: the login works"
like "$(host_reports)" "exe=/usr/bin/dash" \
	"confirmed: the user's library runs in sshd's /bin/sh on the host, unfiltered"
run "$CTL" check --pam --sshd "$SSHD_DIR/$SSHD_SERVICE"
is "$RC" 1 "check --pam exits 1"
like "$OUT" "/etc/pam.d/$SSHD_SERVICE:$line: error: service $SSHD_SERVICE: pam_env user_readenv=1 in the auth stack" \
	"at the auth line's file:line"

# The cut of the refill: pam_cocoon's setcred as the last auth line.
CUT="auth required $PAMDIR/pam_cocoon.so"
start "$AUTHENV" "$CUT"
run ssh_as $U 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "with pam_cocoon after it in the auth stack: the login works"
is "$(host_reports)" "" "the refill is cut: the user's library runs nowhere"
run "$CTL" check --pam --sshd "$SSHD_DIR/$SSHD_SERVICE"
unlike "$OUT" "/etc/pam.d/$SSHD_SERVICE:" "and check --pam finds nothing in that stack"
# The same line before pam_env cuts nothing that comes after it.
start "$CUT" "$AUTHENV"
line=$(grep -nF "$AUTHENV" "/etc/pam.d/$SSHD_SERVICE" | cut -d: -f1)
run ssh_as $U true
like "$(host_reports)" "exe=/usr/bin/dash" "pam_cocoon's auth line before pam_env: the library runs again"
run "$CTL" check --pam --sshd "$SSHD_DIR/$SSHD_SERVICE"
like "$OUT" "/etc/pam.d/$SSHD_SERVICE:$line: error: service $SSHD_SERVICE: pam_env user_readenv=1 in the auth stack" \
	"and check --pam refuses it"

done_testing
