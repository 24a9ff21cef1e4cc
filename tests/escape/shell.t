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
	rm -rf "$secret" "$rwusr" "$locked" "$rootlink" "$work_file"
	policy_reset; cleanup_users
}
trap cleanup EXIT

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
	printf '[profile t]\nro-bind = /usr\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib
symlink = usr/lib64 /lib64\ndev = /dev\ntmpfs = /tmp\nbind = %%h\nchdir = %%h
unshare = ipc uts\n%s\n[default]\nprofile = t\n' "$1" | policy_write cocoon.conf
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
outside "unshare -Urm true && echo USERNS-OK; $P io_uring; $H/t/int80; echo rc=\$?"
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
policy_profile 'seccomp = none'
inside "unshare -Urm --propagation unchanged sh -c '$mnt_probes' && echo USERNS-OK; $P io_uring; $P af_alg; $H/t/int80"
like "$OUT" "USERNS-OK" "control: with seccomp = none a user namespace can be made inside"
like "$OUT" "open_tree:OK" "control: and open_tree"
like "$OUT" "fsopen:OK" "control: and fsopen"
like "$OUT" "io_uring:OK" "control: io_uring_setup works with seccomp = none"
policy_reset
inside "unshare -Urm true && echo USERNS-OK; $P unshare-user; $mnt_probes; $P io_uring; $P af_alg; $P x32-getpid; $P init_module; $P finit_module; $H/t/int80; echo rc=\$?"
unlike "$OUT" "USERNS-OK" "unshare -Urm fails inside"
like "$OUT" "unshare-user:ERR1" "unshare(CLONE_NEWUSER) is refused"
for c in mount umount2 pivot_root open_tree fsopen io_uring; do
	like "$OUT" "$c:ERR1" "$c is refused (EPERM)"
done
unlike "$OUT" "af_alg:OK" "AF_ALG sockets fail (this kernel has no AF_ALG: no control)"
unlike "$OUT" "x32-getpid:OK" "x32 system calls fail"
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

# --- 7. kernel knobs through /proc
inside "$P write /proc/sys/kernel/hostname; $P write /proc/sysrq-trigger"
unlike "$OUT" ":OK" "/proc/sys/kernel/hostname and /proc/sysrq-trigger cannot be written"

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
like "$OUT" "refusing symlinks" "and says why"
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
like "$OUT" "refusing symlinks" "and says why"
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
confined='cat /proc/1/comm; grep -c "^Seccomp:.2" /proc/self/status; echo MARK'
for envset in "LD_PRELOAD=$H/t/pre.so" "LD_LIBRARY_PATH=$H/t" \
	"GLIBC_TUNABLES=glibc.malloc.check=3:glibc.rtld.nns=1" "GCONV_PATH=$H/t/gconv"; do
	run runuser -u $U -- env "$envset" "$SHELL_BIN" -c "$confined"
	unlike "$OUT" "PRELOADED" "$envset: no preload in cocoon-shell or the session"
	case "$OUT" in
	*MARK*) is "$OUT" "cocoon-init
1
MARK" "$envset: the session runs confined" ;;
	*) ok 0 "$envset: refused ($RC)"; echo "# $envset: $OUT" ;;
	esac
done
for lim in "ulimit -n 4" "ulimit -u 1" "exec 0<&- 1>&- 2>&-" "ulimit -n 3; exec 0<&-"; do
	rm -f "$H/t/lim.out"
	outside "$lim; $SHELL_BIN -c '{ $confined; } > $H/t/lim.out 2>&1'"
	got=$(cat "$H/t/lim.out" 2>/dev/null)
	case "$got" in
	*MARK*) is "$got" "cocoon-init
1
MARK" "$lim: the session runs confined" ;;
	*) ok 0 "$lim: refused ($RC)"; echo "# $lim: $OUT $got" ;;
	esac
done

# A file size limit cocoon-shell may not raise (a hard one, where root
# lacks CAP_SYS_RESOURCE as in some containers): refused before anything
# is written, not killed by SIGXFSZ half way with a record left behind.
records=$COCOON_ROOT/run/cocoon
before=$(ls -A "$records" 2>/dev/null | wc -l)
outside "ulimit -f 0; $SHELL_BIN -c '$confined' 2>&1; echo RC=\$?"
case "$OUT" in
*cocoon-init*) like "$OUT" "MARK" "ulimit -f 0: raised, and the session runs confined" ;;
*) like "$OUT" "file size limit (0, and cocoon-shell may not raise it)" "ulimit -f 0: refused with the reason" ;;
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

# --- 11. processes kept after logout
live() { ps -o stat= -u $U | grep -vc '^Z'; }
survivors='nohup sleep 301 >/dev/null 2>&1 & setsid sleep 302 </dev/null >/dev/null 2>&1 & (sleep 303 </dev/null >/dev/null 2>&1 &) & disown -a; echo started'
outside "$survivors"
sleep 0.5
is "$(live)" "3" "control: on the host three detached sleeps outlive their shell"
for p in $(ps -o pid=,stat=,comm= -u $U | awk '$2 !~ /^Z/ && $3 == "sleep" { print $1 }'); do kill -KILL "$p"; done
for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
inside "$survivors"
like "$OUT" "started" "inside, the sleeps were started"
for i in $(seq 30); do [ "$(live)" = 0 ] && break; sleep 0.1; done
is "$(live)" "0" "after the session ends no live process of the user is left"

done_testing
