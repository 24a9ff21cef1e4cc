#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Landlock, the second wall: a descriptor of a host directory passed into
# the session cannot reach the host's files through it. The sender is a
# host process of the same user, over a socket in a directory bound in.
. "$(dirname "$0")/../lib.sh" engine

abi=$(perl -e 'print syscall(444, 0, 0, 1)' 2>/dev/null) # landlock_create_ruleset, VERSION
if [ "${abi:--1}" -lt 2 ] 2>/dev/null || [ -z "$abi" ]; then
	echo "1..0 # SKIP no Landlock ABI 2 or later in this kernel"
	exit 0
fi
if ! [ -x /usr/bin/python3 ]; then
	echo "1..0 # SKIP python3 passes the descriptor"
	exit 0
fi

engine_user cceng8$T
uid=$(id -u cceng8$T)
gid=$(id -g cceng8$T)
as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }

mkdir "$WORK/xfer"
chown cceng8$T: "$WORK/xfer"
echo "host secret" >"$WORK/secret"
chmod 0644 "$WORK/secret"

# send.py DIR SOCKET: pass one descriptor of DIR to whoever connects.
cat >"$WORK/send.py" <<'PY'
import os, socket, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[2]); s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
socket.send_fds(c, [b"x"], [fd])
c.close()
PY
# recv.py SOCKET NAME: read NAME below the directory received.
cat >"$WORK/recv.py" <<'PY'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
_, fds, _, _ = socket.recv_fds(s, 1, 1)
try:
    print("read:", open(os.open(sys.argv[2], os.O_RDONLY, dir_fd=fds[0])).read().strip())
except OSError as e:
    print("refused:", e.strerror)
try:
    print("listed:", len(os.listdir(fds[0])))
except OSError as e:
    print("list refused:", e.strerror)
PY
chmod 0644 "$WORK/send.py" "$WORK/recv.py"

# pass COMMAND...: start the sender, then run COMMAND (the receiver).
pass() {
	rm -f "$WORK/xfer/s"
	coproc SENDER { as_user /usr/bin/python3 "$WORK/send.py" "$WORK" "$WORK/xfer/s" 2>&1; }
	local line
	read -r -t 10 line <&"${SENDER[0]}"
	"$@"
	wait "$SENDER_PID" 2>/dev/null
}

# Without the wall: a plain process of the user, outside the sandbox,
# reads the host file through the descriptor.
pass run as_user /usr/bin/python3 "$WORK/recv.py" "$WORK/xfer/s" secret
like "$OUT" "read: host secret" "outside the sandbox the descriptor reaches the host file"

pass sandbox cceng8$T --bind "$WORK/xfer" /xfer --ro-bind "$WORK/recv.py" /recv.py \
	-- /usr/bin/python3 /recv.py /xfer/s secret
is "$RC" 0 "the receiver runs in the sandbox"
like "$OUT" "refused: Permission denied" "inside, the received descriptor reaches no host file"
# What the descriptor was opened for stays: Landlock checks at open.
like "$OUT" "listed: " "the received descriptor itself still lists its directory (a known limit)"

# Without a pid namespace (and a user namespace, and no seccomp) alike.
pass run "$ENGINE_DRIVER" --user cceng8$T --ro-bind /usr /usr --symlink usr/lib /lib \
	--symlink usr/lib64 /lib64 --symlink usr/bin /bin --dev /dev --unshare user \
	--bind "$WORK/xfer" /xfer --ro-bind "$WORK/recv.py" /recv.py \
	-- /usr/bin/python3 /recv.py /xfer/s secret
like "$OUT" "refused: Permission denied" "the same in a user namespace without a pid namespace"

# The sandbox's own tree stays fully usable, renames across directories
# included (Landlock's REFER right).
sandbox cceng8$T --tmpfs /tmp -- /bin/sh -c '
	mkdir /tmp/a /tmp/b && echo hi >/tmp/a/f && mv /tmp/a/f /tmp/b/f &&
	ln /tmp/b/f /tmp/a/g && cat /tmp/a/g && : >/tmp/b/f && mkfifo /tmp/p && echo done'
is "$OUT" "hi
done" "inside the sandbox: create, rename and link across directories, truncate, mkfifo"

# The standard descriptors may be host files: reopening them works.
: >"$WORK/out"
chown cceng8$T: "$WORK/out"
"$ENGINE_DRIVER" --user cceng8$T $BASE -- /bin/sh -c 'echo via-proc >/dev/stderr' 2>"$WORK/out"
is "$(cat "$WORK/out")" "via-proc" "a host file on descriptor 2 reopens through /dev/stderr"

done_testing
