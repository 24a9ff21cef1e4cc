#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: open a sandboxed shell on the embedded default policy as a
# throwaway user (root is never sandboxed), then remove the user.
set -u
root=${1:?usage: demo-session.sh INSTALL-ROOT}
user=cocoon-demo
ctl=$root/usr/sbin/cocoonctl

if [ "$(id -u)" -ne 0 ]; then
	echo "make demo: run it as root (it creates the user $user)" >&2
	exit 1
fi
# No policy file in the demo tree: the embedded default applies.
rm -f "$root/etc/cocoon/cocoon.conf"
"$ctl" check || exit 1

created=
if ! id "$user" >/dev/null 2>&1; then
	useradd -m -s /bin/bash -c "cocoon demo (make demo)" "$user" || exit 1
	created=yes
fi
cleanup() {
	if [ -n "$created" ]; then
		pkill -KILL -u "$user" >/dev/null 2>&1
		userdel -r "$user" >/dev/null 2>&1
	fi
}
trap cleanup EXIT

"$ctl" explain "$user" | sed -n '1,/^filesystem:/p'
cat <<MSG

Opening a shell as $user inside its sandbox. Look around: findmnt,
ps ax, ls /, touch /usr/x (read-only), hostname. Leave with exit.

MSG
"$ctl" run --user "$user" -- /bin/bash -l
echo "the sandboxed shell exited with status $?; removing $user"
# The demo worked whatever the shell's last command returned.
exit 0
