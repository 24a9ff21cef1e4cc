#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon and the life of a session, through the test sshd: a killed
# service process ends the session, login records reach the host's
# wtmp, the PAM environment is cut to the allow-list, the plan's
# clearenv, setenv, unsetenv and chdir apply, and the session id
# is exported and readable inside.
. "$(dirname "$0")/../lib.sh"
made_utmp=""
# utmp is the host's: another copy of the suite must not remove it (it
# made it) while this test reads it, nor this one under the other.
host_lock utmp || bail_out "another copy of the suite holds utmp"
made_wtmp=""
if [ ! -e /run/utmp ]; then
	install -m 0664 -g utmp /dev/null /run/utmp && made_utmp=yes
fi
if [ ! -e /var/log/wtmp ]; then
	install -m 0664 -g utmp /dev/null /var/log/wtmp && made_wtmp=yes
fi
cleanup() {
	sshd_cleanup
	[ -n "$made_utmp" ] && rm -f /run/utmp
	[ -n "$made_wtmp" ] && rm -f /var/log/wtmp
	policy_reset; cleanup_users
}
trap cleanup EXIT

add_user ccses1$T
policy_reset
sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccses1$T

live() { ps -o stat= -u ccses1$T | grep -vc '^Z'; }
inits_before=$(inits)
mounts_before=$(wc -l < /proc/self/mountinfo)

# The service process dies without closing the session: the sshd
# monitor of the connection ("sshd: USER [priv]"), killed.
ssh_as ccses1$T 'sleep 100' > /dev/null 2>&1 &
clientpid=$!
monitor=""
for i in $(seq 50); do
	monitor=$(pgrep -P "$SSHD_PID" -f "ccses1$T \[priv\]" | head -1)
	[ -n "$monitor" ] && [ "$(live)" -gt 0 ] && pgrep -u ccses1$T -x sleep > /dev/null && break
	sleep 0.1
done
[ -n "$monitor" ]; ok $? "the session's sshd monitor is found"
[ "$(inits)" -gt "$inits_before" ]; ok $? "the session has its cocoon-init"
[ -n "$monitor" ] && kill -KILL "$monitor"
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "after SIGKILL of the monitor, no live process of the user"
is "$(inits_back_to "$inits_before")" "$inits_before" "and the session's cocoon-init is gone"
kill "$clientpid" 2>/dev/null; wait "$clientpid" 2>/dev/null

# Login records on the host, with the embedded default profile (no
# /var/log in it).
( sleep 1; echo 'exit' ) | ssh_as ccses1$T -tt > /dev/null 2>&1
sleep 0.5
like "$(last -w -f /var/log/wtmp 2>/dev/null)" "ccses1$T" "last on the host lists the pty session after logout"

# The environment and the plan's process settings (LANGUAGE and CCGONE
# come from ~/.pam_environment, which pam_env reads in the sshd stack).
printf 'CCGONE DEFAULT=here\nLANGUAGE DEFAULT=de:en\n' > /home/ccses1$T/.pam_environment
run ssh_as ccses1$T 'echo "<${CCGONE-unset}> <${LANGUAGE-unset}>"'
is "$OUT" "<unset> <de:en>" \
	"what other modules put in the PAM environment is cut to the allow-list"
printf '[default]\nprofile = default\nsetenv = CCFOO "foo bar"\nunsetenv = LANGUAGE\nchdir = /tmp\n' |
	policy_write cocoon.conf
run ssh_as ccses1$T 'echo "<$CCFOO>"; echo "<${LANGUAGE-unset}>"; pwd'
is "$OUT" "<foo bar>
<unset>
/tmp" "setenv, unsetenv and chdir apply in PAM mode"
printf '[default]\nprofile = default\nclearenv = yes\nsetenv = CCFOO x\n' | policy_write cocoon.conf
run ssh_as ccses1$T 'echo "<${LANGUAGE-unset}> <$CCFOO>"'
is "$OUT" "<unset> <x>" "clearenv = yes keeps nothing of the PAM environment but the plan's setenv"
printf '[default]\nprofile = default\nchdir = /nonexistent\n' |
	policy_write cocoon.conf
run ssh_as ccses1$T 'pwd'
is "$OUT" "/home/ccses1$T" "a chdir that fails falls back to the home"
policy_reset

# The session id.
run ssh_as ccses1$T 'echo "$COCOON_SESSION_ID"; cat /run/cocoon/id; echo; stat -c "%U %a" /run/cocoon/id'
id=$(printf '%s\n' "$OUT" | sed -n 1p)
[ "${#id}" = 32 ] && [ -z "$(printf '%s' "$id" | tr -d 0-9a-f)" ]; ok $? "COCOON_SESSION_ID is 32 hex digits"
is "$(printf '%s\n' "$OUT" | sed -n 2p)" "$id" "equal to /run/cocoon/id inside"
is "$(printf '%s\n' "$OUT" | sed -n 3p)" "root 444" "which is root's, 0444"
run ssh_as ccses1$T 'echo "$COCOON_SESSION_ID"'
[ -n "$OUT" ] && [ "$OUT" != "$id" ]; ok $? "each session has an id of its own"

for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "no live process of the user is left"
is "$(wc -l < /proc/self/mountinfo)" "$mounts_before" "and no new mount on the host"

done_testing
