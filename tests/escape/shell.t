#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Escape attempts from a cocoon-shell session, run as the confined user
# through the setuid cocoon-shell. Every attempt is also made without the
# protection (on the host as the same user, or with that protection off in
# a test policy) and must succeed there, so no case passes by accident.
. "$(dirname "$0")/../lib.sh"
U=ccesc1$T
. "$(dirname "$0")/escape.sh"
rwusr=/usr/local/ccesc-rw.$$
locked=/srv/ccesc-locked.$$
rootlink=/srv/ccesc-link.$$
work_file=/run/ccesc-mnt.$$
sysctl_tiocsti=""
cleanup() {
	escape_kill_hostpids
	[ -n "$sysctl_tiocsti" ] && echo "$sysctl_tiocsti" > /proc/sys/dev/tty/legacy_tiocsti
	rm -rf "$secret" "$rwusr" "$locked" "$rootlink" "$work_file" "$log"
	syslog_release
	policy_reset; cleanup_users
}
log=$(mktemp /tmp/ccesc-syslog.XXXXXX)
trap cleanup EXIT
# Refusals show the user a reference; the reason is in the log.
syslog_capture "$log" || log=""

escape_begin
cc -o "$H/t/int80" "$HERE/int80.c" && chown $U "$H/t/int80"

inside() { run runuser -u $U -- "$SHELL_BIN" -c "$1"; }  # sets OUT, RC
# Policies for the controls: the default with one protection off or on.
policy_profile() { printf '[profile t]\nprofile = default\n%s\n[default]\nprofile = t\n' "$1" | policy_write cocoon.conf; }

# --- 1. files the plan does not mount; writes to a read-only bind
outside "cat $secret/f"
is "$OUT" "TOPSECRET-$$" "control: the user reads $secret on the host"
inside "cat $secret/f; ls /srv"
unlike "$OUT" "TOPSECRET" "the sandbox does not show an unmounted host file"
install -d -o $U -m 0755 "$rwusr"
outside "$P write $rwusr/x"
is "$OUT" "write:OK" "control: the user writes its own directory under /usr on the host"
inside "$P write $rwusr/y; touch /usr/ccesc-z"
like "$OUT" "write:ERR30" "inside, /usr is a read-only bind (EROFS)"
[ ! -e "$rwusr/y" ] && [ ! -e /usr/ccesc-z ]; ok $? "nothing was written to /usr"

# --- 2. host processes of the same user
# (pgrep would also match zombies of earlier runs: pid 1 here never reaps)
rm -f "$H/t/sleep.pid"
runuser -u $U -- setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 300' sh "$H/t/sleep.pid" & sleeper=$!; disown $!
hostpids="$hostpids $sleeper"
spid=""
for i in $(seq 50); do spid=$(cat "$H/t/sleep.pid" 2>/dev/null); [ -n "$spid" ] && break; sleep 0.1; done
hostpids="$hostpids $spid"
sleep 0.2
outside "$P kill $spid; test -d /proc/$spid && echo visible; cat /proc/$spid/root$secret/f"
like "$OUT" "kill:OK" "control: on the host the user can signal its sleep"
like "$OUT" "visible" "and sees it in /proc"
like "$OUT" "TOPSECRET" "and reaches the host root through /proc/PID/root"
inside "$P kill $spid; test -d /proc/$spid && echo visible; ps -eo comm | grep -c '^sleep'; $P ptrace $spid"
like "$OUT" "kill:ERR3" "inside, kill(host pid, 0) fails with ESRCH"
unlike "$OUT" "visible" "the host process is not in the sandbox's /proc"
like "$OUT" "ptrace:ERR3" "PTRACE_ATTACH to the host pid: ESRCH"
outside "strace -qq -e trace=none -p $spid & s=\$!; sleep 1; kill \$s; wait \$s; $P ptrace $spid"
like "$OUT" "ptrace:OK" "control: on the host the user may PTRACE_ATTACH its sleep"
inside "timeout 3 strace -p $spid 2>&1; cat /proc/1/comm"
unlike "$OUT" "attached" "strace -p of the host pid fails inside"
# Without a pid namespace the host process is in sight: Landlock's
# signal scope is what keeps the session from signalling it.
no_pidns() { # the default's root, without the /proc only a pid namespace may have
	# (pids-max: a login without a pid namespace needs a cgroup to end)
	printf '[profile t]\nro-bind = /usr\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib
symlink = usr/lib64 /lib64\ndev = /dev\ntmpfs = /tmp\nbind = %%h\nchdir = %%h
unshare = ipc uts\npids-max = 1000\n%s\n[default]\nprofile = t\n' "$1" | policy_write cocoon.conf
}
no_pidns "landlock-scope = abstract-unix"
inside "$P kill $spid"
is "$OUT" "kill:OK" "control: without unshare = pid, and the scope opened, the session signals it"
no_pidns ""
inside "$P kill $spid"
if landlock_scoped; then
	is "$OUT" "kill:ERR1" "Landlock's signal scope: signalling the host process fails (EPERM)"
else
	echo "# not on this kernel: $(landlock_line)"
	is "$OUT" "kill:OK" "without Landlock's scope (ABI < 6) the session signals it"
fi
policy_reset
kill -KILL $spid $sleeper 2>/dev/null

# --- 3. network with unshare = net
abs=ccesc-abs-$$
perl "$HERE/listen.pl" "$H/t/port" "$abs" &
hostpids="$hostpids $!"; disown $!
for i in $(seq 50); do [ -s "$H/t/port" ] && break; sleep 0.1; done
port=$(cat "$H/t/port")
outside "$P tcp $port; $P abstract $abs"
is "$OUT" "tcp:OK
abstract:OK" "control: the user reaches the loopback service and the abstract socket on the host"
policy_profile 'landlock-scope = signal'
inside "$P tcp $port; $P abstract $abs"
is "$OUT" "tcp:OK
abstract:OK" "control: without unshare = net, and the scope opened, the sandbox reaches both"
policy_reset
inside "$P tcp $port; $P abstract $abs"
if landlock_scoped; then
	is "$OUT" "tcp:OK
abstract:ERR1" "Landlock's scope: the host's abstract socket is refused (EPERM), loopback TCP not"
else
	echo "# not on this kernel: $(landlock_line)"
	is "$OUT" "tcp:OK
abstract:OK" "without Landlock's scope (ABI < 6) the shared network reaches both"
fi
policy_profile 'unshare = pid ipc uts net'
inside "$P tcp $port; $P abstract $abs; cat /proc/1/comm"
is "$OUT" "tcp:ERR111
abstract:ERR111
cocoon-init" "with unshare = net: the host's loopback port and abstract socket are unreachable"
policy_reset

# --- 4. terminal ioctls, on a pty from script
tty_probes="$P tiocsti; $P tiocsti-hi; $P tioclinux; $P tiocsetd"
if [ -w /proc/sys/dev/tty/legacy_tiocsti ]; then
	sysctl_tiocsti=$(cat /proc/sys/dev/tty/legacy_tiocsti)
	echo 1 > /proc/sys/dev/tty/legacy_tiocsti
fi
in_pty() { run runuser -u $U -- script -qec "$SHELL_BIN -c '$1'" /dev/null < /dev/null; OUT=$(printf '%s' "$OUT" | tr -d '\r'); }
policy_profile 'seccomp = none'
in_pty "$tty_probes"
like "$OUT" "tiocsti:OK" "control: with seccomp = none, TIOCSTI works on the session's terminal"
like "$OUT" "tiocsti-hi:OK" "control: so does TIOCSTI with high bits set"
like "$OUT" "tiocsetd:OK" "control: and TIOCSETD"
# TIOCLINUX acts on a virtual console only: on script's pty the kernel
# answers ENOTTY. The filter's EPERM below is told apart from that answer.
tioclinux_host=$(printf '%s\n' "$OUT" | grep '^tioclinux:')
case $tioclinux_host in
tioclinux:OK) ok 0 "control: with seccomp = none, TIOCLINUX works on the session's terminal" ;;
*) echo "# not on this kernel: TIOCLINUX needs a virtual console ($tioclinux_host on a pty)"
   unlike "$tioclinux_host" "tioclinux:ERR1" "control: without the filter, TIOCLINUX fails otherwise than EPERM" ;;
esac
policy_reset
in_pty "$tty_probes"
like "$OUT" "tiocsti:ERR1" "TIOCSTI is refused (EPERM)"
like "$OUT" "tiocsti-hi:ERR1" "TIOCSTI with high bits set is refused"
like "$OUT" "tioclinux:ERR1" "TIOCLINUX is refused"
like "$OUT" "tiocsetd:ERR1" "TIOCSETD is refused"
[ -n "$sysctl_tiocsti" ] && echo "$sysctl_tiocsti" > /proc/sys/dev/tty/legacy_tiocsti
sysctl_tiocsti=""

# --- 5. namespaces, mounting, io_uring, AF_ALG, other ABIs, modules
mnt_probes="$P mount; $P umount2; $P pivot_root; $P open_tree; $P fsopen"
# A path that does not exist: the kernel looks it up (ENOENT) before it
# checks any permission or asks Landlock, the filter refuses first (EPERM).
nx=/nonexistent-ccesc
mnt_nx="$P mount $nx; $P umount2 $nx; $P pivot_root $nx"
outside "unshare -Urm true && echo USERNS-OK; $P io_uring; $P af_alg; $P x32-getpid; $H/t/int80; echo rc=\$?"
host_probes=$OUT
like "$OUT" "USERNS-OK" "control: the user creates a user namespace on the host"
like "$OUT" "io_uring:OK" "control: io_uring_setup works on the host"
# A kernel without IA-32 emulation (CONFIG_IA32_EMULATION off, or
# ia32_emulation=0) answers int 0x80 with SIGSEGV everywhere: nothing to
# show here, and tests/unit/test_seccomp.c judges the filter's 32-bit rule
# without running it.
ia32=""
case $OUT in
*int80:[0-9]*) ia32=yes ;;
*) echo "# not on this kernel: no IA-32 emulation (int 0x80 on the host: $(printf '%s' "$OUT" | grep -o 'rc=[0-9]*'))" ;;
esac
if [ -n "$ia32" ]; then
	like "$OUT" "int80:" "control: the 32-bit entry works on the host"
	unlike "$OUT" "int80:-" "control: and returns a pid"
else
	skip "the 32-bit entry: not on this kernel"
	skip "the 32-bit entry: not on this kernel"
fi
# AF_ALG and x32 exist only where the kernel was built with them.
af_alg=""
case $host_probes in
*af_alg:OK*) af_alg=yes; ok 0 "control: the user opens an AF_ALG socket on the host" ;;
*) echo "# not on this kernel: no AF_ALG ($(printf '%s\n' "$host_probes" | grep '^af_alg:') on the host)" ;;
esac
case $host_probes in
*x32-getpid:OK*) ok 0 "control: an x32 system call works on the host" ;;
*x32-getpid:ERR38*) ok 0 "control: the host answers an x32 system call with ENOSYS (no x32 ABI), not SIGSYS" ;;
*) ok 1 "control: an x32 system call on the host"; echo "# $host_probes" ;;
esac
policy_profile 'seccomp = none'
inside "unshare -Urm --propagation unchanged sh -c '$mnt_probes; $mnt_nx' && echo USERNS-OK; $mnt_nx; $P io_uring; $P af_alg; $H/t/int80"
like "$OUT" "USERNS-OK" "control: with seccomp = none a user namespace can be made inside"
like "$OUT" "open_tree:OK" "control: and open_tree"
like "$OUT" "fsopen:OK" "control: and fsopen"
like "$OUT" "io_uring:OK" "control: io_uring_setup works with seccomp = none"
# Landlock refuses a mount inside too (mount:ERR1 just above): only the
# lookup of a missing path shows the kernel got past the filter.
is "$(printf '%s\n' "$OUT" | grep -cx -e 'mount:ERR2' -e 'umount2:ERR2' -e 'pivot_root:ERR2')" "5" \
	"control: with seccomp = none, mount, umount2 (and pivot_root in a user namespace) on a missing path reach the lookup (ENOENT)"
like "$OUT" "pivot_root:ERR1" "control: outside a user namespace of its own, pivot_root fails with EPERM (no CAP_SYS_ADMIN)"
policy_reset
inside "unshare -Urm true && echo USERNS-OK; $P unshare-user; $mnt_probes; $mnt_nx; $P io_uring; $P af_alg; $P x32-getpid; echo x32-rc=\$?; $P init_module; $P finit_module; $H/t/int80; echo rc=\$?"
unlike "$OUT" "USERNS-OK" "unshare -Urm fails inside"
like "$OUT" "unshare-user:ERR1" "unshare(CLONE_NEWUSER) is refused"
for c in mount umount2 pivot_root open_tree fsopen io_uring; do
	like "$OUT" "$c:ERR1" "$c is refused (EPERM)"
done
is "$(printf '%s\n' "$OUT" | grep -cx -e 'mount:ERR1' -e 'umount2:ERR1' -e 'pivot_root:ERR1')" "6" \
	"mount, umount2 and pivot_root on a missing path: EPERM before the lookup (the filter)"
if [ -n "$af_alg" ]; then
	unlike "$OUT" "af_alg:OK" "AF_ALG sockets fail"
else
	skip "AF_ALG: not on this kernel"
fi
unlike "$OUT" "x32-getpid:" "an x32 system call does not return"
like "$OUT" "x32-rc=159" "the process making it is killed by SIGSYS"
like "$OUT" "init_module:ERR1" "init_module fails"
like "$OUT" "finit_module:ERR1" "finit_module fails"
if [ -n "$ia32" ]; then
	unlike "$OUT" "int80:" "the 32-bit entry does not return"
	like "$OUT" "rc=159" "the process doing it is killed by SIGSYS"
else
	skip "the 32-bit entry: not on this kernel"
	skip "the 32-bit entry: not on this kernel"
fi

# --- 6. set-user-ID root inside
install -d -m 0755 "$H/suid"
install -o root -m 4755 /usr/bin/id "$H/suid/id"
outside "$H/suid/id -u; sudo -n true 2>&1"
is "$(echo "$OUT" | head -1)" "0" "control: the setuid copy of id gives euid 0 on the host"
like "$OUT" "password is required" "control: sudo runs as root on the host (and asks for a password)"
inside "$H/suid/id -u; sudo -n true 2>&1; echo sudo-rc=\$?"
is "$(echo "$OUT" | head -1)" "$(id -u $U)" "the setuid copy stays the user's uid inside"
like "$OUT" "sudo-rc=1" "sudo fails inside"
unlike "$OUT" "password is required" "sudo never gets to root"

# --- 6b. no_new_privs and the empty bounding set, attacked
# Every mount of the session is nosuid, and the kernel ignores a
# set-user-ID bit on a mount of another namespace (a host file on fd 0,
# run through /proc/self/fd/0): nothing the plan builds lets these two
# show. The test gives the session one mount without nosuid, as a bug in
# the mount code would, and shows what still holds then.
cc -o "$H/t/capprobe" "$HERE/capprobe.c" || bail_out "cc capprobe"
install -d -m 0755 "$H/priv"
install -o root -m 4755 "$H/t/capprobe" "$H/priv/setuid"
install -o root -m 0755 "$H/t/capprobe" "$H/priv/filecap"
setcap cap_net_raw+ep "$H/priv/filecap" || bail_out "setcap"
uid=$(id -u $U)
outside "$H/priv/setuid; $H/priv/filecap"
like "$OUT" "setuid: euid=0 caps=" "control: the set-user-ID copy gains euid 0 on the host"
like_re "$OUT" "^filecap: euid=$uid caps=0*2000 raw=OK" "control: the file-capability copy gains CAP_NET_RAW on the host"
# priv_session: a session that waits until root has bound $H/priv again
# without nosuid in its mount namespace, then runs both copies; and one
# that runs the set-user-ID copy from its standard input.
priv_session() {
	rm -f "$H/t/go" "$H/t/priv.out"
	runuser -u $U -- "$SHELL_BIN" -c "while [ ! -e $H/t/go ]; do sleep 0.1; done
		$H/priv/setuid; $H/priv/filecap; /proc/self/fd/0; grep NoNewPrivs /proc/self/status" \
		< "$H/priv/setuid" > "$H/t/priv.out" 2>&1 &
	local sp=$! p i host_ns done=""
	host_ns=$(readlink /proc/self/ns/mnt)
	# Any of the session's processes will do, but the loop's sleeps end
	# at once: one that is gone before nsenter opens it is tried again.
	for i in $(seq 100); do
		for p in $(pgrep -u $U); do
			[ "$(readlink /proc/$p/ns/mnt 2>/dev/null)" != "$host_ns" ] || continue
			nsenter -t "$p" -m sh -c "mount --bind $H/priv $H/priv &&
				mount -o remount,bind,suid $H/priv" 2>/dev/null && done=yes && break 2
		done
		sleep 0.1
	done
	[ -n "$done" ] || echo "# could not remount $H/priv in the session"
	touch "$H/t/go"
	wait $sp
	OUT=$(cat "$H/t/priv.out")
}
policy_profile 'no-new-privs = no
seccomp = none'
priv_session
like "$OUT" "setuid: euid=0 caps=0000000000000000" \
	"control: without no_new_privs, on a mount without nosuid, the set-user-ID copy gains euid 0 inside"
# A file whose capabilities are effective runs with all it asks or not at
# all: with nothing left in the bounding set, its exec fails.
like "$OUT" "$H/priv/filecap: Operation not permitted" \
	"the empty bounding set: the file-capability copy cannot run with CAP_NET_RAW inside (EPERM)"
unlike "$OUT" "filecap: euid" "and did not run without it"
# With Landlock, fd 0 (opened read-only) may be reopened for reading
# alone, so its exec is refused (EACCES); without, it runs and gains
# nothing (nosuid, a mount of another namespace).
like_re "$OUT" "(0: euid=$uid caps=0000000000000000 raw=ERR|/proc/self/fd/0: Permission denied)" \
	"a set-user-ID file of the host on fd 0 gains nothing (a mount of another namespace)"
policy_reset
priv_session
like "$OUT" "setuid: euid=$uid caps=0000000000000000 raw=ERR" "no_new_privs: the set-user-ID copy stays the user's uid inside"
unlike "$OUT" "raw=OK" "and neither copy gains CAP_NET_RAW"
like "$OUT" "NoNewPrivs:	1" "the session runs with no_new_privs"
[ -z "$(findmnt -n -o TARGET "$H/priv")" ]; ok $? "the host never saw the session's mount of $H/priv"

# --- 7. kernel knobs through /proc
# Root-only files: root opens them for writing on the host (nothing is
# written: that would rename the host or trigger sysrq), the user cannot;
# inside, a truncating open meets the read-only mount (EROFS) before the
# file's permissions (EACCES).
run $P open-w /proc/sys/kernel/hostname
is "$OUT" "open-w:OK" "control: root opens /proc/sys/kernel/hostname for writing on the host"
outside "$P open-w /proc/sys/kernel/hostname"
is "$OUT" "open-w:ERR13" "control: the user may not on the host (EACCES)"
outside "$P write /proc/sys/kernel/hostname"
is "$OUT" "write:ERR13" "control: the user's write (with O_TRUNC) fails with EACCES on the host"
inside "$P write /proc/sys/kernel/hostname"
is "$OUT" "write:ERR30" "inside, /proc/sys is a read-only mount: EROFS, before the file's permissions"
if [ -e /proc/sysrq-trigger ]; then
	run $P open-w /proc/sysrq-trigger
	is "$OUT" "open-w:OK" "control: root opens /proc/sysrq-trigger for writing on the host"
	inside "$P write /proc/sysrq-trigger"
	is "$OUT" "write:ERR30" "inside, /proc/sysrq-trigger is a read-only mount: EROFS"
else
	echo "# not on this kernel: no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ off)"
	skip "/proc/sysrq-trigger: not on this kernel"
	skip "/proc/sysrq-trigger: not on this kernel"
fi

# --- 8. host filesystem through /proc and inherited descriptors
inside "ls /proc/1/root/ /proc/1/cwd/ 2>&1; cat /proc/1/root$secret/f"
unlike "$OUT" "TOPSECRET" "/proc/1/root of cocoon-init does not reach the host"
like "$OUT" "Permission denied" "cocoon-init's root and cwd are not the user's to follow"
outside "exec 7<$secret; cat /proc/self/fd/7/f"
like "$OUT" "TOPSECRET" "control: a directory descriptor reaches the host directory"
outside "exec 7<$secret; $SHELL_BIN -c 'cat /proc/self/fd/7/f; ls /proc/self/fd'"
unlike "$OUT" "TOPSECRET" "an inherited descriptor 7 does not reach the session"

# A directory on standard input (fds 0-2 pass unchanged), and a directory
# descriptor sent by an unconfined process of the same user over a socket
# in the home. The mount namespace does not stop lookups relative to a
# host descriptor; the Landlock wall must.
install -o $U -m 0644 "$HERE/fdpass.py" "$H/t/fdpass.py"
outside "cat /proc/self/fd/0/f" < "$secret"
like "$OUT" "TOPSECRET" "control: a directory on stdin reaches the host directory"
run runuser -u $U -- "$SHELL_BIN" -c 'cat /proc/self/fd/0/f; echo; ls /proc/self/fd/0/' < "$secret"
unlike "$OUT" "TOPSECRET" "a directory on stdin does not let the session read the host file"
like "$OUT" "a standard descriptor is a directory; refusing" "cocoon-shell refuses a directory on its standard descriptors"
fdpass() { # fdpass WRAP: send host "/" from outside, receive it through WRAP
	rm -f "$H/t/sock" "$H/t/sock.ready"
	runuser -u $U -- timeout 20 /usr/bin/python3 "$H/t/fdpass.py" send "$H/t/sock" / & local sp=$!
	for i in $(seq 50); do [ -e "$H/t/sock.ready" ] && break; sleep 0.1; done
	run runuser -u $U -- $1 "/usr/bin/python3 $H/t/fdpass.py recv $H/t/sock ${secret#/}/f </dev/null"
	kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
}
fdpass "bash -c"
like "$OUT" "READ TOPSECRET" "control: a received descriptor of host / reads the secret on the host"
fdpass "$SHELL_BIN -c"
like "$OUT" "READ-ERR 13" "inside, openat on a received host descriptor is refused (EACCES)"
unlike "$OUT" "TOPSECRET" "the secret is not read through it"

# --- 9. a bound home directory swapped for a symbolic link between logins
policy_profile 'bind = %h/data /data'
install -d -o $U -m 0755 "$H/data"
inside "touch /data/first && ls /data"
is "$OUT" "first" "the bound directory works at the first login"
rm -rf "$H/data"
runuser -u $U -- ln -s "$secret" "$H/data"
outside "cat $H/data/f"
like "$OUT" "TOPSECRET" "control: the symlink reaches the secret on the host"
inside "cat /data/f; echo ESCAPED"
unlike "$OUT" "TOPSECRET" "the next login does not mount the symlink's target"
unlike "$OUT" "ESCAPED" "the login is refused"
refusal_logged "$log" "refusing symlinks" "and says why, in the log"
rm -f "$H/data"
runuser -u $U -- ln -s /etc "$H/data"
inside "touch /data/ccesc-x; echo ESCAPED"
unlike "$OUT" "ESCAPED" "a symlink to /etc is refused too"
[ ! -e /etc/ccesc-x ]; ok $? "nothing was created in /etc"
rm -f "$H/data"

# --- 9b. a root-owned link into the user's directory, its target swapped
# The link and, after the swap, where it ends are root's: only the
# directories the resolution passes through show that the user steers it.
install -d -m 0700 "$locked"
echo "LOCKED-$$" > "$locked/f"; chmod 0644 "$locked/f"
install -d -m 0755 "$H/t/shared"
ln -s "$H/t/shared" "$rootlink"
policy_profile "ro-bind = $rootlink /data"
rm -rf "$H/t/shared"
runuser -u $U -- ln -s "$locked/f" "$H/t/shared"
outside "cat $locked/f"
unlike "$OUT" "LOCKED" "control: the user cannot read the file in root's 0700 directory"
touch "$work_file"
run unshare -m sh -c "mount --bind $rootlink $work_file && runuser -u $U -- cat $work_file"
like "$OUT" "LOCKED-$$" "control: a bind of the link resolved by root hands it to the user"
inside "cat /data; echo ESCAPED"
unlike "$OUT" "LOCKED" "inside, the file is not bound"
unlike "$OUT" "ESCAPED" "the login is refused"
refusal_logged "$log" "refusing symlinks" "and says why, in the log"
policy_reset

# --- 10. hostile environment, limits and closed descriptors
cat > "$H/t/pre.c" <<'C'
#include <unistd.h>
__attribute__((constructor)) static void hi(void) { write(2, "PRELOADED\n", 10); }
C
cc -shared -fPIC -o "$H/t/pre.so" "$H/t/pre.c" && chmod 0755 "$H/t/pre.so"
mkdir -p "$H/t/gconv"
outside "LD_PRELOAD=$H/t/pre.so /bin/true"
like "$OUT" "PRELOADED" "control: the preload library runs in an ordinary program"
# Builtins alone, so that a session that may not fork still answers.
confined='read -r c < /proc/1/comm; echo $c; while read -r k v; do [ "$k" = Seccomp: ] && echo "seccomp $v"; done < /proc/self/status; echo MARK'
confined_out="cocoon-init
seccomp 2
MARK"
# glibc drops these from a set-user-ID program's environment before
# cocoon-shell runs (10c tests cocoon's own allow-list): the session runs
# confined, without the library.
for envset in "LD_PRELOAD=$H/t/pre.so" "LD_LIBRARY_PATH=$H/t" \
	"GLIBC_TUNABLES=glibc.malloc.check=3:glibc.rtld.nns=1" "GCONV_PATH=$H/t/gconv"; do
	run runuser -u $U -- env "$envset" "$SHELL_BIN" -c "$confined"
	is "$OUT" "$confined_out" "$envset: the session runs confined, nothing preloaded"
done
# Each limit or closed descriptor: one exact outcome, a confined session
# or a refusal with its reason; never anything else.
lim_case() { # lim_case LIMIT WANT-IN-LOG WANT-OUTPUT NAME
	rm -f "$H/t/lim.out"
	outside "$1; $SHELL_BIN -c '{ $confined; } > $H/t/lim.out 2>&1'"
	is "$(cat "$H/t/lim.out" 2>/dev/null)" "$3" "$4"
	if [ -z "$2" ]; then is "$OUT" "" "$4: nothing on the caller's terminal"
	else lim_reason "$2" "$4"; fi
}
# A refusal shows the caller a reference, and the log has the reason;
# a failure before cocoon-shell's code runs (the loader's) has no record.
lim_reason() { # lim_reason REGEX NAME
	local ref
	ref=$(printf '%s\n' "$OUT" | grep -oE 'reference [0-9a-f]{32}' | grep -oE '[0-9a-f]{32}' | head -1)
	if [ -z "$ref" ]; then like_re "$OUT" "$1" "$2: what the caller sees"
	elif [ -z "$log" ]; then skip "/dev/log is taken: syslog not captured"
	else syslog_wait_record "$log" refuse "$ref"; like_re "$(grep -F "session=$ref" "$log")" "$1" "$2: the log says why"; fi
}
# Where root may raise the limit (CAP_SYS_RESOURCE: Debian's VM, not this
# kind of machine), setup runs and the session's own limit of 4 makes its
# Landlock wall fail: refused either way, with the cause.
lim_case "ulimit -n 4" "(the caller's open files limit \(4, and cocoon-shell may not raise it\) is below the 64 it needs|landlock: Too many open files)" \
	"" "ulimit -n 4: refused with the reason, no session"
is "$RC" "1" "ulimit -n 4: cocoon-shell exits 1"
lim_case "ulimit -u 1" "" "$confined_out" "ulimit -u 1: the session runs confined"
lim_case "exec 0<&- 1>&- 2>&-" "" "$confined_out" "closed standard descriptors: the session runs confined"
# Three descriptors at most, one of them closed: the loader cannot open
# libc, cocoon-shell's code never runs.
lim_case "ulimit -n 3; exec 0<&-" "cocoon-shell: error while loading shared libraries: libc\\.so\\.6" \
	"" "ulimit -n 3 with fd 0 closed: the loader refuses, no session"
is "$RC" "127" "ulimit -n 3 with fd 0 closed: exit 127"

# A file size limit cocoon-shell may not raise (a hard one, where root
# lacks CAP_SYS_RESOURCE as in some containers): refused before anything
# is written, not killed by SIGXFSZ half way with a record left behind.
records=$COCOON_ROOT/run/cocoon
before=$(ls -A "$records" 2>/dev/null | wc -l)
outside "ulimit -f 0; $SHELL_BIN -c '$confined' 2>&1; echo RC=\$?"
case "$OUT" in
*cocoon-init*) like "$OUT" "MARK" "ulimit -f 0: raised, and the session runs confined" ;;
*) lim_reason "file size limit \\(0, and cocoon-shell may not raise it\\)" "ulimit -f 0: refused with the reason" ;;
esac
is "$(ls -A "$records" 2>/dev/null | wc -l)" "$before" "ulimit -f 0: no record is left behind"

# --- 10b. a policy of the user's own
printf '[default]\nsandbox = none\n' > "$H/t/evil.conf"
chown $U "$H/t/evil.conf"
run "$CTL" check --config "$H/t/evil.conf"
like "$OUT" "refused" "control: even root's cocoonctl refuses a policy file the user owns"
run runuser -u $U -- env COCOON_CONF="$H/t/evil.conf" COCOON_POLICY="$H/t/evil.conf" \
	CONF="$H/t/evil.conf" "$SHELL_BIN" -c "$confined"
like "$OUT" "cocoon-init" "no variable points cocoon-shell at the user's policy: still confined"

# --- 10c. cocoon's own allow-list, with variables glibc leaves alone
# They name code that a shell or an interpreter in the session would run:
# set by cocoon-shell's caller, they must not reach the session.
printf 'echo BASHENV-RAN\n' > "$H/t/bashenv"; chmod 0644 "$H/t/bashenv"
userenv_vars="BASH_ENV ENV PYTHONSTARTUP PYTHONPATH PYTHONINSPECT PERL5OPT PERL5LIB
	RUBYOPT NODE_OPTIONS PROMPT_COMMAND INPUTRC LESSOPEN EDITOR HISTFILE"
userenv_set=""
for v in $userenv_vars; do
	case $v in
	BASH_ENV|ENV) userenv_set="$userenv_set $v=$H/t/bashenv" ;;
	PERL5OPT) userenv_set="$userenv_set $v=-Mstrict" ;;
	*) userenv_set="$userenv_set $v=$H/t/ccesc-$v" ;;
	esac
done
# shellcheck disable=SC2016
userenv_show='for v in '$(echo $userenv_vars)'; do echo "$v=${!v-unset}"; done'
# shellcheck disable=SC2086
run runuser -u $U -- env $userenv_set bash -c "$userenv_show"
like "$OUT" "BASHENV-RAN" "control: BASH_ENV runs its file in a plain bash -c run the same way"
is "$(printf '%s\n' "$OUT" | grep -c '=unset$')" "0" "control: all $(echo $userenv_vars | wc -w) variables reach a plain bash"
# shellcheck disable=SC2086
run runuser -u $U -- env $userenv_set "$SHELL_BIN" -c "$userenv_show"
unlike "$OUT" "BASHENV-RAN" "BASH_ENV's file does not run in the session"
is "$(printf '%s\n' "$OUT" | grep -c '=unset$')" "$(echo $userenv_vars | wc -w)" \
	"none of them reaches the session"
is "$(printf '%s\n' "$OUT" | grep -v '=unset$')" "" "the session says nothing else"

# --- 11. processes kept after logout
live() { ps -o stat= -u $U | grep -vc '^Z'; }
survivors='nohup sleep 301 >/dev/null 2>&1 & setsid sleep 302 </dev/null >/dev/null 2>&1 & (sleep 303 </dev/null >/dev/null 2>&1 &) & disown -a; echo started'
outside "$survivors"
for i in $(seq 100); do [ "$(live)" = 3 ] && break; sleep 0.1; done
is "$(live)" "3" "control: on the host three detached sleeps outlive their shell"
for p in $(ps -o pid=,stat=,comm= -u $U | awk '$2 !~ /^Z/ && $3 == "sleep" { print $1 }'); do kill -KILL "$p"; done
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
inside "$survivors"
like "$OUT" "started" "inside, the sleeps were started"
for i in $(seq 30); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "after the session ends no live process of the user is left"

done_testing
