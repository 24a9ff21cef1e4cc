#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A refused login says so to the user: one fixed line with a reference,
# the session id of the refuse record in the log, and nothing of the
# policy. Through a real sshd (with a pty and with a command), su and
# login on a pty; controls: no such line where the login is let in.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-refusal-$T
SSHD_PORTS=${SSHD_PORTS:-42100-42199}
pam_services_lock
backups=$(mktemp -d /run/cocoon-refusal.XXXXXX)
cleanup() {
	sshd_cleanup
	syslog_release
	pam_services_restore
	rm -rf "$backups" "${motd_dir:-}"
	policy_reset; cleanup_users
}
trap cleanup EXIT
pam_services_edit "$backups" su login

add_user ccrf1$T
add_user ccrf2$T
add_user ccrf3$T -s "$SHELL_BIN"
add_user ccrf4$T -s "$SHELL_BIN"
add_user ccrf5$T
# ccrf1's bind names a directory that does not exist: every login of it
# is refused when its root is built. The path must not reach the user.
missing=/srv/cocoon-missing-$T
limits_policy "[user ccrf1$T]
profile = default
bind = $missing /data
[user ccrf3$T]
profile = default
bind = $missing /data
[user ccrf5$T]
profile = default
unshare = pid ipc uts user"

have_syslog=yes
syslog_capture "$backups/syslog" || have_syslog=""
sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccrf1$T
sshd_allow ccrf2$T
sshd_allow ccrf3$T
sshd_allow ccrf4$T
sshd_allow ccrf5$T

line_re='cocoon: this login was refused by the session policy of this host \(reference [0-9a-f]{32}\)\.'
# refused NAME [USER [SERVICE]]: OUT has the line, without the policy's path or rule, and
# its reference is the session id of a refuse record in the log.
refused() {
	local who=${2:-ccrf1$T} service=${3:-[^ ]+}
	like_re "$OUT" "$line_re" "$1: the user gets the line with a reference"
	unlike "$OUT" "$missing" "$1: nothing of the policy (the bind's path)"
	unlike "$OUT" "$who]" "$1: nor the rule"
	local ref
	ref=$(printf '%s\n' "$OUT" | grep -oE 'reference [0-9a-f]{32}' | head -1 | cut -d' ' -f2)
	if [ -z "$have_syslog" ]; then
		skip "/dev/log is taken: no syslog to read"
	elif [ -z "$ref" ]; then
		ok 1 "$1: the refuse record has the reference (no reference shown)"
	else
		syslog_wait_record "$backups/syslog" refuse "$ref"
		like_re "$(grep -F "session=$ref" "$backups/syslog")" \
			"event=refuse user=$who uid=[0-9]+ service=$service .*session=$ref .*result=refused reason=.*$missing" \
			"$1: the refuse record has that session id and the reason"
	fi
}

run ssh_as ccrf1$T 'echo RAN-COMMAND'
refused "ssh with a command"
unlike "$OUT" "RAN-COMMAND" "ssh with a command: nothing ran"
run ssh_as ccrf2$T 'echo RAN-COMMAND'
is "$OUT" "RAN-COMMAND" "ssh control: a login let in runs"
unlike "$OUT" "cocoon:" "ssh control: and has no such line"

run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf1$T 127.0.0.1 'echo RAN-PTY'" /dev/null
OUT=$(tr -d '\r' <<<"$OUT")
refused "ssh -tt"
unlike "$OUT" "RAN-PTY" "ssh -tt: nothing ran"
echo "$OUT" | sed 's/^/# ssh -tt: /'
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf2$T 127.0.0.1 'echo RAN-PTY'" /dev/null
like "$OUT" "RAN-PTY" "ssh -tt control: a login let in runs"
unlike "$OUT" "cocoon:" "ssh -tt control: no such line"

# The line comes before the motd: the return line, first in the stack,
# refuses there what the front door refuses (ccrf5's plan has a user
# namespace, which PAM refuses). A pam_motd line of the test's
# own right after it stands for the stack's. Control: without the return
# line the confining line, last, refuses after the motd was shown. What
# only building meets (ccrf1's missing bind source, which a module in
# between could have made) is told at the last line, after the motd.
# pam_motd reads it as the user: a directory of its own, readable.
motd_dir=$(mktemp -d /run/cocoon-refusal-motd.XXXXXX)
chmod 0755 "$motd_dir"
printf 'MOTD-%s\n' "$T" > "$motd_dir/motd"
chmod 0644 "$motd_dir/motd"
sed -i "0,/pam_cocoon.so return\$/s||&\nsession optional pam_motd.so motd=$motd_dir/motd noupdate|" \
	/etc/pam.d/$SSHD_SERVICE
motd_order() { # motd_order: "line-first", "motd-first" or "missing"
	local line motd
	line=$(printf '%s\n' "$OUT" | grep -n 'cocoon: this login was refused' | head -1 | cut -d: -f1)
	motd=$(printf '%s\n' "$OUT" | grep -n "MOTD-$T" | head -1 | cut -d: -f1)
	if [ -z "$line" ] || [ -z "$motd" ]; then echo missing
	elif [ "$line" -lt "$motd" ]; then echo line-first
	else echo motd-first; fi
}
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf5$T 127.0.0.1 'echo RAN-PTY'" /dev/null
OUT=$(tr -d '\r' <<<"$OUT")
is "$(motd_order)" line-first "ssh -tt: the line comes before the motd"
unlike "$OUT" "RAN-PTY" "ssh -tt, refused at the top of the stack: nothing ran"
if [ -n "$have_syslog" ]; then
	ref=$(printf '%s\n' "$OUT" | grep -oE 'reference [0-9a-f]{32}' | head -1 | cut -d' ' -f2)
	syslog_wait_record "$backups/syslog" refuse "$ref"
	is "$(grep -c "user=ccrf5$T .*session=$ref .*result=refused reason=.*unshare = user" "$backups/syslog")" 1 \
		"one refuse record for the login, with the reason, not one per line"
	is "$(grep -c "event=refuse user=ccrf5$T " "$backups/syslog")" 1 "(and no other)"
else
	skip "/dev/log is taken: no syslog to read"
	skip "/dev/log is taken: no syslog to read"
fi
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf1$T 127.0.0.1 'echo RAN-PTY'" /dev/null
OUT=$(tr -d '\r' <<<"$OUT")
is "$(motd_order)" motd-first "a refusal only building meets (a missing bind source) comes after the motd"
unlike "$OUT" "RAN-PTY" "(and nothing ran)"
grep -v 'pam_cocoon.so return$' /etc/pam.d/$SSHD_SERVICE > "$backups/stack"
cat "$backups/stack" > /etc/pam.d/$SSHD_SERVICE
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf5$T 127.0.0.1 'echo RAN-PTY'" /dev/null
OUT=$(tr -d '\r' <<<"$OUT")
is "$(motd_order)" motd-first "control: without the return line the motd comes first"
unlike "$OUT" "RAN-PTY" "control: and the login is still refused"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE

run su ccrf1$T -c 'echo RAN-SU'
refused "su"
unlike "$OUT" "RAN-SU" "su: nothing ran"
run su ccrf2$T -c 'echo RAN-SU'
is "$OUT" "RAN-SU" "su control: runs, without the line"

login_as() { # login_as USER COMMANDS: OUT
	{ sleep 1; echo "$2"; sleep 0.5; echo 'exit 7'; sleep 0.5; } |
		timeout 30 script -qec "login -f $1" /dev/null > "$backups/login.out" 2>&1
	OUT=$(tr -d '\r' < "$backups/login.out")
}
login_as ccrf1$T 'echo RAN-LOGIN'
refused "login"
unlike "$OUT" "RAN-LOGIN" "login: nothing ran"
login_as ccrf2$T 'echo RAN-LOGIN'
like "$OUT" "RAN-LOGIN" "login control: runs"
unlike "$OUT" "cocoon:" "login control: without the line"

# ---- cocoon-shell as the login shell: the same line on stderr ----
# Through services without pam_cocoon, which would refuse first: a
# second sshd with Debian's stack alone, and runuser.
sshd_cleanup
sshd_start || bail_out "sshd without pam_cocoon"
sshd_allow ccrf3$T
sshd_allow ccrf4$T
run ssh_as ccrf3$T 'echo RAN-COMMAND'
refused "cocoon-shell, ssh with a command" ccrf3$T shell
unlike "$OUT" "RAN-COMMAND" "cocoon-shell, ssh with a command: nothing ran"
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccrf3$T 127.0.0.1" /dev/null </dev/null
OUT=$(tr -d '\r' <<<"$OUT")
refused "cocoon-shell, ssh -tt" ccrf3$T shell
run timeout 60 script -qec "runuser -u ccrf3$T -- $SHELL_BIN -c 'echo RAN-RUNUSER'" /dev/null </dev/null
OUT=$(tr -d '\r' <<<"$OUT")
refused "cocoon-shell, runuser on a pty" ccrf3$T shell
unlike "$OUT" "RAN-RUNUSER" "cocoon-shell, runuser: nothing ran"
run ssh_as ccrf4$T 'echo RAN-COMMAND'
is "$OUT" "RAN-COMMAND" "cocoon-shell control: a login let in runs, without the line"

done_testing
