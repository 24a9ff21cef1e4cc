#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The standard descriptors cocoon-shell's caller passes stay reopenable
# through /proc/self/fd only for what they were opened for: an O_PATH
# fd 0 of a host file the sandbox does not show reads and writes
# nothing, a read-only one reads but does not write. Landlock's rule on
# each had given every file right.
. "$(dirname "$0")/../lib.sh"

abi=$(perl -e 'print syscall(444, 0, 0, 1)' 2>/dev/null) # landlock_create_ruleset, VERSION
if [ -z "$abi" ] || [ "$abi" -lt 2 ] 2>/dev/null; then
	echo "1..0 # SKIP not on this kernel: no Landlock ABI 2 or later"
	exit 0
fi
W=$(mktemp -d /var/tmp/cocoon-lfd-std.XXXXXX)
trap 'policy_reset; cleanup_users; rm -rf "$W"' EXIT
chmod 0755 "$W"
U=lfdsh1$T
add_user $U -s "$SHELL_BIN" || bail_out "useradd $U"
policy_reset
# The user's own file, where the default plan shows nothing (/var/tmp is
# private): only a descriptor can lead to it.
install -o $U -m 0600 /dev/null "$W/file"
echo host-text > "$W/file"

# with_fd0 O_PATH|O_RDONLY PROGRAM: PROGRAM -c PROBE as the user, its fd 0
# that host file opened so.
probe='cat /proc/self/fd/0 2>/dev/null || echo read-refused
(echo written >> /proc/self/fd/0) 2>/dev/null && echo write-ok || echo write-refused
cat /proc/1/comm'
with_fd0() {
	# shellcheck disable=SC2016
	run runuser -u $U -- /usr/bin/python3 -c '
import os, sys
fd = os.open(sys.argv[1], getattr(os, sys.argv[2]))
os.dup2(fd, 0)
os.execv(sys.argv[3], [sys.argv[3], "-c", sys.argv[4]])' "$W/file" "$1" "$2" "$probe"
}

with_fd0 O_PATH /bin/bash
like "$OUT" "host-text" "control: outside, an O_PATH fd 0 reopens for reading"
like "$OUT" "write-ok" "control: outside, and for writing"
echo host-text > "$W/file"
with_fd0 O_PATH "$SHELL_BIN"
like "$OUT" "cocoon-init" "cocoon-shell: the probe runs in the sandbox"
like "$OUT" "read-refused" "cocoon-shell: an O_PATH fd 0 does not reopen for reading"
like "$OUT" "write-refused" "cocoon-shell: nor for writing"
is "$(cat "$W/file")" "host-text" "the host file is unchanged"

with_fd0 O_RDONLY /bin/bash
like "$OUT" "write-ok" "control: outside, a read-only fd 0 reopens for writing"
echo host-text > "$W/file"
with_fd0 O_RDONLY "$SHELL_BIN"
like "$OUT" "host-text" "cocoon-shell: a read-only fd 0 still reopens for reading"
like "$OUT" "write-refused" "cocoon-shell: but not for writing"
is "$(cat "$W/file")" "host-text" "the host file is unchanged"

# What the rule is for: a writable standard descriptor, a file of the
# user's, reopens for writing (bash's >/dev/stderr), and no more.
install -o $U -m 0600 /dev/null "$W/err"
runuser -u $U -- "$SHELL_BIN" -c 'echo to-stderr >/dev/stderr
cat </dev/stderr >/dev/null && echo read-ok >>/dev/stderr || echo read-refused >>/dev/stderr' 2>>"$W/err"
like "$(cat "$W/err")" "to-stderr" "cocoon-shell: >/dev/stderr to a file still works"
like "$(cat "$W/err")" "read-refused" "cocoon-shell: a write-only fd 2 does not reopen for reading"

done_testing
