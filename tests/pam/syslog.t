#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A PAM session cannot write to the host's syslog: the line a user
# writes (`logger -t sshd "pam_cocoon(sshd:session): ... event=refuse"`)
# would pass for root's audit record. The service itself, root in the
# session's mount namespace, still logs there (reconnecting by path, as
# glibc and OpenSSH do), and pam_cocoon's records still arrive.
# The test runs in a mount namespace of its own, with a /dev of its own,
# so that its /dev/log receiver is no other test's.
if [ -z "${COCOON_LFD_SYSLOG_NS:-}" ]; then
	COCOON_LFD_SYSLOG_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /var/tmp/cocoon-lfd-syslog.XXXXXX)
BG_PIDS=""
trap 'for p in $BG_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	syslog_release; sshd_cleanup; policy_reset; cleanup_users; rm -rf "$work"' EXIT
chmod 0755 "$work"

# This namespace's /dev: a copy of the host's (its nodes, pts and shm
# bound), without the host's /dev/log if it has one.
dev=$(mktemp -d /run/cocoon-lfd-dev.XXXXXX)
mount -t tmpfs -o mode=0755 tmpfs "$dev" || bail_out "tmpfs for /dev"
cp -a --one-file-system /dev/. "$dev/" 2>/dev/null
rm -f "$dev/log"
for m in pts shm mqueue; do
	if mountpoint -q "/dev/$m"; then
		mkdir -p "$dev/$m" && mount --rbind "/dev/$m" "$dev/$m"
	fi
done
mount --move "$dev" /dev || bail_out "a /dev of the test's own"
rmdir "$dev" 2>/dev/null
[ -d /run/systemd/system ] && echo "# a systemd host: the journal's side is tests/vm/40-journal.t"
syslog_capture "$work/syslog" || bail_out "no /dev/log receiver in the test's own /dev"
chmod 0666 /dev/log # as a syslog daemon's: every user may write

U=lfdlg1$T
add_user $U || bail_out "useradd $U"
uid=$(id -u $U)
policy_reset
guest_sshd_start || bail_out "the test sshd did not start"
sshd_allow $U

forge() { # forge TAG: a line that passes for pam_cocoon's refusal record
	echo "logger --socket-errors=on -p authpriv.info -t $SSHD_SERVICE 'pam_cocoon($SSHD_SERVICE:session): v=1 event=refuse user=root uid=0 service=$SSHD_SERVICE result=refused $1'"
}

# Control: a user's logger, outside any session, reaches the log.
run runuser -u $U -- sh -c "$(forge LFD-FORGED-HOST-$T)"
syslog_wait "$work/syslog" LFD-FORGED-HOST-$T
like "$(cat "$work/syslog")" "LFD-FORGED-HOST-$T" "control: outside a session the forged record reaches syslog"

# In a session: no socket the user can reach.
run ssh_as $U "$(forge LFD-FORGED-SESSION-$T); echo logger=\$?
ls -l /dev/log
/usr/bin/python3 -c '
import socket
for p in (\"/dev/log\", \"/run/cocoon/log/dev-log\"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.connect(p); print(p, \"connected\")
    except OSError as e:
        print(p, e.strerror)
'
ls /run/systemd/journal 2>&1 | head -1
cat /proc/1/comm"
like "$OUT" "cocoon-init" "the ssh session runs in the sandbox"
like "$OUT" "logger=1" "logger fails in the session"
like "$OUT" "/dev/log Permission denied" "/dev/log refuses the user"
like "$OUT" "/run/cocoon/log/dev-log Permission denied" "so does the socket it leads to"
like "$OUT" "/dev/log -> /run/cocoon/log/dev-log" "/dev/log is a link into root's /run/cocoon/log"
like "$OUT" "No such file or directory" "no journald socket in the session's private /run"
syslog_wait "$work/syslog" "event=end user=$U"
unlike "$(cat "$work/syslog")" "LFD-FORGED-SESSION-$T" "the forged record is not in syslog"
like "$(grep "pam_cocoon(.*user=$U " "$work/syslog")" "event=start user=$U uid=$uid" \
	"pam_cocoon's start record arrived"
like "$(grep "pam_cocoon(.*user=$U " "$work/syslog")" "event=end user=$U" "and its end record"

# Root in the session's mount namespace (the service, or enter --root)
# connects by path afresh, as glibc and OpenSSH do after an error or at
# every line: that still reaches the host's log.
ssh_bg "$work/bg.out" $U 'sleep 30'
BG_PIDS="$BG_PIDS $CLIENT"
id=""
for i in $(seq 100); do
	id=$("$CTL" list 2>/dev/null | awk -v u="$U" '$2 == u { print $1; exit }')
	[ -n "$id" ] && break
	sleep 0.1
done
[ -n "$id" ]; ok $? "a live session to enter"
run "$CTL" enter --root "$id" -- /usr/bin/logger -p authpriv.info -t lfd-root LFD-ROOT-INSIDE-$T
is "$RC" 0 "root's logger in the session's namespaces succeeds"
syslog_wait "$work/syslog" LFD-ROOT-INSIDE-$T
like "$(cat "$work/syslog")" "LFD-ROOT-INSIDE-$T" "and its line reaches the host's log"
run "$CTL" enter "$id" -- sh -c "$(forge LFD-FORGED-ENTER-$T)"
sleep 0.5
unlike "$(cat "$work/syslog")" "LFD-FORGED-ENTER-$T" "cocoonctl enter as the user: no forged line either"
kill "$CLIENT" 2>/dev/null

# sshd's own lines from inside the session: its post-auth child, which
# serves the session as the user (pid 3 in the session's pid namespace),
# logs through the connection glibc made before the session opened. The
# same sshd, logging to syslog (no -E) at VERBOSE.
sshd_stop
sed -i 's/^LogLevel ERROR$/LogLevel VERBOSE/' "$SSHD_DIR/sshd_config"
rm -f "$SSHD_DIR/sshd.pid"
"$SSHD_DIR/$SSHD_SERVICE" -f "$SSHD_DIR/sshd_config" || bail_out "sshd without -E"
for i in $(seq 50); do
	[ -s "$SSHD_DIR/sshd.pid" ] && ss -ltn | grep -q "127.0.0.1:$SSHD_PORT " && break
	sleep 0.1
done
SSHD_PID=$(cat "$SSHD_DIR/sshd.pid" 2>/dev/null)
run ssh_as $U 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "a session through sshd logging to syslog"
syslog_wait "$work/syslog" "Starting session: command for $U"
like "$(cat "$work/syslog")" "Starting session: command for $U" \
	"sshd's post-auth child still logs from inside the session"

done_testing
