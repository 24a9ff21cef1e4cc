#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon under valgrind, driven by pamtester: no invalid access and no
# definite leak in the service's process. Valgrind 3.19 (Debian 12) has
# no pidfd_open (nor seccomp), so a sandbox cannot be built under it: the
# paths covered are those that read and resolve the policy and then let
# the session through or refuse it.
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-vg-$T
if ! command -v valgrind >/dev/null || ! command -v pamtester >/dev/null; then
	echo "1..0 # skip valgrind and pamtester are needed"
	exit 0
fi
cleanup() {
	rm -f "/etc/pam.d/$SERVICE" "/etc/pam.d/$SERVICE-ret"
	policy_reset; cleanup_users
}
trap cleanup EXIT

add_user ccvg1$T
add_user ccvg2$T
policy_reset
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so exempt=ccvg2$T
session optional pam_permit.so
PAM

# vg NAME USER EXPECTED-STATUS: open and close USER's session under valgrind.
vg() {
	run valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite pamtester "$SERVICE" "$2" \
		open_session close_session
	is "$RC" "$3" "$1: status $3 under valgrind"
	unlike "$OUT" "==[0-9]*==" "$1: valgrind reports nothing"
}

vg "root, not sandboxed" root 0
printf '[default]\nservice = sshd\nprofile = default\n' | policy_write cocoon.conf
vg "a user no rule covers" ccvg1$T 0
printf '[default]\nprofile = nosuch\n' | policy_write cocoon.conf
vg "a broken policy" ccvg1$T 1
vg "an exempt user, broken policy" ccvg2$T 0

# The return line first: it reads the stack and asks the front door.
{
	echo "session required $PAMDIR/pam_cocoon.so return"
	cat "/etc/pam.d/$SERVICE"
} > "/etc/pam.d/$SERVICE-ret"
SERVICE=$SERVICE-ret vg "a broken policy, refused at the return line" ccvg1$T 1
SERVICE=$SERVICE-ret vg "an exempt user, with the return line" ccvg2$T 0
printf '[default]\nservice = sshd\nprofile = default\n' | policy_write cocoon.conf
SERVICE=$SERVICE-ret vg "a user no rule covers, with the return line" ccvg1$T 0

done_testing
