#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon in a service that runs chrooted (issue 23): su, and an sshd
# started with chroot, get a sandbox built from what the chroot shows (its
# home, its passwd), with cocoon-init as pid 1, no_new_privs and the
# filter, never the tree around the chroot; and the service comes back
# into its chroot for the close hooks. The chroot is lib.sh's: an rbind
# of / with its own /home/chrc1$T, /etc (its GECOS differs; su's stack
# is the test's) and /run, in private mount namespaces.
. "$(dirname "$0")/../lib.sh"
trap 'sshd_cleanup; cleanup_users; policy_reset; chroot_cleanup' EXIT

U=chrc1$T
add_user $U || bail_out "useradd $U"
echo host > /home/$U/HOSTHOME
policy_reset
# su's file is the host's: copied while no other copy of the suite has
# it changed.
pam_services_lock
chroot_prepare $U || bail_out "preparing the chroot"
host_unlock pam-services
W=$CHROOT_DIR
cp "$W/etc/pam.d/su" "$W/su-plain.pam"
{
	printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
	printf 'session optional pam_exec.so type=close_session %s/hook.sh\n' "$W"
	cat "$W/su-plain.pam"
	printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
} > "$W/su.pam"
# The close hook runs as root in the service: which home does it see?
printf '#!/bin/sh\nls /home/%s >> %s/close.out\n' "$U" "$W" > "$W/hook.sh"
chmod 0755 "$W/hook.sh"
# su_stack cocoon|none: su's stack in the chroot, with pam_cocoon or not.
su_stack() { if [ "$1" = cocoon ]; then cat "$W/su.pam"; else cat "$W/su-plain.pam"; fi \
	> "$W/etc/pam.d/su"; }

probe="ls ~; getent passwd $U | cut -d: -f5; cat /proc/1/comm; ls /;
grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status"

su_stack none
run in_chroot bind su - $U -c "$probe"
is "$RC" 0 "control: su in the chroot, without pam_cocoon"
like "$OUT" "CHROOTHOME" "control: the chroot's home, not the host's"
like "$OUT" "chroot account" "control: the chroot's passwd"
like "$OUT" "NoNewPrivs:	0" "control: unconfined"

su_stack cocoon
for how in bind plain; do
	: > "$W/close.out"
	run in_chroot "$how" su - $U -c "$probe"
	is "$RC" 0 "$how: su - USER in the chroot with pam_cocoon"
	like "$OUT" "CHROOTHOME" "$how: the sandbox's home is the chroot's"
	unlike "$OUT" "HOSTHOME" "$how: not the host's"
	like "$OUT" "chroot account" "$how: the chroot's accounts (its /etc)"
	like "$OUT" "cocoon-init" "$how: in the sandbox's pid namespace"
	unlike "$OUT" "boot" "$how: / is the sandbox's, not the host's"
	like "$OUT" "NoNewPrivs:	1" "$how: with no_new_privs"
	like "$OUT" "Seccomp:	2" "$how: and the filter"
	is "$(cat "$W/close.out")" "CHROOTHOME" "$how: the close hook ran back in the service's chroot"
done
is "$(sh "$W/hook.sh"; tail -n 1 "$W/close.out")" "HOSTHOME" \
	"control: the hook tells the host's root from the chroot's"
wait_gone $U
is "$?" 0 "nothing of the user's is left"

# cocoonctl enter, from the host, into sessions started in the chroot:
# a PAM session (su) and a run-mode one (cocoonctl run). setns puts the
# entering process at the session namespace's root.
session_of() { session_id_of "$U"; }
for how in "su" "cocoonctl run"; do
	if [ "$how" = su ]; then
		in_chroot bind su $U -c 'sleep 60' >/dev/null 2>&1 &
	else
		in_chroot bind "$CTL" run --user $U -- sleep 60 >/dev/null 2>&1 &
	fi
	bg=$!
	id=$(session_of) || id=none
	run "$CTL" enter "$id" -- sh -c 'ls ~; cat /proc/1/comm' < /dev/null
	like "$OUT" "CHROOTHOME" "enter into a chrooted $how session lands in its sandbox"
	unlike "$OUT" "HOSTHOME" "not at the host's root"
	"$CTL" stop "$id" >/dev/null 2>&1
	wait "$bg"
	wait_gone $U
done

# An sshd started in the chroot, pam_cocoon in its stack (the host's file,
# which R shows).
SSHD_WRAP="unshare -m --propagation private $W/enter.sh bind" guest_sshd_start ||
	bail_out "a chrooted sshd did not start"
cp "/etc/pam.d/$SSHD_SERVICE" "$W/etc/pam.d/"
sshd_allow $U
run ssh_as $U "$probe"
is "$RC" 0 "ssh into the chrooted sshd"
like "$OUT" "CHROOTHOME" "sshd: the sandbox's home is the chroot's"
like "$OUT" "chroot account" "sshd: the chroot's accounts"
like "$OUT" "cocoon-init" "sshd: in the sandbox's pid namespace"
unlike "$OUT" "boot" "sshd: / is the sandbox's"
like "$OUT" "NoNewPrivs:	1" "sshd: with no_new_privs"
like "$OUT" "Seccomp:	2" "sshd: and the filter"
sshd_cleanup
wait_gone $U
is "$?" 0 "nothing of the user's is left after ssh"

done_testing
