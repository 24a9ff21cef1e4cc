#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon in a service that runs chrooted (issue 23): su, and an sshd
# started with chroot, get a sandbox built from what the chroot shows (its
# home, its passwd), with cocoon-init as pid 1, no_new_privs and the
# filter, never the tree around the chroot; and the service comes back
# into its chroot for the close hooks. The chroot R is an rbind of / with
# its own /home/chrc1, /etc (a copy: chrc1's passwd entry has another
# GECOS, su's stack has pam_cocoon) and /run, all in private mount
# namespaces: nothing of it reaches the host. A copy of /etc rather than
# binds over its files: the tests running beside this one rewrite
# /etc/passwd by rename, which detaches a mount on it.
. "$(dirname "$0")/../lib.sh"
W=$(mktemp -d /tmp/cocoon-chroot.XXXXXX)
R=$W/root
mkdir "$R"
# Never rm -r: should a mount of R leak to the host, it would be all of /.
trap 'sshd_cleanup; cleanup_users; policy_reset;
	rm -f "$W"/enter.sh "$W"/su.pam "$W"/su-plain.pam "$W"/hook.sh "$W"/close.out
	rm -rf "$W/etc"; rmdir "$R" "$W"' EXIT

add_user chrc1 || bail_out "useradd chrc1"
echo host > /home/chrc1/HOSTHOME
policy_reset
# su's stack without the lines other tests running beside may have added.
grep -v pam_cocoon /etc/pam.d/su > "$W/su-plain.pam"
cp -a /etc "$W/etc"
sed -i 's/^\(chrc1:[^:]*:[^:]*:[^:]*:\)[^:]*:/\1chroot account:/' "$W/etc/passwd"
{
	printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
	printf 'session optional pam_exec.so type=close_session %s/hook.sh\n' "$W"
	cat "$W/su-plain.pam"
	printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
} > "$W/su.pam"
# The close hook runs as root in the service: which home does it see?
printf '#!/bin/sh\nls /home/chrc1 >> %s/close.out\n' "$W" > "$W/hook.sh"
chmod 0755 "$W/hook.sh"

# enter.sh bind|plain cocoon|none CMD...: in the private mount namespace
# unshare made, build R (bind: a mount point of its own, as in the issue;
# plain: a directory) and run CMD chrooted in it; cocoon: su's stack in R
# has pam_cocoon's lines.
cat > "$W/enter.sh" <<EOF
#!/bin/bash
set -e
mount --rbind / "$R"
[ "\$1" = bind ] && mount --bind "$R" "$R"
mount -t tmpfs -o mode=0755 tmpfs "$R/home/chrc1"
echo chroot > "$R/home/chrc1/CHROOTHOME"
chown -R chrc1: "$R/home/chrc1"
mount --bind "$W/etc" "$R/etc"
mount --rbind /dev "$R/dev"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount -t tmpfs -o mode=0755 tmpfs "$R/run"
mkdir -m 0755 "$R/run/sshd"
if [ -n "$COCOON_ROOT" ]; then
	mkdir -p "$R$COCOON_ROOT"
	mount --bind "$COCOON_ROOT" "$R$COCOON_ROOT"
fi
if [ "\$2" = cocoon ]; then
	mount --bind "$W/su.pam" "$R/etc/pam.d/su"
else
	mount --bind "$W/su-plain.pam" "$R/etc/pam.d/su"
fi
shift 2
exec chroot "$R" "\$@"
EOF
chmod 0755 "$W/enter.sh"
in_chroot() { unshare -m --propagation private "$W/enter.sh" "$@"; }

probe='ls ~; getent passwd chrc1 | cut -d: -f5; cat /proc/1/comm; ls /;
grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'

run in_chroot bind none su - chrc1 -c "$probe"
is "$RC" 0 "control: su in the chroot, without pam_cocoon"
like "$OUT" "CHROOTHOME" "control: the chroot's home, not the host's"
like "$OUT" "chroot account" "control: the chroot's passwd"
like "$OUT" "NoNewPrivs:	0" "control: unconfined"

for how in bind plain; do
	: > "$W/close.out"
	run in_chroot "$how" cocoon su - chrc1 -c "$probe"
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
wait_gone chrc1
is "$?" 0 "nothing of the user's is left"

# cocoonctl enter, from the host, into sessions started in the chroot:
# a PAM session (su) and a run-mode one (cocoonctl run). setns puts the
# entering process at the session namespace's root.
session_of() { # session_of WHAT: the id of chrc1's session, once listed
	local i id
	for i in $(seq 100); do
		id=$("$CTL" list 2>/dev/null | awk '$2 == "chrc1" { print $1; exit }')
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}
for how in "su" "cocoonctl run"; do
	if [ "$how" = su ]; then
		in_chroot bind cocoon su chrc1 -c 'sleep 60' >/dev/null 2>&1 &
	else
		in_chroot bind none "$CTL" run --user chrc1 -- sleep 60 >/dev/null 2>&1 &
	fi
	bg=$!
	id=$(session_of) || id=none
	run "$CTL" enter "$id" -- sh -c 'ls ~; cat /proc/1/comm' < /dev/null
	like "$OUT" "CHROOTHOME" "enter into a chrooted $how session lands in its sandbox"
	unlike "$OUT" "HOSTHOME" "not at the host's root"
	"$CTL" stop "$id" >/dev/null 2>&1
	wait "$bg"
	wait_gone chrc1
done

# An sshd started in the chroot, pam_cocoon in its stack (the host's file,
# which R shows).
SSHD_WRAP="unshare -m --propagation private $W/enter.sh bind none" guest_sshd_start ||
	bail_out "a chrooted sshd did not start"
cp "/etc/pam.d/$SSHD_SERVICE" "$W/etc/pam.d/"
sshd_allow chrc1
run ssh_as chrc1 "$probe"
is "$RC" 0 "ssh into the chrooted sshd"
like "$OUT" "CHROOTHOME" "sshd: the sandbox's home is the chroot's"
like "$OUT" "chroot account" "sshd: the chroot's accounts"
like "$OUT" "cocoon-init" "sshd: in the sandbox's pid namespace"
unlike "$OUT" "boot" "sshd: / is the sandbox's"
like "$OUT" "NoNewPrivs:	1" "sshd: with no_new_privs"
like "$OUT" "Seccomp:	2" "sshd: and the filter"
sshd_cleanup
wait_gone chrc1
is "$?" 0 "nothing of the user's is left after ssh"

done_testing
