#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon in a real sshd's session stack: commands, a pty login, scp,
# sftp (internal-sftp), port forwards, multiplexed channels, utmp, and
# cleanup after logout and after a killed client.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-pam-test.XXXXXX)
chmod 0755 "$work"
made_utmp=""
# utmp is the host's: another copy of the suite must not remove it (it
# made it) while this test reads it, nor this one under the other.
host_lock utmp || bail_out "another copy of the suite holds utmp"
# Login records go to the host's utmp, which this machine lacks.
if [ ! -e /run/utmp ]; then
	install -m 0664 -g utmp /dev/null /run/utmp && made_utmp=yes
fi
cleanup() {
	sshd_cleanup
	syslog_release
	[ -n "$made_utmp" ] && rm -f /run/utmp
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccpam1$T
add_user ccpam2$T
policy_reset
mounts_before=$(wc -l < /proc/self/mountinfo)

# A syslog receiver at /dev/log for the test's duration.
syslog_capture "$work/syslog"

# OpenSSH 9.2 takes no Subsystem in a Match block: ForceCommand does it.
SSHD_EXTRA_CONFIG="Match User ccpam2$T
	ForceCommand internal-sftp" \
sshd_start "session required $PAMDIR/pam_cocoon.so exempt=ccpam3$T debug" || { echo "Bail out! sshd"; exit 1; }
# The `return` line first in the session stack.
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccpam1$T
sshd_allow ccpam2$T

run ssh_as ccpam1$T 'cat /proc/1/comm; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status; id -un'
is "$RC" 0 "ssh host CMD succeeds"
like "$OUT" "cocoon-init" "the command runs in the sandbox's pid namespace"
like "$OUT" "NoNewPrivs:	1" "with no_new_privs"
like "$OUT" "Seccomp:	2" "and the seccomp filter"
like "$OUT" "ccpam1$T" "as the user"
# A shell run again inside the session (nested bash, #!/bin/bash) goes
# through the launcher's path again: it must work and not stack filters.
run ssh_as ccpam1$T 'bash -c "echo nested-ok; grep Seccomp_filters: /proc/self/status"; bash -c "bash -c pwd"'
like "$OUT" "nested-ok" "a nested login-shell path still runs"
like "$OUT" "Seccomp_filters:	1" "and carries exactly one filter"
run ssh_as ccpam1$T 'readlink /proc/$$/exe; stat -c "%n %U %a" / /run /tmp /run/user/$(id -u)'
is "$OUT" "/run/cocoon/shell
/ root 755
/run root 755
/tmp root 1777
/run/user/$(id -u ccpam1$T) ccpam1$T 700" "the real shell runs through the launcher; the root service's tree is root's, a dir the user's"
run ssh_as ccpam1$T 'touch /tmp/x /etc/x /run/x 2>&1; ls /tmp'
like "$OUT" "x" "the user can write /tmp"
like "$OUT" "/run/x" "but not /run"

run ssh_as ccpam1$T -tt 'tty; cat /proc/1/comm; exit 3'
is "$RC" 3 "a pty session runs, and its status comes back"
like "$OUT" "/dev/pts/" "with a terminal"
like "$OUT" "cocoon-init" "in the sandbox"

# An interactive login with a pty, and utmp on the host while it runs.
# The session lasts until its input ends: who is asked until it shows
# the session or the input runs out (a slow machine logs in slowly).
( sleep 15; echo 'cat /proc/1/comm'; echo 'exit' ) | ssh_as ccpam1$T -tt > "$work/pty.out" 2>&1 &
ptypid=$!
for i in $(seq 140); do who_out=$(who); case $who_out in *ccpam1$T*) break ;; esac; sleep 0.1; done
wait "$ptypid"
like "$(cat "$work/pty.out")" "cocoon-init" "an interactive login shell is in the sandbox"
like "$who_out" "ccpam1$T" "who on the host shows the session while it runs"

# scp and sftp.
echo hello > "$work/file"; chmod 0644 "$work/file"
run timeout 60 scp -q $(SSH_OPTS | sed 's/-p /-P /') "$work/file" ccpam1$T@127.0.0.1:copied
is "$RC" 0 "scp to the sandbox"
run ssh_as ccpam1$T 'cat ~/copied'
is "$OUT" "hello" "the file arrived in the home"
echo inside > /home/ccpam2$T/mark
printf 'get mark %s/mark\nls /run/cocoon\n' "$work" > "$work/batch"
run timeout 60 sftp $(SSH_OPTS | sed 's/-p /-P /') -b "$work/batch" ccpam2$T@127.0.0.1
is "$RC" 0 "internal-sftp works"
like "$OUT" "seccomp.bpf" "internal-sftp sees the sandbox's mount namespace (/run/cocoon)"
is "$(cat "$work/mark" 2>/dev/null)" "inside" "and fetches from the home"
run timeout 60 scp -O -q $(SSH_OPTS | sed 's/-p /-P /') ccpam1$T@127.0.0.1:copied "$work/back"
is "$(cat "$work/back" 2>/dev/null)" "hello" "scp -O (legacy protocol) from the sandbox"
printf 'get /proc/1/comm %s/comm\n' "$work" > "$work/batch2"
run timeout 60 sftp $(SSH_OPTS | sed 's/-p /-P /') -b "$work/batch2" ccpam1$T@127.0.0.1
is "$(cat "$work/comm" 2>/dev/null)" "cocoon-init" "sftp with the external sftp-server runs inside"

# ~/.ssh/rc runs through the login shell, inside the session's sandbox.
install -d -o ccpam1$T -m 0700 /home/ccpam1$T/.ssh
printf 'cat /proc/1/comm > /tmp/rc-ran\n' > /home/ccpam1$T/.ssh/rc
chown ccpam1$T /home/ccpam1$T/.ssh/rc
run ssh_as ccpam1$T 'cat /tmp/rc-ran'
is "$OUT" "cocoon-init" "~/.ssh/rc runs inside the session's sandbox"
rm -f /home/ccpam1$T/.ssh/rc

# cocoon-shell as the login shell too: the session is sandboxed once.
usermod -s "$COCOON_ROOT/usr/bin/cocoon-shell" ccpam1$T
run ssh_as ccpam1$T 'readlink /proc/$$/exe; test "$(cat /run/cocoon/id)" = "$COCOON_SESSION_ID" && echo same-session'
like "$OUT" "/run/cocoon/shell" "with cocoon-shell as login shell, the launcher runs the real shell"
like "$OUT" "same-session" "in the PAM session's own sandbox, not a second one inside it"
usermod -s /bin/bash ccpam1$T

# Port forwards leave from sshd's own process: net namespace matters.
perl -MIO::Socket::INET -e '
	my $l = IO::Socket::INET->new(Listen => 5, LocalAddr => "127.0.0.1", LocalPort => 0, ReuseAddr => 1) or die;
	open my $p, ">", $ARGV[0]; print $p $l->sockport, "\n"; close $p;
	while (my $c = $l->accept) { print $c "HOSTSVC\n"; close $c }' "$work/port" &
svcpid=$!
for i in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
svcport=$(cat "$work/port")
fwd() {
	local lport=$((30000 + RANDOM % 5000))
	ssh $(SSH_OPTS) -l ccpam1$T -N -L "$lport:127.0.0.1:$svcport" 127.0.0.1 & local sp=$!
	# Until the forward listens (the login first) or 15 s have gone.
	local i
	for i in $(seq 150); do ss -ltn | grep -q "127.0.0.1:$lport " && break; sleep 0.1; done
	FWD=$(timeout 5 perl -MIO::Socket::INET -e '
		my $c = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $ARGV[0]) or exit 1;
		print scalar <$c>' "$lport")
	kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
}
fwd
is "$FWD" "HOSTSVC" "ssh -L reaches a host loopback service without a net namespace"
printf '[default]\nprofile = default\nunshare = net\n' | policy_write cocoon.conf
fwd
is "$FWD" "" "ssh -L cannot reach it with unshare = net"
policy_reset
kill "$svcpid"; wait "$svcpid" 2>/dev/null

# Two channels of one connection (ControlMaster) share one sandbox.
ctl="$work/ctl"
ssh $(SSH_OPTS) -l ccpam1$T -o ControlMaster=yes -o ControlPath="$ctl" -N 127.0.0.1 &
masterpid=$!
for i in $(seq 50); do [ -S "$ctl" ] && break; sleep 0.1; done
a=$(ssh_as ccpam1$T -o ControlPath="$ctl" 'readlink /proc/1/ns/pid; readlink /proc/self/ns/mnt')
b=$(ssh_as ccpam1$T -o ControlPath="$ctl" 'readlink /proc/1/ns/pid; readlink /proc/self/ns/mnt')
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "two multiplexed channels share one sandbox"
kill "$masterpid"; wait "$masterpid" 2>/dev/null

# A client killed mid-session.
ssh $(SSH_OPTS) -l ccpam1$T 127.0.0.1 'sleep 100' &
killpid=$!
wait_process ccpam1$T -fx 'sleep 100'; ok $? "a session whose client is then killed runs its command"
kill -9 "$killpid"; wait "$killpid" 2>/dev/null
for i in $(seq 50); do ps -o stat= -u ccpam1$T | grep -vq '^Z' || break; sleep 0.1; done
live=$(ps -o stat= -u ccpam1$T | grep -vc '^Z')
is "$live" "0" "after logout and a killed client, no live process of the user"
[ "$live" = 0 ] || ps -o pid,ppid,stat,args -u ccpam1$T | sed 's/^/# /'
is "$(wc -l < /proc/self/mountinfo)" "$mounts_before" "and no new mount on the host"

# A broken policy: the covered user is refused with a reason in syslog,
# an exempt user gets in.
add_user ccpam3$T
sshd_allow ccpam3$T
printf '[default]\nprofile = nosuch\n' | policy_write cocoon.conf
run ssh_as ccpam1$T true
isnt_ok() { [ "$1" -ne 0 ]; ok $? "$2"; }
isnt_ok "$RC" "a covered user with a broken policy is refused"
sleep 0.5
# (Without a capture of its own, /dev/log held by something else than
# another copy of the suite, the test cannot read syslog.)
if [ -n "$SYSLOG_PID" ]; then
	syslog_wait "$work/syslog" "event=refuse user=ccpam1$T"
	like "$(cat "$work/syslog" 2>/dev/null)" "event=refuse user=ccpam1$T" "syslog says why"
else
	skip "/dev/log is taken: syslog not captured"
fi
run ssh_as ccpam3$T 'cat /proc/1/comm'
is "$RC" 0 "an exempt user with a broken policy gets in"
unlike "$OUT" "cocoon-init" "unsandboxed"

# A user-writable /etc is refused.
install -d -o ccpam1$T -m 0755 "$work/etc"
printf '[default]\nprofile = default\nro-bind = %s /etc\n' "$work/etc" | policy_write cocoon.conf
run ssh_as ccpam1$T true
isnt_ok "$RC" "a plan with a user-writable /etc is refused"
if [ -n "$SYSLOG_PID" ]; then
	syslog_wait "$work/syslog" "/etc comes from a source a non-root user can write"
	# The refusal of this test's user: other sessions log to the socket too.
	like "$(grep -F "user=ccpam1$T " "$work/syslog")" "/etc comes from a source a non-root user can write" \
		"syslog says why"
else
	skip "/dev/log is taken: syslog not captured"
fi

done_testing
