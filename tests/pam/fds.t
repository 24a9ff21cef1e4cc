#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Descriptors the caller of su, runuser and login holds open do not reach
# the sandboxed shell: root's `exec 9<SECRET 8<DIR; runuser -l USER` gave
# the user SECRET through fd 9 and, through fd 8, stat and chmod of files
# in DIR, which the plan does not show (Landlock checks neither). A
# nested launch inside the session keeps the user's own descriptors.
# The PAM files are bound over /etc/pam.d/su and runuser (su -l and
# runuser -l include them) and login in a mount namespace of this test's
# own: nothing is edited, and another test's su is not disturbed.
if [ -z "${COCOON_LFD_FDS_NS:-}" ]; then
	COCOON_LFD_FDS_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
W=$(mktemp -d /var/tmp/cocoon-lfd-fds.XXXXXX)
trap 'policy_reset; cleanup_users; rm -rf "$W"' EXIT
chmod 0755 "$W"

U=lfdfd1$T
add_user $U || bail_out "useradd $U"
policy_reset
# The secret and the directory: root's, in a place the sandbox does not
# bind (/var/tmp is private in the default plan). victim is the user's,
# so that a chmod through fd 8 needs nothing but reaching it.
echo lfd-secret > "$W/secret"
chmod 0600 "$W/secret"
mkdir -m 0755 "$W/dir"
install -o $U -m 0600 /dev/null "$W/dir/victim"

stack() { # stack SERVICE cocoon|plain: a PAM file in $W
	if [ "$2" = cocoon ]; then
		{
			printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
			cat "/etc/pam.d/$1"
			printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
		} > "$W/$1.cocoon"
	else
		cat "/etc/pam.d/$1" > "$W/$1.plain"
	fi
}
# The stacks are copies of the host's files: made while no other copy of
# the suite has them changed.
pam_services_lock
for s in su runuser login; do stack $s cocoon; stack $s plain; done
host_unlock pam-services
use() { # use cocoon|plain: bind that variant of every stack
	local s
	for s in su runuser login; do
		umount "/etc/pam.d/$s" 2>/dev/null
		mount --bind "$W/$s.$1" "/etc/pam.d/$s" || bail_out "bind /etc/pam.d/$s"
	done
}

# What the shell reads through the caller's descriptors: the secret
# through 9; victim's mode through 8, changed through 8.
probe='cat <&9; /usr/bin/python3 -c "
import os
try:
    os.chmod(\"victim\", 0o606, dir_fd=8)
    print(\"chmod:\", oct(os.stat(\"victim\", dir_fd=8).st_mode & 0o777))
except OSError as e:
    print(\"dirfd:\", e.strerror)
"; cat /proc/1/comm'
reset_victim() { chmod 0600 "$W/dir/victim"; }
held() { # held COMMAND...: run with 9 and 8 open, as root holds them
	run "$@" 9<"$W/secret" 8<"$W/dir"
}
# login on a pty (python's pty module), the probe fed to the shell.
login_probe() {
	# shellcheck disable=SC2016
	held /usr/bin/python3 -c '
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv("/bin/login", ["login", "-f", sys.argv[1]])
out = b""
time.sleep(1.5)
os.write(fd, sys.argv[2].encode() + b"\nexit\n")
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))' "$U" "cd; $probe"
}

cases() { # cases cocoon|plain: each service with 9 and 8 held
	reset_victim; held su $U -c "cd $W/dir; $probe"; SU=$OUT
	reset_victim; held su - $U -c "cd $W/dir; $probe"; SUL=$OUT
	reset_victim; held runuser -u $U -- bash -c "cd $W/dir; $probe"; RU=$OUT
	reset_victim; held runuser -l $U -c "cd $W/dir; $probe"; RUL=$OUT
	reset_victim; login_probe; LOGIN=$OUT
}

# Control: the stock stacks hand the caller's descriptors on.
use plain
cases plain
like "$SU" "lfd-secret" "control: su, the shell reads the caller's fd 9"
like "$SU" "chmod: 0o606" "control: su, the shell chmods through the caller's fd 8"
like "$SUL" "lfd-secret" "control: su -, the shell reads fd 9"
like "$RU" "lfd-secret" "control: runuser, the command reads fd 9"
like "$RUL" "lfd-secret" "control: runuser -l, the shell reads fd 9"
like "$RUL" "chmod: 0o606" "control: runuser -l, chmod through fd 8"
like "$LOGIN" "lfd-secret" "control: login on a pty, the shell reads fd 9"

use cocoon
cases cocoon
for c in "su:$SU" "su -:$SUL" "runuser -u USER -- bash:$RU" "runuser -l:$RUL" \
	"login:$LOGIN"; do
	name=${c%%:*} out=${c#*:}
	like "$out" "cocoon-init" "$name: the shell runs in the sandbox"
	unlike "$out" "lfd-secret" "$name: fd 9 is closed before the shell"
	like "$out" "dirfd: Bad file descriptor" "$name: fd 8 is closed: no stat or chmod through it"
done
is "$(stat -c %a "$W/dir/victim")" "600" "victim's mode is root's last chmod, not the session's"

# A directory as fd 0 (root's `runuser -l USER < DIR`) is the same way
# in: the shell moves it to fd 3 and lists, stats and chmods through it.
dirprobe='python3 -c "
import os
print(\"list:\", sorted(os.listdir(3)))
os.chmod(\"victim\", 0o606, dir_fd=3)
print(\"chmod:\", oct(os.stat(\"victim\", dir_fd=3).st_mode & 0o777))
" 3<&0 </dev/null; cat /proc/1/comm'
use plain
reset_victim; run runuser -l $U -c "$dirprobe" < "$W/dir"
like "$OUT" "chmod: 0o606" "control: runuser -l < DIR, the shell chmods through fd 0"
use cocoon
reset_victim; run runuser -l $U -c "$dirprobe" < "$W/dir"
like "$OUT" "a standard descriptor is a directory; refusing" "runuser -l < DIR: cocoon-launch refuses the directory"
unlike "$OUT" "list:" "and nothing lists through it"
is "$(stat -c %a "$W/dir/victim")" "600" "nor chmods through it"

# Nested launches in the session keep the user's own descriptors: the
# login shell and /bin/sh are the launcher there too.
run su $U -c 'cd; echo own > mine; exec 7<mine; /bin/sh -c "cat <&7"; bash -c "cat /proc/self/fd/7"'
is "$OUT" "own
own" "a nested /bin/sh and bash in the session read the user's own fd 7"

done_testing
