#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl stop tells the session's users why: its terminals get one
# line with the session's id and --message's text, stripped of control
# characters, before the stop; the text is the end record's reason.
# Through a real sshd with a pty (PAM mode) and su - on a pty with
# cocoon-shell; control: another live session of the same kind is not
# told, and stays.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
SSHD_SERVICE=cocoon-test-sshd-stopmsg-$T
SSHD_PORTS=${SSHD_PORTS:-42100-42199}
work=$(mktemp -d /var/lib/cocoon-stopmsg-test.XXXXXX)
chmod 0755 "$work"
BG_PIDS=""
# The background clients first, then what they used.
trap 'kill -KILL $BG_PIDS 2>/dev/null; wait $BG_PIDS 2>/dev/null; sshd_cleanup; syslog_release
	policy_reset; cleanup_users; rm -rf "$work"' EXIT

add_user ccsm1$T
add_user ccsm2$T
add_user ccsm3$T -s "$SHELL_BIN"
limits_policy ""
log=$work/syslog
syslog_capture "$log" || log=""
sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccsm1$T
sshd_allow ccsm2$T

on_pty() { # on_pty OUT COMMAND: COMMAND on a pty of its own, in the background
	script -qefc "$2" /dev/null </dev/null > "$1" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	LAST=$!
}
gone() { local i; for i in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }
# until FILE shows "up": the record exists once the session opened, a
# moment before its command runs (seconds on a busy host).
is_up() { local i; for i in $(seq 300); do grep -q up "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

on_pty "$work/ssh1" "ssh -tt $(SSH_OPTS) -l ccsm1$T 127.0.0.1 'echo up; sleep 60'"
ssh1=$LAST
on_pty "$work/ssh2" "ssh -tt $(SSH_OPTS) -l ccsm2$T 127.0.0.1 'echo up; sleep 60'"
ssh2=$LAST
id1=$(session_id_of ccsm1$T); ok $? "the ssh -tt session is recorded"
id2=$(session_id_of ccsm2$T); ok $? "and the control's"
is_up "$work/ssh1"; is_up "$work/ssh2"

esc=$(printf '\033[2J\033]0;owned\007')
run "$CTL" stop --message "disk swap at 14:00${esc}, back at 15:00" "$id1"
is "$RC" 0 "stop --message ends the session"
gone "$ssh1"; ok $? "the ssh client returns"
out=$(tr -d '\r' < "$work/ssh1")
like "$out" "up" "(it had run)"
like "$out" "cocoon: session ended by the administrator (reference $id1): disk swap at 14:00 [2J ]0;owned , back at 15:00" \
	"its terminal shows the line, the id and the text"
ok "$(grep -q "$(printf '\033')" "$work/ssh1"; echo $(( ! $? )))" "no escape of the text reached the terminal"
unlike "$(cat "$work/ssh2")" "cocoon:" "control: the other session is not told"
kill -0 "$ssh2" 2>/dev/null; ok $? "control: and runs on"
if [ -n "$log" ]; then
	syslog_wait_record "$log" end "$id1"
	like "$(grep -F "session=$id1" "$log")" 'result=stopped reason="cocoonctl stop: disk swap at 14:00 [2J ]0;owned , back at 15:00"' \
		"the end record has the text as its reason"
else
	skip "/dev/log is taken: syslog not captured"
fi
run "$CTL" stop "$id2"
gone "$ssh2"
like "$(tr -d '\r' < "$work/ssh2")" "cocoon: session ended by the administrator (reference $id2)." \
	"without --message, the line alone"

# cocoon-shell, through su - on a pty.
on_pty "$work/su" "su - ccsm3$T -c 'echo up; sleep 60'"
su=$LAST
id3=$(session_id_of ccsm3$T); ok $? "the cocoon-shell session is recorded"
is_up "$work/su"
run "$CTL" stop --message "maintenance" "$id3"
is "$RC" 0 "stop --message ends it"
gone "$su"; ok $? "su returns"
like "$(tr -d '\r' < "$work/su")" "cocoon: session ended by the administrator (reference $id3): maintenance" \
	"cocoon-shell: its terminal shows the line"

long=$(head -c 300 /dev/zero | tr '\0' x)
run "$CTL" stop --message "$long" deadbeefdead
like "$OUT" "no session" "an unknown id is still refused with --message"
run "$CTL" stop --message
is "$RC" 2 "--message without its text is a usage error"

done_testing
