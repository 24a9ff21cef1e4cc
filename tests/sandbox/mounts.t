#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The engine's file-system operations: what the user sees inside, what
# the user owns, what stays read-only, and what happens on the host when
# an operation fails.
. "$(dirname "$0")/../lib.sh" engine

engine_user cceng1$T
uid=$(id -u cceng1$T)
gid=$(id -g cceng1$T)

# ---- read-only binds, submounts included, and mount flags ----
mkdir -p "$WORK/ro/sub" && echo data > "$WORK/ro/file"
mount -t tmpfs -o size=64k cceng-sub "$WORK/ro/sub"
echo subdata > "$WORK/ro/sub/f"
sandbox cceng1$T --ro-bind "$WORK/ro" /data --bind "$WORK/ro" /rw -- /bin/sh -c '
	cat /data/file /data/sub/f
	touch /data/x 2>/dev/null && echo "top writable" || echo "top read-only"
	touch /data/sub/x 2>/dev/null && echo "sub writable" || echo "sub read-only"
	mawk "\$5 ~ /^\/(data|rw|usr)/ {print \$5, \$6}" /proc/self/mountinfo'
umount "$WORK/ro/sub"
is "$RC" 0 "ro-bind runs"
like "$OUT" "data
subdata" "the bound tree and its submount are visible"
like "$OUT" "top read-only" "ro-bind is read-only"
like "$OUT" "sub read-only" "ro-bind makes submounts read-only too"
like "$OUT" "/data ro,nosuid,nodev,relatime" "ro-bind is ro, nosuid, nodev"
like "$OUT" "/data/sub ro,nosuid,nodev" "the submount is ro, nosuid, nodev"
like "$OUT" "/rw rw,nosuid,nodev" "bind is rw, nosuid, nodev"
like "$OUT" "/usr ro,nosuid,nodev" "/usr is ro, nosuid, nodev"
[ ! -e "$WORK/ro/x" ]; ok $? "nothing was written to the host through ro-bind"

sandbox cceng1$T --dev-bind /dev/null /null --bind /dev/zero /zero -- /bin/sh -c '
	echo x > /null && echo "dev-bind usable"
	head -c1 /zero >/dev/null 2>&1 || echo "bind nodev refused"'
like "$OUT" "dev-bind usable" "dev-bind allows the device"
like "$OUT" "bind nodev refused" "a plain bind of a device node is nodev"

sandbox cceng1$T --tmpfs /t --dir /t/d --remount-ro /t --dir /u --remount-ro /u -- /bin/sh -c '
	touch /t/d/x 2>/dev/null && echo "t writable" || echo "t read-only"
	touch /u/x 2>/dev/null && echo "u writable" || echo "u read-only"'
is "$RC" 0 "remount-ro runs on a mount point and on a plain directory"
like "$OUT" "t read-only" "remount-ro makes a tmpfs read-only"
like "$OUT" "u read-only" "remount-ro of a directory that is not a mount point"

# ---- ownership of what operations create (as bubblewrap's) ----
sandbox cceng1$T --dir /tmp --dir "/run/user/$uid" --mode 0700 --dir /m700 \
	--file /etc/motd "hello" --mode 0600 --file /etc/secret "s" \
	--symlink /etc/motd /motd --tmpfs /tt --mode 1777 --size 1048576 --tmpfs /t2 \
	--dir /c --chmod 0711 /c -- /bin/sh -c '
	stat -c "%n %a %u:%g %F" / /tmp /run /run/user "/run/user/'"$uid"'" /m700 /etc /etc/motd /etc/secret /motd /tt /t2 /c
	cat /etc/motd; echo
	mawk "\$5 == \"/t2\" {print \$NF}" /proc/self/mountinfo
	touch /tmp/a "/run/user/'"$uid"'/b" && echo "created dirs writable"'
is "$RC" 0 "dir, file, symlink, tmpfs and chmod run"
like "$OUT" "/ 755 $uid:$gid directory" "the root is the user's, 0755"
like "$OUT" "/tmp 755 $uid:$gid directory" "dir /tmp is the user's, 0755"
like "$OUT" "/run 755 $uid:$gid directory" "a created parent is the user's, 0755"
like "$OUT" "/run/user 755 $uid:$gid directory" "every created parent is the user's"
like "$OUT" "/run/user/$uid 755 $uid:$gid directory" "dir /run/user/UID is the user's"
like "$OUT" "/m700 700 $uid:$gid directory" "dir takes mode="
like "$OUT" "/etc/motd 644 $uid:$gid regular file" "file defaults to 0644, the user's"
like "$OUT" "/etc/secret 600 $uid:$gid regular file" "file takes mode="
like "$OUT" "/motd 777 $uid:$gid symbolic link" "symlink is the user's"
like "$OUT" "/tt 755 $uid:$gid directory" "tmpfs defaults to 0755, the user's"
like "$OUT" "/t2 1777 $uid:$gid directory" "tmpfs takes mode="
like "$OUT" "/c 711 $uid:$gid directory" "chmod changes the mode"
like "$OUT" "hello" "file holds its content"
like "$OUT" "size=1024k" "tmpfs takes size="
like "$OUT" "created dirs writable" "the user can write in created directories"

# ---- /dev ----
sandbox cceng1$T -- /bin/sh -c '
	cd /dev && ls -1 | tr "\n" " "; echo
	stat -c "%n %t:%T" null zero full random urandom tty
	readlink ptmx fd stdin stdout stderr
	mawk "\$5 ~ /^\/dev/ {print \$5, \$6, \$9, \$NF}" /proc/self/mountinfo
	echo x > /dev/null && head -c 4 /dev/urandom | wc -c'
is "$RC" 0 "dev runs"
is "$(echo "$OUT" | head -1)" "core fd full null ptmx pts random shm stderr stdin stdout tty urandom zero " "dev holds the minimal set, as bubblewrap's"
like "$OUT" "null 1:3" "/dev/null is the host's"
like "$OUT" "tty 5:0" "/dev/tty is the host's"
like "$OUT" "pts/ptmx
/proc/self/fd
/proc/self/fd/0" "the symlinks point where bubblewrap's do"
like "$OUT" "/dev/pts rw,nosuid,noexec,relatime devpts rw,mode=620,ptmxmode=666,max=128" "a new devpts instance, bounded by pty-max"
like "$OUT" "/dev/shm rw,nosuid,nodev,relatime tmpfs rw,size=" "shm is a bounded tmpfs"
like "$OUT" "/dev rw,nosuid,nodev,relatime tmpfs rw,size=64k,nr_inodes=1024,mode=755,uid=$uid,gid=$gid" "dev is a small tmpfs, the user's"
like "$OUT" "/dev/null rw,nosuid,noexec,relatime devtmpfs" "device nodes are nosuid, noexec"
like "$OUT" "4" "the devices work"

# ---- proc ----
sandbox cceng1$T -- /bin/sh -c '
	mawk "\$5 ~ /^\/proc/ {print \$5, \$6}" /proc/self/mountinfo
	echo 1 > /proc/sys/kernel/hostname 2>/dev/null || echo "sys read-only"'
like "$OUT" "/proc rw,nosuid,nodev,noexec,relatime" "proc is nosuid, nodev, noexec"
like "$OUT" "/proc/sys ro,nosuid,nodev,noexec,relatime" "/proc/sys is read-only"
like "$OUT" "/proc/irq ro," "/proc/irq is read-only"
like "$OUT" "/proc/bus ro," "/proc/bus is read-only"
like "$OUT" "sys read-only" "/proc/sys cannot be written"

# ---- mqueue and tmp-overlay ----
sandbox cceng1$T --mqueue /dev/mqueue --unshare ipc -- /bin/sh -c '
	mawk "\$5 == \"/dev/mqueue\" {print \$9}" /proc/self/mountinfo'
is "$OUT" "mqueue" "mqueue mounts an mqueue file system"
run "$ENGINE_DRIVER" --user cceng1$T --mqueue /mq -- /bin/true
like "$OUT" "needs an ipc namespace" "mqueue without an ipc namespace is refused"

mkdir -p "$WORK/ov" && echo orig > "$WORK/ov/f" && chown -R cceng1$T "$WORK/ov"
sandbox cceng1$T --bind "$WORK/ov" /ov --tmp-overlay /ov -- /bin/sh -c '
	echo changed > /ov/f && echo new > /ov/g && cat /ov/f /ov/g'
is "$RC" 0 "tmp-overlay runs"
like "$OUT" "changed
new" "the overlay is writable"
is "$(cat "$WORK/ov/f"; ls "$WORK/ov")" "orig
f" "changes to the overlay never reach the host"

# ---- operations on the root itself ----
# A chroot-style root replaces the sandbox's root; nothing of the host's
# tree may stay reachable, even through "/.." (a mount stacked on the
# root is what ".." at the root leads to).
mkdir -p "$WORK/chroot/proc" "$WORK/chroot/dev" "$WORK/chroot/usr" "$WORK/chroot/marker-root"
for l in lib lib64 bin sbin; do ln -s "usr/$l" "$WORK/chroot/$l"; done
run "$ENGINE_DRIVER" --user cceng1$T --dir /before --ro-bind "$WORK/chroot" / \
	--ro-bind /usr /usr --proc /proc --dev /dev --unshare pid -- /bin/sh -c '
	ls / | tr "\n" " "; echo; ls /.. | tr "\n" " "; echo
	cut -d" " -f5 /proc/self/mountinfo | tr "\n" " "'
is "$RC" 0 "bind of a chroot onto / runs"
is "$(echo "$OUT" | sed -n 1p)" "bin dev lib lib64 marker-root proc sbin usr " "the chroot is the root"
is "$(echo "$OUT" | sed -n 2p)" "bin dev lib lib64 marker-root proc sbin usr " "/.. is the root too: the host's tree is gone"
is "$(echo "$OUT" | sed -n 3p)" "/ /usr /proc /proc/sys /proc/irq /proc/bus /dev /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /dev/pts /dev/shm " \
	"only the sandbox's mounts exist in its namespace"
rm -rf "$WORK/chroot"
# shellcheck disable=SC2086
run "$ENGINE_DRIVER" --user cceng1$T --tmp-overlay / $BASE -- /bin/sh -c 'touch /new && ls /.. | tr "\n" " "'
is "$RC" 0 "tmp-overlay of the root runs"
like "$OUT" "new " "the overlaid root is writable, and still the root at /.."

# ---- bind-try and failures ----
before=$(host_mounts)
sandbox cceng1$T --ro-bind-try /nonexistent/src /opt --tmpfs /x -- /bin/sh -c '
	test -e /opt && echo "opt exists" || echo "opt skipped"'
is "$RC" 0 "ro-bind-try of a missing source runs"
like "$OUT" "opt skipped" "ro-bind-try skips a missing source"

sandbox cceng1$T --tmpfs /x --dir /x/y --ro-bind /nonexistent/src /opt -- /bin/true
is "$RC" 125 "bind of a missing source fails"
like "$OUT" "ro-bind /nonexistent/src /opt: open_tree /nonexistent/src: No such file or directory" \
	"the error names the operation, the path and the reason"
like "$OUT" "engine-driver:" "the error comes back from the sandbox to the caller"
after=$(host_mounts)
is "$after" "$before" "a failed build leaves no mount on the host"
is "$(live_procs cceng1$T)" 0 "a failed build leaves no process"

# ---- user-writable sources: as the user, no symlinks ----
install -d -o cceng1$T -m 0755 "$WORK/home" "$WORK/home/real"
echo mine > "$WORK/home/real/f"
ln -s /etc "$WORK/home/swapped"
ln -s real "$WORK/home/swapped-dir"
install -d -o root -m 0700 "$WORK/home/rootonly" "$WORK/home/rootonly/sub"
sandbox cceng1$T --user-writable --bind "$WORK/home/real" /h -- /bin/cat /h/f
is "$OUT" "mine" "a user-writable source binds"
sandbox cceng1$T --user-writable --bind "$WORK/home/swapped" /h -- /bin/ls /h
is "$RC" 125 "a symlink swapped in for a user-writable source is refused"
like "$OUT" "refusing symlinks: Too many levels of symbolic links" "the error says why"
sandbox cceng1$T --user-writable --bind "$WORK/home/swapped-dir/f" /h -- /bin/true
is "$RC" 125 "a symlink in a directory of the source's path is refused"
sandbox cceng1$T --user-writable --bind-try "$WORK/home/swapped" /h -- /bin/true
is "$RC" 125 "bind-try refuses the symlink too (it is not a missing source)"
sandbox cceng1$T --user-writable --bind "$WORK/home/rootonly/sub" /h -- /bin/true
is "$RC" 125 "a user-writable source is opened with the user's rights"
like "$OUT" "Permission denied" "the user could not open it, so neither does the engine"
sandbox cceng1$T --bind "$WORK/home/rootonly/sub" /h -- /bin/true
is "$RC" 0 "a root-controlled source is opened as root"

# A destination inside a bind the user controls: a symlink there must
# not redirect the mount.
ln -s /tmp "$WORK/home/real/link"
sandbox cceng1$T --user-writable --bind "$WORK/home/real" /h --tmpfs /h/link/x -- /bin/true
is "$RC" 125 "a symlink on a destination's path is refused"
like "$OUT" "tmpfs /h/link/x: /h/link/x: Too many levels of symbolic links" "the error names the destination"
sandbox cceng1$T --user-writable --bind "$WORK/home/real" /h --tmpfs /h/newdir/x -- /bin/true
is "$(stat -c %U "$WORK/home/real/newdir" 2>/dev/null)" "cceng1$T" "directories made in the user's tree are the user's"

done_testing
