#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A session without a terminal is told how it ended too: ssh with a
# command gets the "session ended" line, with the session's id, on its
# stderr, at max-session-time and at cocoonctl stop --message; through
# pam_cocoon in a real sshd (and su with its stderr a pipe) and through
# cocoon-shell as the login shell.
# Controls: with a pty the line comes once (the terminal's); a command
# whose stderr is a root-owned file it opened read-only gets nothing,
# and the file is not written, at the deadline and at a stop; a full
# stderr pipe holds up neither.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-stderr-$T
SSHD_PORTS=${SSHD_PORTS:-42100-42199}
pam_services_lock
work=$(mktemp -d /var/lib/cocoon-stderr-test.XXXXXX)
chmod 0755 "$work"
target=""
BG_PIDS=""
cleanup() {
	kill -KILL $BG_PIDS 2>/dev/null; wait $BG_PIDS 2>/dev/null
	sshd_cleanup
	pam_services_restore
	policy_reset; cleanup_users; rm -rf "$work" "$target"
}
trap cleanup EXIT

add_user ccse1$T
add_user ccse2$T
add_user ccse3$T -s "$SHELL_BIN"
add_user ccse4$T -s "$SHELL_BIN"
add_user ccse5$T -s "$SHELL_BIN"
add_user ccse6$T -s "$SHELL_BIN"
limits_policy "[user ccse1$T]
profile = default
max-session-time = 4s
session-time-warnings = none
[user ccse3$T]
profile = default
max-session-time = 4s
session-time-warnings = none
[user ccse5$T]
profile = default
share-sandbox = yes
max-session-time = 4s
session-time-warnings = none
[user ccse6$T]
profile = default
share-sandbox = yes"

# A root-owned file the users may read and not write, in the sandbox's
# view too (/etc): a command makes it its stderr (read-only), which no
# notice may write through.
target=$(mktemp /etc/cocoon-stderr-test.XXXXXX)
printf 'unchanged\n' > "$target"
chmod 0644 "$target"
sum=$(cksum < "$target")

END='cocoon: session ended: max-session-time reached \(reference [0-9a-f]{32}\)\.'
STOPPED='cocoon: session ended by the administrator \(reference [0-9a-f]{32}\)'

# client NAME USER CMD [ssh args]: ssh with CMD in the background, its
# stdout in $work/NAME.out, its stderr in $work/NAME.err.
client() {
	local name=$1 user=$2 cmd=$3; shift 3
	# shellcheck disable=SC2046
	timeout 60 ssh $(SSH_OPTS) "$@" -l "$user" 127.0.0.1 "$cmd" \
		> "$work/$name.out" 2> "$work/$name.err" < /dev/null &
	BG_PIDS="$BG_PIDS $!"
	LAST=$!
}
is_up() { local i; for i in $(seq 300); do grep -q up "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
err() { tr -d '\r' < "$work/$1.err"; }

# expired WHO NAME USER CMD: ssh -l USER with CMD until USER's
# max-session-time; the client's stderr has the end line with the
# session's id, once. WHO labels the assertions.
expired() {
	local who=$1 name=$2 user=$3 pid id
	client "$name" "$user" "$4"
	pid=$LAST
	id=$(session_id_of "$user"); ok $? "$who: the session with a command is recorded"
	wait "$pid"
	unlike "$(cat "$work/$name.out")" "survived" "$who: the session is ended at its deadline"
	like "$(err "$name")" "cocoon: session ended: max-session-time reached (reference $id)." \
		"$who, ssh with a command: the client's stderr has the end line and the session's id"
	is "$(err "$name" | grep -cE "$END")" 1 "$who: once"
}
# stopped WHO NAME USER CMD TEXT: the same, ended by stop --message TEXT
# once CMD said "up"; TEXT empty: the line must be absent.
stopped() {
	local who=$1 name=$2 user=$3 text=$5 pid id
	client "$name" "$user" "$4"
	pid=$LAST
	id=$(session_id_of "$user"); ok $? "$who: the session to stop is recorded"
	is_up "$work/$name.out"
	run "$CTL" stop --message "${text:-maintenance}" "$id"
	is "$RC" 0 "$who: stop --message ends it"
	wait "$pid"
	if [ -n "$text" ]; then
		like "$(err "$name")" "cocoon: session ended by the administrator (reference $id): $text" \
			"$who, ssh with a command: the client's stderr has the stop line, the id and the text"
		is "$(err "$name" | grep -cE "$STOPPED")" 1 "$who: once"
	else
		unlike "$(err "$name")" "cocoon:" "control: $who: nothing reaches the client"
	fi
}

# ---- pam_cocoon: cocoon-init writes the end line; cocoonctl stop its own
sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccse1$T
sshd_allow ccse2$T

expired PAM pam-exp ccse1$T 'echo up; sleep 30; echo survived'
stopped PAM pam-stop ccse2$T 'echo up; sleep 60; echo survived' "disk swap at 14:00"

# With a pty, the terminal's line (session_terminals) is the only one.
client pam-pty ccse1$T 'echo up; sleep 30; echo survived' -tt
wait "$LAST"
is "$(tr -d '\r' < "$work/pam-pty.out" | grep -cE "$END")" 1 \
	"control: with a pty the end line comes once, on the terminal"

# Safety: the command's stderr a root-owned file opened read-only. Its
# login (sshd) holds /dev/null there: nothing reaches the client.
client pam-ro-exp ccse1$T "exec 2<$target; echo up; sleep 30; echo survived"
wait "$LAST"
unlike "$(cat "$work/pam-ro-exp.out")" "survived" "PAM, stderr a read-only file: the deadline still ends it"
unlike "$(err pam-ro-exp)" "cocoon:" "control: nothing reaches a client whose command's stderr is no pipe"
is "$(cksum < "$target")" "$sum" "the read-only file is not written at the deadline"
stopped "PAM, stderr a read-only file" pam-ro-stop ccse2$T "exec 2<$target; echo up; sleep 60; echo survived" ""
is "$(cksum < "$target")" "$sum" "the read-only file is not written at a stop"

# Written as the user, never with root's credentials: the command's
# stderr a unix socket whose other end, with SO_PASSCRED, it reads.
py="import socket, os, struct
a, b = socket.socketpair()
a.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
os.dup2(b.fileno(), 2)
print(\"up\", flush=True)
msg, anc, fl, ad = a.recvmsg(512, socket.CMSG_SPACE(12))
for lvl, typ, data in anc:
    if typ == socket.SCM_CREDENTIALS:
        print(\"sender uid=%d gid=%d\" % struct.unpack(\"iII\", data[:12])[1:], flush=True)
print(\"got:\", msg.decode().strip(), flush=True)
import time; time.sleep(30)"
if [ -x /usr/bin/python3 ]; then
	client pam-cred ccse1$T "python3 -c '$py'"
	wait "$LAST"
	like "$(cat "$work/pam-cred.out")" "sender uid=$(id -u ccse1$T) gid=$(id -g ccse1$T)" \
		"PAM, stderr a unix socket: the line comes with the user's credentials, not root's"
	like_re "$(cat "$work/pam-cred.out")" "got: $END" "PAM, stderr a unix socket: the end line reaches it"
else
	skip "no /usr/bin/python3"
	skip "no /usr/bin/python3"
fi

# Never blocks: the command's stderr a pipe that nobody reads, full.
full='exec 2> >(sleep 60); head -c 1000000 /dev/zero >&2 & echo up; sleep 30; echo survived'
start=$SECONDS
client pam-full-exp ccse1$T "$full"
wait "$LAST"
unlike "$(cat "$work/pam-full-exp.out")" "survived" "PAM, a full stderr pipe: the session is ended"
ok $([ $((SECONDS - start)) -le 12 ] && echo 0 || echo 1) \
	"PAM, a full stderr pipe: at the deadline ($((SECONDS - start)) s)"
client pam-full-stop ccse2$T "$full"
stopped=$LAST
id=$(session_id_of ccse2$T)
is_up "$work/pam-full-stop.out"
start=$SECONDS
run "$CTL" stop --message "maintenance" "$id"
is "$RC" 0 "PAM, a full stderr pipe: stop ends it"
ok $([ $((SECONDS - start)) -le 3 ] && echo 0 || echo 1) \
	"PAM, a full stderr pipe: stop is not held up ($((SECONDS - start)) s)"
wait "$stopped"

# su with a command and its stderr a pipe: su's shell is the login.
mkdir "$work/pam.d"
pam_services_edit "$work/pam.d" su
OUT=$(timeout 30 su ccse1$T -c 'echo up; sleep 30; echo survived' 2>&1 < /dev/null | cat)
pam_services_restore
unlike "$OUT" "survived" "su, stderr a pipe: the session is ended at its deadline"
like_re "$OUT" "$END" "su, stderr a pipe: the end line reaches it"
ok $(wait_gone ccse1$T; echo $?) "PAM: nothing of ccse1 is left"
ok $(wait_gone ccse2$T; echo $?) "PAM: nothing of ccse2 is left"
sshd_cleanup

# ---- cocoon-shell as the login shell: it prints the end line itself;
# at a stop, its stderr (the client's, outside the sandbox) gets the line
# from cocoonctl, even when the command's own stderr is the file.
sshd_start || bail_out "sshd without pam_cocoon"
sshd_allow ccse3$T
sshd_allow ccse4$T
sshd_allow ccse5$T
sshd_allow ccse6$T

expired cocoon-shell sh-exp ccse3$T 'echo up; sleep 30; echo survived'
stopped cocoon-shell sh-stop ccse4$T "exec 2<$target; echo up; sleep 60; echo survived" "maintenance"
is "$(cksum < "$target")" "$sum" "the command's read-only stderr file is not written"
# A shared sandbox's pid 1 is cocoon-init, which writes the end line to
# the login's stderr; cocoon-shell does not print it again.
expired "cocoon-shell, shared" sh-share-exp ccse5$T 'echo up; sleep 30; echo survived'
stopped "cocoon-shell, shared" sh-share-stop ccse6$T 'echo up; sleep 60; echo survived' "maintenance"
ok $(wait_gone ccse3$T; echo $?) "cocoon-shell: nothing of ccse3 is left"
ok $(wait_gone ccse4$T; echo $?) "cocoon-shell: nothing of ccse4 is left"

done_testing
