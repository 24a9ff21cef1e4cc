#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon's audit records with journald's fields, to a stand-in for
# journald's native socket at the tree's own path (the build's
# JOURNAL_SOCKET under $COCOON_ROOT/run): one field per key, the start
# record too, which pam_cocoon writes once the service is inside the
# session, where that path does not exist (the socket was connected on
# the host); nothing of them in syslog. Without journald, or with its
# socket dead, the records go to syslog as before. A real journald is
# tests/vm/40-journal.t.
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-journal-$T
work=$(mktemp -d /run/cocoon-journal.XXXXXX)
chmod 0755 "$work"
jdir=$COCOON_ROOT/run/systemd/journal
JPID=""
cleanup() {
	[ -n "$JPID" ] && { kill "$JPID" 2>/dev/null; wait "$JPID" 2>/dev/null; }
	rm -rf "$COCOON_ROOT/run/systemd"
	syslog_release
	rm -f "/etc/pam.d/$SERVICE"
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

syslog_capture "$work/syslog" || { echo "1..0 # skip /dev/log exists already"; exit 0; }
U=ccjn1$T
add_user $U || bail_out "useradd $U"
policy_reset
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required $PAMDIR/pam_cocoon.so
PAM
log_lines() { wc -l < "$work/syslog"; }
log_since() { sleep 0.3; tail -n "+$(($1 + 1))" "$work/syslog"; }
# journald's stand-in: each datagram as it came, then a line "--".
receiver_start() {
	mkdir -p "$jdir"
	rm -f "$jdir/socket"
	/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
out = open(sys.argv[2], "ab", buffering=0)
while True:
    out.write(s.recv(65536) + b"--\n")
' "$jdir/socket" "$work/journal" &
	JPID=$!
	local i
	for i in $(seq 50); do [ -S "$jdir/socket" ] && return 0; sleep 0.1; done
	return 1
}
journal_wait() {
	local i
	for i in $(seq 50); do grep -qF -- "$1" "$work/journal" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}

# --- control: no journald, the records go to syslog
m=$(log_lines)
run pamtester "$SERVICE" $U open_session close_session
is "$RC" 0 "a session opens and closes"
syslog_wait "$work/syslog" "event=end user=$U"
log=$(log_since "$m")
like "$log" "pam_cocoon($SERVICE:session): v=1 event=start user=$U" "without journald: the start record in syslog"
like "$log" "event=end user=$U" "and the end record"

# --- with journald's socket there
receiver_start || bail_out "no stand-in for journald's socket"
m=$(log_lines)
run pamtester -I tty=pts/7 "$SERVICE" $U open_session close_session
is "$RC" 0 "a session opens and closes"
journal_wait "COCOON_EVENT=end"
journal=$(cat "$work/journal" 2>/dev/null)
like "$journal" "MESSAGE=pam_cocoon($SERVICE:session): v=1 event=start user=$U uid=" \
	"the start record, its syslog text as MESSAGE"
like "$journal" "PRIORITY=6
SYSLOG_FACILITY=10
SYSLOG_IDENTIFIER=$SERVICE
COCOON_V=1
COCOON_EVENT=start
COCOON_USER=$U
COCOON_UID=$(id -u $U)
COCOON_SERVICE=$SERVICE" "priority, authpriv, the PAM service's name, then a field per key"
like "$journal" "COCOON_TTY=pts/7" "the PAM items"
like "$journal" "COCOON_RULE=[default] at $CONF_DIR/cocoon.conf:1
COCOON_PROFILE=default" "values as they are, not quoted"
like "$journal" "COCOON_RESULT=sandboxed" "COCOON_RESULT"
id=$(printf '%s\n' "$journal" | sed -n 's/^COCOON_SESSION=\([0-9a-f]\{32\}\)$/\1/p' | head -n 1)
[ -n "$id" ]; ok $? "COCOON_SESSION, the session id"
like "$journal" "COCOON_EVENT=end" "the end record"
is "$(grep -c "^COCOON_SESSION=$id\$" "$work/journal")" 2 "start and end carry the same id"
is "$(grep -c '^--$' "$work/journal")" 2 "one datagram per record"
syslog_wait "$work/syslog" "NEVER-THERE" 5 # the time a syslog line would take
unlike "$(log_since "$m")" "user=$U" "nothing of them in syslog: a record goes to one place"

# --- the identifier is the PAM service's, not the process name the caller
# chose: a setuid su run through a link named sshd would pass as sshd.
ln -s "$(command -v pamtester)" "$work/sshd"
before=$(grep -c '^--$' "$work/journal")
run "$work/sshd" "$SERVICE" $U open_session close_session
is "$RC" 0 "the same session through a link named sshd"
for i in $(seq 50); do [ "$(grep -c '^--$' "$work/journal")" -ge $((before + 2)) ] && break; sleep 0.1; done
linked=$(awk -v n="$before" '$0 == "--" { seen++; next } seen >= n' "$work/journal")
like "$linked" "SYSLOG_IDENTIFIER=$SERVICE" "its records still name the PAM service"
unlike "$linked" "SYSLOG_IDENTIFIER=sshd" "not the process name the caller chose"

# --- a refusal
printf '[default]\nprofile = nope\n' | policy_write cocoon.conf
run pamtester "$SERVICE" $U open_session
[ "$RC" -ne 0 ]; ok $? "a broken policy refuses the session"
journal_wait "COCOON_RESULT=refused"
like "$(cat "$work/journal")" "COCOON_RESULT=refused
COCOON_REASON=" "the refusal: COCOON_RESULT=refused, with its reason"

# --- journald gone (its socket left behind): syslog again
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
kill "$JPID"; wait "$JPID" 2>/dev/null; JPID=""
[ -S "$jdir/socket" ]; ok $? "control: the dead socket is still there"
m=$(log_lines)
run pamtester "$SERVICE" $U open_session close_session
is "$RC" 0 "the session still opens and closes"
syslog_wait "$work/syslog" "event=end user=$U"
like "$(log_since "$m")" "event=start user=$U" "its records go to syslog"

done_testing
