#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A failure injected at each step of a chrooted su's pam_cocoon session
# (the fault-injection build, as inject.t): the session is refused, and
# the service is left in its chroot, never at the root around it where
# it goes to make its namespace to come back to ("return namespace",
# picked by name).
# A pam_exec open hook after pam_cocoon's line, which PAM runs whether or
# not the session opened, reads the home it sees as root. The controls:
# past the last step the session runs, and the hook run on the host reads
# the host's home.
ORDINARY_ROOT=$COCOON_ROOT
COCOON_ROOT=$COCOON_ROOT/fault
. "$(dirname "$0")/../lib.sh"
trap 'cleanup_users; policy_reset; chroot_cleanup' EXIT
[ -x "$CTL" ] || { echo "1..0 # skip no fault-injection build (make check-build-fault)"; exit 0; }

U=chrf1$T
add_user $U || bail_out "useradd $U"
echo host > /home/$U/HOSTHOME
policy_reset
# su's file is the host's: copied while no other copy of the suite has
# it changed.
pam_services_lock
chroot_prepare $U || bail_out "preparing the chroot"
W=$CHROOT_DIR
printf '#!/bin/sh\nls /home/%s > %s/open.out\n' "$U" "$W" > "$W/hook.sh"
chmod 0755 "$W/hook.sh"
{
	printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
	grep -v pam_cocoon /etc/pam.d/su
	printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
	printf 'session optional pam_exec.so type=open_session %s/hook.sh\n' "$W"
} > "$W/etc/pam.d/su"
host_unlock pam-services

step=0 failures=0 bad=""
while [ "$step" -lt 80 ]; do
	step=$((step + 1))
	rm -f "$W/open.out"
	COCOON_FAULT=$step in_chroot bind su - $U -c true >/dev/null 2>&1
	rc=$?
	seen=$(cat "$W/open.out" 2>/dev/null)
	[ "$rc" -eq 0 ] && break
	failures=$((failures + 1))
	[ "$seen" = CHROOTHOME ] || bad="$bad step $step: the service saw '$seen';"
done
ok $([ "$failures" -ge 5 ]; echo $?) "a fault at each of $failures steps refused the chrooted su"
is "$bad" "" "and each left the service in its chroot"
is "$rc" 0 "control: past the last step ($step) the session runs"
# The service's own steps after its children's, by name: numbered, the
# children's steps of the same numbers fail first.
for name in "return namespace" "setns"; do
	rm -f "$W/open.out"
	COCOON_FAULT=$name in_chroot bind su - $U -c true >/dev/null 2>&1
	ok $([ $? -ne 0 ]; echo $?) "a fault at '$name' refuses the chrooted su"
	is "$(cat "$W/open.out" 2>/dev/null)" CHROOTHOME "and leaves the service in its chroot"
done
sh "$W/hook.sh"
is "$(cat "$W/open.out")" HOSTHOME "control: the hook run on the host reads the host's home"
rm -f "$W/hook.sh" "$W/open.out"
wait_gone $U
is "$?" 0 "nothing of the user's is left"

done_testing
