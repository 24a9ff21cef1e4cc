#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The key escape attempts again, through pam_cocoon in a real sshd's
# session stack (the `return` line first, as tests/pam/sshd.t). Each is
# shown to succeed without the protection first.
. "$(dirname "$0")/../lib.sh"
U=ccesc2$T
. "$(dirname "$0")/escape.sh"
cleanup() {
	sshd_cleanup
	escape_kill_hostpids
	rm -rf "$secret"
	policy_reset; cleanup_users
}
trap cleanup EXIT

escape_begin
policy_profile() { printf '[profile t]\nprofile = default\n%s\n[default]\nprofile = t\n' "$1" | policy_write cocoon.conf; }

sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow $U

run ssh_as $U 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "the ssh session is sandboxed"

# 1. unmounted host file, read-only /usr
outside "cat $secret/f"
is "$OUT" "TOPSECRET-$$" "control: the user reads the secret on the host"
run ssh_as $U "cat $secret/f; touch /usr/ccesc-z"
unlike "$OUT" "TOPSECRET" "over ssh the secret is not there"
like "$OUT" "Read-only file system" "and /usr is read-only"

# 2. host process of the same user
# (pgrep would also match zombies of earlier runs: pid 1 here never reaps)
rm -f "$H/t/sleep.pid"
runuser -u $U -- setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 300' sh "$H/t/sleep.pid" & sleeper=$!; disown $!
hostpids="$hostpids $sleeper"
spid=""
for i in $(seq 50); do spid=$(cat "$H/t/sleep.pid" 2>/dev/null); [ -n "$spid" ] && break; sleep 0.1; done
hostpids="$hostpids $spid"
sleep 0.2
outside "$P kill $spid; $P ptrace $spid"
is "$OUT" "kill:OK
ptrace:OK" "control: on the host the user can signal and trace its sleep"
run ssh_as $U "$P kill $spid; $P ptrace $spid; test -d /proc/$spid && echo visible"
is "$OUT" "kill:ERR3
ptrace:ERR3" "over ssh the host process is out of reach and not in /proc"
kill -KILL $spid $sleeper 2>/dev/null

# 3. loopback and abstract sockets with unshare = net
abs=ccesc-abs2-$$
perl "$HERE/listen.pl" "$H/t/port" "$abs" &
hostpids="$hostpids $!"; disown $!
for i in $(seq 50); do [ -s "$H/t/port" ] && break; sleep 0.1; done
port=$(cat "$H/t/port")
policy_profile 'landlock-scope = signal'
run ssh_as $U "$P tcp $port; $P abstract $abs"
is "$OUT" "tcp:OK
abstract:OK" "control: without unshare = net, and the scope opened, the session reaches both"
policy_reset
run ssh_as $U "$P tcp $port; $P abstract $abs"
if landlock_scoped; then
	is "$OUT" "tcp:OK
abstract:ERR1" "cocoon-launch's Landlock scope: the host's abstract socket is refused over ssh"
else
	echo "# not on this kernel: $(landlock_line)"
	is "$OUT" "tcp:OK
abstract:OK" "without Landlock's scope (ABI < 6) the shared network reaches both"
fi
policy_profile 'unshare = pid ipc uts net'
run ssh_as $U "$P tcp $port; $P abstract $abs"
is "$OUT" "tcp:ERR111
abstract:ERR111" "with unshare = net neither is reachable over ssh"
policy_reset

# 4. TIOCSTI on the session's pty
run ssh_as $U -tt "$P tiocsti; $P tiocsti-hi; $P tiocsetd"
OUT=$(printf '%s' "$OUT" | tr -d '\r')
is "$OUT" "tiocsti:ERR1
tiocsti-hi:ERR1
tiocsetd:ERR1" "TIOCSTI (both forms) and TIOCSETD are refused on the ssh pty"

# 5. user namespace, mount API
outside "unshare -Urm true && echo USERNS-OK"
is "$OUT" "USERNS-OK" "control: the user creates a user namespace on the host"
run ssh_as $U "unshare -Urm true && echo USERNS-OK; $P mount; $P open_tree; $P fsopen; $P io_uring"
unlike "$OUT" "USERNS-OK" "over ssh no user namespace"
like "$OUT" "mount:ERR1
open_tree:ERR1
fsopen:ERR1
io_uring:ERR1" "and mount, open_tree, fsopen, io_uring_setup are refused"

# 6. setuid root
install -d -m 0755 "$H/suid"
install -o root -m 4755 /usr/bin/id "$H/suid/id"
outside "$H/suid/id -u"
is "$OUT" "0" "control: the setuid copy gives euid 0 on the host"
run ssh_as $U "$H/suid/id -u"
is "$OUT" "$(id -u $U)" "over ssh it stays the user's uid"

# 8. /proc/1/root
run ssh_as $U "cat /proc/1/root$secret/f"
unlike "$OUT" "TOPSECRET" "/proc/1/root does not reach the host"

# 11. processes kept after logout
live() { ps -o stat= -u $U | grep -vc '^Z'; }
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
run ssh_as $U 'nohup sleep 301 >/dev/null 2>&1 & setsid sleep 302 </dev/null >/dev/null 2>&1 & (sleep 303 </dev/null >/dev/null 2>&1 &) & disown -a; echo started'
like "$OUT" "started" "over ssh, detached sleeps were started"
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "after logout no live process of the user is left"
[ "$(live)" = 0 ] || ps -o pid,ppid,stat,args -u $U | sed 's/^/# /'

done_testing
