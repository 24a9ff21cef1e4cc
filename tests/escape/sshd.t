#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The key escape attempts again, through pam_cocoon in a real sshd's
# session stack (the `return` line first, as tests/pam/sshd.t). Each is
# shown to succeed without the protection first.
. "$(dirname "$0")/../lib.sh"
U=ccesc2$T
. "$(dirname "$0")/escape.sh"
sysctl_tiocsti=""
cleanup() {
	[ -n "$sysctl_tiocsti" ] && echo "$sysctl_tiocsti" > /proc/sys/dev/tty/legacy_tiocsti
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
if [ -w /proc/sys/dev/tty/legacy_tiocsti ]; then
	sysctl_tiocsti=$(cat /proc/sys/dev/tty/legacy_tiocsti)
	echo 1 > /proc/sys/dev/tty/legacy_tiocsti
fi
policy_profile 'seccomp = none'
run ssh_as $U -tt "$P tiocsti; $P tiocsti-hi; $P tiocsetd"
OUT=$(printf '%s' "$OUT" | tr -d '\r')
case $OUT in
*tiocsti:ERR5*) echo "# not on this kernel: TIOCSTI is off (dev.tty.legacy_tiocsti = 0): $OUT"
	skip "TIOCSTI: not on this kernel" ;;
*) like "$OUT" "tiocsti:OK" "control: with seccomp = none, TIOCSTI works on the ssh pty" ;;
esac
like "$OUT" "tiocsti-hi:OK" "control: so does TIOCSTI with high bits set"
like "$OUT" "tiocsetd:OK" "control: and TIOCSETD"
policy_reset
run ssh_as $U -tt "$P tiocsti; $P tiocsti-hi; $P tiocsetd"
OUT=$(printf '%s' "$OUT" | tr -d '\r')
is "$OUT" "tiocsti:ERR1
tiocsti-hi:ERR1
tiocsetd:ERR1" "TIOCSTI (both forms) and TIOCSETD are refused on the ssh pty"
[ -n "$sysctl_tiocsti" ] && echo "$sysctl_tiocsti" > /proc/sys/dev/tty/legacy_tiocsti
sysctl_tiocsti=""

# 5. user namespace, mount API
# `unshare -Urm` would fail without the filter too: cocoon-launch's
# Landlock wall refuses its mount (the propagation change) with EPERM.
# Without a mount namespace, the user namespace alone is the filter's.
# On a missing path mount looks it up first (ENOENT) unless the filter
# refuses it (EPERM).
nx=/nonexistent-ccesc
outside "unshare -Ur true && echo USERNS-OK; $P unshare-user; $P mount $nx"
is "$OUT" "USERNS-OK
unshare-user:OK
mount:ERR2" "control: the user creates a user namespace on the host; mount on a missing path: ENOENT"
policy_profile 'seccomp = none'
run ssh_as $U "unshare -Ur true && echo USERNS-OK; $P unshare-user; $P mount $nx"
is "$OUT" "USERNS-OK
unshare-user:OK
mount:ERR2" "control: with seccomp = none, the same over ssh"
policy_reset
run ssh_as $U "unshare -Ur true && echo USERNS-OK; $P unshare-user; $P mount $nx; $P mount; $P open_tree; $P fsopen; $P io_uring"
unlike "$OUT" "USERNS-OK" "over ssh no user namespace"
like "$OUT" "unshare-user:ERR1
mount:ERR1
mount:ERR1
open_tree:ERR1
fsopen:ERR1
io_uring:ERR1" "and unshare, mount (before the lookup), open_tree, fsopen, io_uring_setup are refused"

# 5b. cocoon-launch's Landlock wall (ABI 1 and up, Debian 12's kernel
# too): a directory descriptor of the host, received from an unconfined
# process of the user over a socket in the home, opens nothing below it;
# and no mount, even in a user namespace of the session's own. The
# control is a session without the wall (no_new_privs off, which
# cocoon-launch needs to raise it): the mount namespace alone stops
# neither.
install -o $U -m 0644 "$HERE/fdpass.py" "$H/t/fdpass.py"
wall_probe() { # send host "/" from outside; receive it, and mount, over ssh
	rm -f "$H/t/sock" "$H/t/sock.ready"
	runuser -u $U -- timeout 20 /usr/bin/python3 "$H/t/fdpass.py" send "$H/t/sock" / & local sp=$!
	for i in $(seq 50); do [ -e "$H/t/sock.ready" ] && break; sleep 0.1; done
	run ssh_as $U "/usr/bin/python3 $H/t/fdpass.py recv $H/t/sock ${secret#/}/f </dev/null
		unshare -Urm true && echo USERNS-MOUNT-OK; grep NoNewPrivs /proc/self/status"
	kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
}
if landlock_line | grep -q 'the file-system wall'; then
	policy_profile 'no-new-privs = no
seccomp = none'
	wall_probe
	like "$OUT" "READ TOPSECRET" "control: without the wall, a received host descriptor reads the secret in the session"
	like "$OUT" "USERNS-MOUNT-OK" "control: and unshare -Urm mounts in a user namespace of its own"
	like "$OUT" "NoNewPrivs:	0" "control: that session runs without no_new_privs"
	# The filter off here too: the two sessions differ in the wall alone.
	policy_profile 'seccomp = none'
	wall_probe
	like "$OUT" "READ-ERR 13" "cocoon-launch's wall: openat below the received descriptor is refused (EACCES)"
	unlike "$OUT" "TOPSECRET" "the secret is not read through it"
	like "$OUT" "cannot change root filesystem propagation: Operation not permitted" \
		"and the mount in its own user namespace is refused (EPERM)"
	policy_reset
else
	echo "# not on this kernel: $(landlock_line)"
	skip "the Landlock wall: not on this kernel"
fi

# 6. setuid root
install -d -m 0755 "$H/suid"
install -o root -m 4755 /usr/bin/id "$H/suid/id"
outside "$H/suid/id -u"
is "$OUT" "0" "control: the setuid copy gives euid 0 on the host"
run ssh_as $U "$H/suid/id -u"
is "$OUT" "$(id -u $U)" "over ssh it stays the user's uid"

# 8. /proc/1/root
# cocoon-init was started from the host: its root and cwd would lead
# there. The session follows its own processes' links.
outside "sleep 5 & cat /proc/\$!/root$secret/f; kill \$!"
is "$OUT" "TOPSECRET-$$" "control: on the host /proc/PID/root of the user's process reaches the secret"
run ssh_as $U "sleep 5 & ls /proc/\$!/root/ >/dev/null && echo OWN-ROOT-OK; kill \$!; cat /proc/1/root$secret/f; ls /proc/1/root/ /proc/1/cwd/"
like "$OUT" "OWN-ROOT-OK" "control: over ssh the session follows /proc/PID/root of its own process"
unlike "$OUT" "TOPSECRET" "/proc/1/root does not reach the host"
is "$(printf '%s\n' "$OUT" | grep -c 'Permission denied')" "3" "cocoon-init's root and cwd: EACCES"

# 11. processes kept after logout
live() { ps -o stat= -u $U | grep -vc '^Z'; }
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
run ssh_as $U 'nohup sleep 301 >/dev/null 2>&1 & setsid sleep 302 </dev/null >/dev/null 2>&1 & (sleep 303 </dev/null >/dev/null 2>&1 &) & disown -a; echo started'
like "$OUT" "started" "over ssh, detached sleeps were started"
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "after logout no live process of the user is left"
[ "$(live)" = 0 ] || ps -o pid,ppid,stat,args -u $U | sed 's/^/# /'

done_testing
