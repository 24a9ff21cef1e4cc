#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# session-time-warnings: before max-session-time ends a session, its pid 1
# tells the session's terminals, in order, then (PAM mode) that it ended;
# through cocoon-shell on a pty, pam_cocoon in a real sshd with ssh -tt,
# and pam_cocoon in su's and login's stacks on a pty.
# `none` tells nothing; a session without a terminal still ends, and is
# told only the end line, on ssh's stderr.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-warn-$T
SSHD_PORTS=${SSHD_PORTS:-42500-42599}
pam_services_lock
work=$(mktemp -d /run/cocoon-warn-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	sshd_cleanup
	pam_services_restore
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccw1$T
add_user ccw2$T
limits_policy "[user ccw1$T]
profile = default
max-session-time = 8s
session-time-warnings = 5s 2s
[user ccw2$T]
profile = default
max-session-time = 4s
session-time-warnings = none"

W5='cocoon: this session ends in 5 seconds \(max-session-time; reference [0-9a-f]{32}\)\.'
W2='cocoon: this session ends in 2 seconds \(max-session-time; reference [0-9a-f]{32}\)\.'
END='cocoon: session ended: max-session-time reached \(reference [0-9a-f]{32}\)\.'

# in_order TEXT RE...: 0 when each RE matches a line of TEXT after the
# previous one's.
in_order() {
	local text=$1 re line=0 n; shift
	for re in "$@"; do
		n=$(printf '%s\n' "$text" | grep -nE -- "$re" | cut -d: -f1 |
			awk -v after="$line" '$1 > after { print; exit }')
		[ -n "$n" ] || return 1
		line=$n
	done
	return 0
}

explained=$("$CTL" explain ccw1$T 2>&1)
like "$explained" "session-time-warnings 5s 2s" "explain shows the warnings"

# ---- cocoon-shell on a pty: run mode's pid 1 writes the warnings ----
in_pty() { run runuser -u "$1" -- script -qec "$SHELL_BIN -c '$2'" /dev/null < /dev/null; OUT=$(printf '%s' "$OUT" | tr -d '\r'); }
in_pty ccw1$T 'sleep 30; echo survived'
unlike "$OUT" "survived" "cocoon-shell: the session is ended"
ok $(in_order "$OUT" "$W5" "$W2" "$END"; echo $?) \
	"cocoon-shell: 5 s, then 2 s before, then the end, in that order"
is "$(printf '%s\n' "$OUT" | grep -cE "$W5|$W2")" 2 "cocoon-shell: each warning once"
ok $(wait_gone ccw1$T; echo $?) "cocoon-shell: nothing is left"

in_pty ccw2$T 'sleep 30; echo survived'
unlike "$OUT" "survived" "control: session-time-warnings = none still ends the session"
unlike "$OUT" "this session ends in" "control: none warns of nothing"
ok $(wait_gone ccw2$T; echo $?) "control: nothing is left"

# ---- pam_cocoon: cocoon-init (hold mode) writes to ssh's pty ----
sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccw1$T
sshd_allow ccw2$T
run ssh_as ccw1$T -tt 'cat /proc/1/comm; sleep 30; echo survived'
OUT=$(printf '%s' "$OUT" | tr -d '\r')
like "$OUT" "cocoon-init" "PAM: the session ran in the sandbox"
unlike "$OUT" "survived" "PAM: the session is ended at the deadline"
ok $(in_order "$OUT" "$W5" "$W2" "$END"; echo $?) \
	"PAM: 5 s, then 2 s before, then the end line, on the ssh client's terminal"
ok $(wait_gone ccw1$T; echo $?) "PAM: no process of the user is left"

run ssh_as ccw2$T -tt 'sleep 30; echo survived'
OUT=$(printf '%s' "$OUT" | tr -d '\r')
unlike "$OUT" "this session ends in" "PAM control: none warns of nothing"
like_re "$OUT" "$END" "PAM control: the end line still comes"

start=$SECONDS
run ssh_as ccw1$T 'sleep 30; echo survived'
unlike "$OUT" "survived" "PAM without a terminal: the session still ends"
unlike "$OUT" "this session ends in" "PAM without a terminal: no warning is written"
like_re "$OUT" "$END" "PAM without a terminal: the end line reaches ssh's stderr (sessions/stderr-notice.t)"
ok $([ $((SECONDS - start)) -le 14 ] && echo 0 || echo 1) \
	"PAM without a terminal: at the deadline ($((SECONDS - start)) s)"
ok $(wait_gone ccw1$T; echo $?) "PAM without a terminal: nothing is left"
sshd_cleanup

# ---- pam_cocoon in su's and login's stacks, on a pty ----
pam_services_edit "$work" su login

# Three sessions at once, each on its own pty, to keep the run short:
# su and login for ccw1, su for ccw2 (none). Each terminal gets its own
# session's lines only.
# su on the pty of script: the command's descriptors are that pty.
timeout 30 script -qec "su ccw1$T -c 'cat /proc/1/comm; sleep 30; echo survived'" /dev/null \
	</dev/null > "$work/su.out" 2>&1 &
su_pid=$!
timeout 30 script -qec "su ccw2$T -c 'sleep 30; echo survived'" /dev/null \
	</dev/null > "$work/su-none.out" 2>&1 &
none_pid=$!
# login -f on a pty, the shell's commands typed in (the terminal echoes
# them: "survived" only as the output of the last); an empty line every
# half second until login's terminal is gone, which ends the writer.
{
	sleep 1
	echo 'cat /proc/1/comm; sleep 30; echo sur""vived'
	for _ in $(seq 40); do sleep 0.5; echo || break; done
} | timeout 30 script -qec "login -f ccw1$T" /dev/null > "$work/login.out" 2>&1
wait "$su_pid" "$none_pid"

for how in su login; do
	OUT=$(tr -d '\r' < "$work/$how.out")
	like "$OUT" "cocoon-init" "$how: the session ran in the sandbox"
	unlike "$OUT" "survived" "$how: the session is ended at the deadline"
	ok $(in_order "$OUT" "$W5" "$W2" "$END"; echo $?) \
		"$how: 5 s, then 2 s before, then the end line, on $how's terminal"
	is "$(printf '%s\n' "$OUT" | grep -cE "$W5|$W2|$END")" 3 \
		"$how: each line once, none of the other sessions'"
done
ok $(wait_gone ccw1$T; echo $?) "su and login: no process of the user is left"

OUT=$(tr -d '\r' < "$work/su-none.out")
unlike "$OUT" "this session ends in" "su control: none warns of nothing"
like_re "$OUT" "$END" "su control: the end line still comes"
ok $(wait_gone ccw2$T; echo $?) "su control: nothing is left"

done_testing
