#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every directive, seen from inside a real sandbox through `cocoonctl run`
# as a throwaway user; each is shown to change what the process sees. Then
# the embedded default and the failure paths, and that nothing is left on
# the host afterwards.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-directives-test.XXXXXX)
chmod 0755 "$work"
trap 'policy_reset; cleanup_users; rm -rf "$work"' EXIT

add_group ccdirg$T
add_user ccdir1$T -G ccdirg$T
uid=$(id -u ccdir1$T)
gid=$(id -g ccdir1$T)
home=/home/ccdir1$T
mounts_before=$(wc -l < /proc/self/mountinfo)

BASE='[profile base]
ro-bind = /usr
ro-bind = /etc
symlink = usr/bin /bin
symlink = usr/lib /lib
symlink = usr/lib64 /lib64
symlink = usr/sbin /sbin
proc = /proc
dev = /dev
unshare = pid
[default]
profile = base
'
# policy EXTRA-LINES: the base profile plus lines for the [default] rule.
policy() {
	policy_reset
	printf '%s%s\n' "$BASE" "$1" | policy_write cocoon.conf
}
# inside CMD: run CMD with sh -c in ccdir1's sandbox.
inside() {
	run "$CTL" run --user ccdir1$T -- /bin/sh -c "$1"
}

mkdir -p "$work/data" "$work/ro"
echo host-data > "$work/data/file"
chown ccdir1$T "$work/data"
echo host-ro > "$work/ro/file"

# bind / ro-bind / bind-try
policy "bind = $work/data /data"
inside 'echo written > /data/new && cat /data/file'
is "$OUT" "host-data" "bind: the host directory is visible"
is "$(cat "$work/data/new" 2>/dev/null)" "written" "bind: writes reach the host"
policy "ro-bind = $work/data /data"
inside 'echo x > /data/other'
[ "$RC" -ne 0 ] && [ ! -e "$work/data/other" ]; ok $? "ro-bind: writing fails"
like "$OUT" "Read-only file system" "ro-bind: with EROFS"
policy "bind = $work/missing /m"
inside 'true'
is "$RC" 1 "bind: a missing source refuses the session"
like "$OUT" "$work/missing" "and names the missing source"
policy "bind-try = $work/missing /m"
inside 'test -e /m && echo there || echo absent'
is "$OUT" "absent" "bind-try: a missing source is skipped"
policy "ro-bind-try = $work/ro /ro"
inside 'cat /ro/file; echo x > /ro/file'
like "$OUT" "host-ro" "ro-bind-try: a present source is bound"
like "$OUT" "Read-only file system" "ro-bind-try: read-only"

# ro-bind covers submounts
mkdir -p "$work/outer/inner"
mount -t tmpfs -o size=1m cctest "$work/outer/inner"
policy "ro-bind = $work/outer /outer"
inside 'echo x > /outer/inner/f'
like "$OUT" "Read-only file system" "ro-bind: submounts are read-only too"
umount "$work/outer/inner"

# dev-bind versus bind: device nodes work only through dev-bind
policy "dev-bind = /dev/null /devnull"
inside 'echo x > /devnull && echo ok'
is "$OUT" "ok" "dev-bind: a device node can be opened"
policy "bind = /dev/null /devnull"
inside 'echo x > /devnull && echo ok'
like "$OUT" "Permission denied" "bind: device nodes are nodev"

policy "dev-bind-try = /dev/null /devnull
dev-bind-try = /dev/no-such-node /nothing"
inside 'echo x > /devnull && echo ok; test -e /nothing || echo skipped'
is "$OUT" "ok
skipped" "dev-bind-try: device nodes work, a missing source is skipped"

# remount-ro
policy "bind = $work/data /data
remount-ro = /data"
inside 'echo x > /data/again'
like "$OUT" "Read-only file system" "remount-ro: makes a bind read-only"

# tmpfs size and mode
policy "tmpfs = /scratch size=1M mode=0750"
inside 'stat -c %a /scratch; head -c 2000000 /dev/zero > /scratch/big; echo rc=$?'
like "$OUT" "750" "tmpfs: mode="
like "$OUT" "No space left on device" "tmpfs: size= bounds it"

# dir, symlink, file, chmod
policy "dir = /made/deeper mode=0711
symlink = /made/deeper /link
file = /etc-motd \"hello from the policy\" mode=0640
chmod = 0700 /made"
inside 'stat -c "%a %U" /made/deeper; readlink /link; cat /etc-motd; stat -c %a /etc-motd /made'
like "$OUT" "711 ccdir1$T" "dir: created with its mode, owned as bwrap would"
like "$OUT" "/made/deeper" "symlink: points where the policy says"
like "$OUT" "hello from the policy" "file: holds its content"
like "$OUT" "640
700" "file mode= and chmod"

# proc, dev, mqueue
policy ""
inside 'test -e /proc/self/status && echo proc-ok; test -c /dev/null && echo dev-ok; echo 1 > /proc/sys/kernel/hostname'
like "$OUT" "proc-ok" "proc: a procfs"
like "$OUT" "dev-ok" "dev: device nodes"
like "$OUT" "/proc/sys/kernel/hostname: Read-only file system" "proc: /proc/sys is read-only"
policy "unshare = pid ipc
mqueue = /dev/mqueue"
inside 'grep " /dev/mqueue " /proc/self/mountinfo'
like "$OUT" "mqueue" "mqueue: an mqueue filesystem"

# tmp-overlay: writes land in a throwaway layer
policy "bind = $work/data /data
tmp-overlay = /data"
inside 'echo x > /data/overlaid && cat /data/overlaid /data/file'
is "$OUT" "x
host-data" "tmp-overlay: writes land on top of what is there"
[ ! -e "$work/data/overlaid" ]; ok $? "tmp-overlay: the host directory is untouched"

# chdir, hostname, environment
policy "chdir = /usr/share
unshare = pid uts
hostname = cocoon-%u
setenv = GREETING \"hello world\"
unsetenv = TERM"
run env TERM=xterm "$CTL" run --user ccdir1$T -- /bin/sh -c 'pwd; cat /proc/sys/kernel/hostname; echo "$GREETING"; echo "term=${TERM-unset}"'
like "$OUT" "/usr/share" "chdir"
like "$OUT" "cocoon-ccdir1$T" "hostname (with a token)"
like "$OUT" "hello world" "setenv"
like "$OUT" "term=unset" "unsetenv"
policy "clearenv = yes"
run env TERM=xterm LANG=C.UTF-8 "$CTL" run --user ccdir1$T -- /bin/sh -c 'echo "term=${TERM-unset} lang=${LANG-unset} home=$HOME"'
like "$OUT" "term=unset lang=unset home=$home" "clearenv drops what the caller passed, keeps HOME"
policy ""
run env TERM=xterm LANG=C.UTF-8 BASH_ENV=/x "$CTL" run --user ccdir1$T -- /bin/sh -c 'echo "term=${TERM-unset} bash_env=${BASH_ENV-unset}"'
like "$OUT" "term=xterm bash_env=unset" "without clearenv, only allow-listed variables pass"

# namespaces: each compared with the host's
host_ns() { readlink /proc/self/ns/"$1"; }
for ns in net ipc uts cgroup; do
	policy "unshare = pid $ns"
	inside "readlink /proc/self/ns/$ns"
	[ -n "$OUT" ] && [ "$OUT" != "$(host_ns "$ns")" ]; ok $? "unshare = $ns: a new $ns namespace"
	policy ""
	inside "readlink /proc/self/ns/$ns"
	is "$OUT" "$(host_ns "$ns")" "without unshare = $ns: the host's $ns namespace"
done
policy "unshare = pid net"
inside 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "'
is "$OUT" "lo" "unshare = net: only loopback"
policy "unshare = pid user"
inside 'cat /proc/self/uid_map; readlink /proc/self/ns/user'
like "$OUT" "$uid" "unshare = user: maps the user's own uid"
[ "$(echo "$OUT" | grep -c '^ ')" -eq 1 ]; ok $? "unshare = user: and nothing else"

# Without a pid namespace the host's processes are visible (no proc
# mount either: a procfs needs its own pid namespace).
policy_reset
printf '[profile p]\nro-bind = /usr\nro-bind = /etc\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib\nsymlink = usr/lib64 /lib64\nro-bind = /proc\n[default]\nprofile = p\n' | policy_write cocoon.conf
inside 'ls /proc | grep -c "^[0-9]"'
[ "${OUT:-0}" -gt 10 ]; ok $? "without unshare = pid the host's processes are visible ($OUT)"
policy ""
inside 'n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n'
is "$OUT" "2" "unshare = pid: only init and the command"

# new-session
policy "new-session = yes"
inside 'read -r _ _ _ _ _ sid _ < /proc/self/stat; echo "$sid $$"'
set -- $OUT
is "${1:-}" "${2:-x}" "new-session: the command leads a new session"

# seccomp and no-new-privs
policy ""
inside 'grep NoNewPrivs /proc/self/status; unshare -U true; echo userns=$?'
like "$OUT" "NoNewPrivs:	1" "no-new-privs is on by default"
like "$OUT" "userns=1" "seccomp default: creating a user namespace is refused"
policy "seccomp = none
no-new-privs = no"
inside 'grep NoNewPrivs /proc/self/status; unshare -U true; echo userns=$?'
like "$OUT" "NoNewPrivs:	0" "no-new-privs = no"
like "$OUT" "userns=0" "seccomp = none: the same call works without the filter"

# landlock = required: this kernel has Landlock, so the session runs
# (tests/sandbox/landlock.t shows what the wall stops).
policy "landlock = required"
inside 'echo walled'
is "$OUT" "walled" "landlock = required: the session runs where the kernel has Landlock"
run "$CTL" explain ccdir1$T
like "$OUT" "landlock     required" "and explain shows it"

# sandbox = none: run refuses rather than run unconfined
policy_reset
printf '[default]\nsandbox = none\n' | policy_write cocoon.conf
inside 'true'
is "$RC" 1 "sandbox = none: cocoonctl run refuses"

# The embedded default (no policy file at all).
policy_reset
inside 'pwd; touch /usr/x; echo "home" > ~/probe && cat ~/probe; ls -A /tmp | wc -l; grep -c . /proc/self/mountinfo >/dev/null && echo seen'
like "$OUT" "$home" "embedded default: starts in the home"
like "$OUT" "Read-only file system" "embedded default: /usr is read-only"
is "$(cat $home/probe 2>/dev/null)" "home" "embedded default: the home is read-write"
like "$OUT" "
0
" "embedded default: /tmp is private and empty"

# Failure paths.
chmod 000 "$home"
inside 'true'
is "$RC" 1 "an unreadable home refuses the session"
like "$OUT" "$home" "naming the home"
chmod 0750 "$home"

mkdir -p "$home/shared"
chown ccdir1$T "$home/shared"
policy "bind = %h/shared /shared"
inside 'echo ok'
is "$OUT" "ok" "a bind of a directory in the home works"
rmdir "$home/shared"
ln -s /root "$home/shared"
chown -h ccdir1$T "$home/shared"
inside 'ls /shared'
is "$RC" 1 "a symlink swapped in for a bound directory refuses the next session"
like "$OUT" "shared" "naming the source"
rm -f "$home/shared"

is "$(wc -l < /proc/self/mountinfo)" "$mounts_before" "no mount is left on the host"
# Count live processes: this machine's pid 1 never reaps, so zombies of
# earlier tests (bwrap's) can carry a reused uid.
is "$(ps -o stat= -u ccdir1$T | grep -vc '^Z')" 0 "no process of the user is left"

done_testing
