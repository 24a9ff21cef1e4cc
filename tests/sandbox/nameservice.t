#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The host's name-service endpoints in a session (cocoon.conf(5), NAME
# SERVICES), through `cocoonctl run` and pam_cocoon: a real nscd reached
# through its directory, read-only, and again after it restarted; what
# of SSSD's state shows; and, with a directory standing in for nslcd's,
# that a symlink, a user's directory or a world-writable one at an
# endpoint is skipped without being followed, while the same directory
# of root's or of the nslcd account is bound. The controls: without the
# endpoint (name-services = none) a name only nscd knows does not
# resolve; a bind of nscd's socket file goes stale at its restart; an
# ordinary policy bind follows the symlink; and pam_cocoon refuses the
# policy bind of nslcd's directory that the endpoint replaces. The
# real-daemon tests (slapd with nslcd, sssd, nscd) are in tests/directory/.
. "$(dirname "$0")/../lib.sh"
U=ccnss1$T
SERVICE=cocoon-test-nss-$T
W=$(mktemp -d /run/cocoon-nss-test.XXXXXX)
chmod 0755 "$W"
NSCD_PID="" NSLCD_MADE=""
cleanup() {
	[ -n "$NSCD_PID" ] && kill "$NSCD_PID" 2>/dev/null && wait "$NSCD_PID" 2>/dev/null
	[ -n "$NSCD_PID" ] && rm -f /run/nscd/socket /run/nscd/nscd.pid
	[ -n "$NSLCD_MADE" ] && rm -rf /run/nslcd
	rm -f "/etc/pam.d/$SERVICE"
	policy_reset; cleanup_users; rm -rf "$W"
}
trap cleanup EXIT
add_user $U || bail_out "useradd $U"
policy_reset

# policy LINES...: the embedded default plus LINES for every user.
policy() { printf '[default]\nprofile = default\n'; printf '%s\n' "$@"; }
# inside SCRIPT: run SCRIPT in $U's session; OUT and RC.
inside() { run "$CTL" run --user $U -- /bin/sh -c "$1"; }
# opts_of PATH: a command that prints the mount options of PATH inside.
opts_of() { printf "awk '\$5 == \"%s\" { print \$6 }' /proc/self/mountinfo" "$1"; }

# ---- SSSD's state: its two endpoints and nothing else

if [ -d /var/lib/sss/pipes ] && [ -d /var/lib/sss/mc ]; then
	policy | policy_write cocoon.conf
	run "$CTL" explain $U
	like "$OUT" "name-service /var/lib/sss/pipes" "explain lists sssd's pipes as an endpoint"
	inside "ls -A /var/lib/sss; $(opts_of /var/lib/sss/pipes)"
	is "$(printf '%s\n' "$OUT" | head -2 | tr '\n' ' ')" "mc pipes " \
		"of /var/lib/sss only pipes and mc show, none of db, secrets, pubconf"
	like "$OUT" "ro,nosuid,nodev,noexec" "pipes is bound read-only, nosuid, nodev, noexec"
else
	skip "no SSSD directories on this host (libnss-sss not installed)"
	skip "no SSSD directories on this host"
	skip "no SSSD directories on this host"
fi

# ---- nscd: a real one, on its fixed /run/nscd

# A passwd for the session without $U: only nscd, asked by glibc before
# nsswitch.conf's sources, can name the user there.
grep -v "^$U:" /etc/passwd > "$W/passwd"
chmod 0644 "$W/passwd"
cat > "$W/nscd.conf" <<EOF
enable-cache passwd yes
positive-time-to-live passwd 60
negative-time-to-live passwd 0
check-files passwd yes
persistent passwd no
shared passwd no
enable-cache group no
enable-cache hosts no
enable-cache services no
enable-cache netgroup no
EOF
# start_nscd: a new nscd (a new socket inode); 1 if it does not answer.
start_nscd() {
	nscd -F -f "$W/nscd.conf" >/dev/null 2>&1 &
	NSCD_PID=$!
	for _ in $(seq 50); do
		[ -S /run/nscd/socket ] && getent passwd $U >/dev/null && return 0
		sleep 0.1
	done
	return 1
}
stop_nscd() {
	kill "$NSCD_PID" 2>/dev/null
	wait "$NSCD_PID" 2>/dev/null
	rm -f /run/nscd/socket /run/nscd/nscd.pid
}
# Other copies of the suite's tests use /run/nscd too; a host whose own
# nscd runs keeps it.
if ! command -v nscd >/dev/null; then
	for _ in 1 2 3 4 5 6 7; do skip "no nscd on this host (package nscd)"; done
elif ! host_lock nscd; then
	bail_out "another copy of the suite holds nscd"
elif pidof nscd >/dev/null || [ -e /run/nscd/socket ]; then
	for _ in 1 2 3 4 5 6 7; do skip "an nscd of the host's runs"; done
else
	policy "ro-bind = $W/passwd /etc/passwd" "name-services = none" |
		policy_write cocoon.conf
	start_nscd || bail_out "nscd does not answer"
	inside "getent passwd $U"
	is "$RC" 2 "control: without the endpoint, a name only nscd knows does not resolve"
	policy "ro-bind = $W/passwd /etc/passwd" | policy_write cocoon.conf
	inside "getent passwd $U; $(opts_of /run/nscd); touch /run/nscd/x"
	like "$OUT" "$U:x:$(id -u $U):" "through /run/nscd (and /var/run's link to it) it does"
	like "$OUT" "ro,nosuid,nodev,noexec" "the directory is bound read-only, nosuid, nodev, noexec"
	like "$OUT" "Read-only file system" "and the user cannot write in it"

	# A restart makes a new socket: the directory's bind shows it, a
	# bind of the socket file itself keeps the dead one.
	# What a connect(2) to nscd's socket says, whatever NSS then does.
	CONNECT="python3 -c 'import socket; s = socket.socket(socket.AF_UNIX)
try: s.connect(\"/run/nscd/socket\"); print(\"connected\")
except OSError as e: print(e.strerror)'"
	restart_during() { # restart_during POLICY-LINE...: OUT of a session across a restart
		policy "ro-bind = $W/passwd /etc/passwd" "$@" | policy_write cocoon.conf
		rm -f "$W/ready" "$W/go"
		"$CTL" run --user $U -- /bin/sh -c "getent passwd $U >/dev/null && echo before;
			touch \$HOME/ready; while [ ! -e \$HOME/go ]; do sleep 0.1; done;
			getent passwd $U >/dev/null && echo after; $CONNECT" > "$W/out" 2>&1 &
		local session=$!
		for _ in $(seq 100); do [ -e /home/$U/ready ] && break; sleep 0.1; done
		stop_nscd
		start_nscd || bail_out "nscd does not answer after a restart"
		touch /home/$U/go
		wait "$session"
		OUT=$(cat "$W/out")
		rm -f /home/$U/ready /home/$U/go
	}
	restart_during
	is "$(echo $OUT)" "before after connected" "after nscd restarts, the session still reaches it"
	restart_during "name-services = none" "ro-bind = /run/nscd/socket"
	like "$(echo $OUT)" "before" "control: a bind of the socket file reaches nscd at first"
	like "$OUT" "Connection refused" "and goes stale at the restart"
	stop_nscd
	NSCD_PID=""
fi
host_unlock nscd

# ---- nslcd's directory: what is bound, what is skipped

# nslcd_as OWNER MODE | symlink TARGET: /run/nslcd, with a marker file.
nslcd_as() {
	rm -rf /run/nslcd
	if [ "$1" = symlink ]; then
		ln -s "$2" /run/nslcd
	else
		install -d -m "$2" -o "$1" /run/nslcd
		touch /run/nslcd/marker
	fi
}
if ! host_lock nslcd; then
	bail_out "another copy of the suite holds nslcd"
elif pidof nslcd >/dev/null || [ -e /run/nslcd ]; then
	for _ in $(seq 16); do skip "nslcd's directory is the host's (nslcd runs)"; done
else
	NSLCD_MADE=1
	policy | policy_write cocoon.conf
	list='ls -A /run/nslcd 2>&1; test -e /run/nslcd/shadow && echo SHADOW-SEEN;
		touch /run/nslcd/x 2>&1'
	nslcd_as root 0755
	inside "$list"
	like "$OUT" "marker" "a root-owned directory at /run/nslcd is bound"
	like "$OUT" "Read-only file system" "read-only"
	if id nslcd >/dev/null 2>&1; then
		nslcd_as nslcd 0755
		inside "$list"
		like "$OUT" "marker" "so is one of the nslcd account, as the package makes it"
	else
		skip "no nslcd account (libnss-ldapd not installed)"
	fi
	nslcd_as $U 0755
	run "$CTL" explain $U
	like "$OUT" "(name-service left out: /run/nslcd (nslcd): /run/nslcd is owned by uid $(id -u $U), neither root nor a system account other than the session's user)" \
		"explain says a user's directory there is left out, and why"
	inside "$list"
	like "$OUT" "No such file or directory" "but not bound: the user owns it"
	unlike "$OUT" "marker" "nothing of it shows"
	nslcd_as root 0777
	inside "$list"
	unlike "$OUT" "marker" "a world-writable one is not bound"
	# A named user's write permission in an ACL shows in no mode bit.
	nslcd_as root 0755
	python3 -c 'import os, struct, sys
e = lambda tag, perm, ident: struct.pack("<HHI", tag, perm, ident)
acl = struct.pack("<I", 2) + e(1, 7, 0xffffffff) + e(2, 7, int(sys.argv[2])) + \
	e(4, 5, 0xffffffff) + e(0x10, 7, 0xffffffff) + e(0x20, 5, 0xffffffff)
os.setxattr(sys.argv[1], "system.posix_acl_access", acl)' /run/nslcd "$(id -u $U)"
	run runuser -u $U -- sh -c 'touch /run/nslcd/by-acl && echo ACL-WRITE'
	like "$OUT" "ACL-WRITE" "control: an ACL lets the user write a root directory of mode 0755"
	inside "$list"
	unlike "$OUT" "marker" "a directory with an ACL is not bound"

	# A compromised daemon account makes its endpoint a link: to
	# /etc/shadow's directory, or to a directory the user writes.
	nslcd_as symlink /etc
	policy "ro-bind-try = /run/nslcd" | policy_write cocoon.conf
	inside "$list"
	like "$OUT" "SHADOW-SEEN" "control: a policy bind follows a root-owned link to /etc"
	policy | policy_write cocoon.conf
	run "$CTL" explain $U
	like "$OUT" "(name-service left out: /run/nslcd (nslcd): /run/nslcd is a symlink)" \
		"explain says the link is left out"
	inside "$list"
	unlike "$OUT" "SHADOW-SEEN" "the endpoint does not follow it"
	like "$OUT" "ls: cannot access '/run/nslcd': No such file or directory" \
		"and nothing is at /run/nslcd"
	nslcd_as symlink /home/$U
	touch /home/$U/planted
	inside 'ls -A /run/nslcd 2>&1'
	unlike "$OUT" "planted" "nor a link into the user's home"

	# pam_cocoon refuses a policy bind of nslcd's directory (a source a
	# non-root user can write); the endpoint takes its place.
	if id nslcd >/dev/null 2>&1 && command -v pamtester >/dev/null; then
		nslcd_as nslcd 0755
		printf 'auth required pam_permit.so\naccount required pam_permit.so\n' \
			> "/etc/pam.d/$SERVICE"
		printf 'session required %s/pam_cocoon.so return\nsession required %s/pam_cocoon.so\n' \
			"$PAMDIR" "$PAMDIR" >> "/etc/pam.d/$SERVICE"
		policy "ro-bind = /run/nslcd" | policy_write cocoon.conf
		run pamtester "$SERVICE" $U open_session close_session
		[ "$RC" -ne 0 ]; ok $? "control: pam_cocoon refuses 'ro-bind = /run/nslcd'"
		policy | policy_write cocoon.conf
		run pamtester "$SERVICE" $U open_session close_session
		is "$RC" 0 "the endpoint of the same directory opens the session"
	else
		skip "no nslcd account or no pamtester"
		skip "no nslcd account or no pamtester"
	fi
	rm -rf /run/nslcd
	NSLCD_MADE=""
fi
host_unlock nslcd

# ---- a tree with no room for an endpoint

# A read-only /run of the policy's own (an empty directory of root's):
# the endpoint is left out, and the session starts as the policy says.
if [ -d /run/nscd ]; then
	install -d -m 0755 "$W/emptyrun"
	policy "ro-bind = $W/emptyrun /run" | policy_write cocoon.conf
	inside 'ls -A /run'
	is "$RC/$OUT" "0/" "a read-only /run without room for /run/nscd: the session starts without it"
else
	skip "no /run/nscd on this host"
fi

# ---- name-services = none: no endpoint at all

policy "name-services = none" | policy_write cocoon.conf
run "$CTL" explain $U
unlike "$OUT" "name-service " "name-services = none: explain lists no endpoint"
like "$OUT" "name-services none" "and says so"
inside 'grep -cE " (/run/nscd|/run/nslcd|/var/lib/sss/[a-z]+|/run/systemd/userdb|/run/samba/winbindd) " /proc/self/mountinfo; ls -A /var/lib/sss 2>&1'
like "$OUT" "0" "and the session has none mounted"
like "$OUT" "No such file or directory" "not even /var/lib/sss"

done_testing
