#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Directory accounts inside the session, from a real slapd through nslcd:
# users stu1$T and stu2$T exist only in LDAP (posixAccount, their own
# posixGroup, and students$T's memberUid), and `[group students$T]`
# confines them with the embedded default profile and with each shipped
# profile that confines an ordinary login with the directory in reach
# (conf/examples/*.conf; nslcd-examples.t runs half of them). In each: PAM mode through a test sshd
# (stu1$T, with and without a pty), shell mode (stu2$T's loginShell in
# LDAP is cocoon-shell; the sshd's pam_cocoon exempts it and only cuts its
# environment) and `cocoonctl run`. The session must see the names (id,
# groups, getent, ls -l, git), keep the directory group in its
# credentials, let sshd write lastlog and utmp, reach ssh out, and see
# nothing of /run/nslcd but its socket, read-only.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-directory.sh"
U=stu1$T    # PAM mode and cocoonctl run
S=stu2$T    # shell mode
G=students$T
EXAMPLES=$COCOON_ROOT/usr/share/doc/cocoon/examples
trap dir_test_cleanup EXIT
trap 'exit 1' INT TERM HUP

directory_setup || bail_out "slapd did not start"
dir_students "$U" "$S" "$G" || bail_out "the directory's entries"
nslcd_start || bail_out "nslcd did not start"
nsswitch_use "passwd: files ldap" "group: files ldap" "shadow: files ldap" || bail_out "nsswitch.conf"
run id "$U"
is "$OUT" "uid=$(dir_uid "$U")($U) gid=$(dir_uid "$U")($U) groups=$(dir_uid "$U")($U),$(dir_gid "$G")($G)" \
	"the host resolves the directory user and groups through nslcd"

dir_sshd_start "$S" || bail_out "the test sshd did not start"
sshd_allow "$U"
sshd_allow "$S"
# The host's account stack (common-account) must let a directory user in
# at all: pam_sss there with no sssd running refuses every account that
# is not in /etc/passwd, before any session opens.
ssh_modes=yes
if ! run pamtester "$SSHD_SERVICE" "$U" acct_mgmt || [ "$RC" -ne 0 ]; then
	ssh_modes=""
	printf '# %s\n' "$OUT"
fi

# policy_with PROFILE [FILE]: FILE's profiles (not its rules), the
# directory group's rule with PROFILE, and an unconfined [default], so
# that a rule that does not match shows (rule=none).
policy_with() {
	policy_reset
	{
		[ -n "${2:-}" ] && awk '/^\[/ { keep = ($1 == "[profile") } keep' "$2"
		printf '\n[group %s]\nprofile = %s\nsetenv = CC_RULE %s\n[default]\nsandbox = none\n' \
			"$G" "$1" "$G"
	}  | policy_write cocoon.conf
}

# The embedded default, then every shipped profile that confines an
# ordinary login with the directory in reach: not one with a forced
# command (kiosk: no login shell) nor one with name-services = none
# (bwrap-readme: bubblewrap's view, no daemon's socket). Two files share
# them, to keep each under a minute: this one takes the default and
# guest.conf, nslcd-examples.t (NSLCD_PART=rest) the other examples.
in_profile() { # in_profile FILE PROFILE AWK-CONDITION: a line of the section matches
	awk -v p="[profile $2]" '$0 == p { on = 1; next } /^\[/ { on = 0 }
		on && ('"$3"') { found = 1 } END { exit !found }' "$1"
}
cases=""
[ "${NSLCD_PART:-first}" = first ] && cases="default:"
for f in "$EXAMPLES"/*.conf; do
	# This file's part: guest.conf in the first, the others in the rest.
	[ "${f##*/}" = guest.conf ] && [ "${NSLCD_PART:-first}" = first ] ||
		[ "${f##*/}" != guest.conf ] && [ "${NSLCD_PART:-first}" = rest ] || continue
	for p in $(sed -n 's/^\[profile \(.*\)\]$/\1/p' "$f"); do
		if in_profile "$f" "$p" '$1 == "command"'; then
			echo "# profile $p has a forced command: no login to look at"
		elif in_profile "$f" "$p" '$1 == "name-services" && $3 == "none"'; then
			echo "# profile $p has name-services = none: no directory in its sessions"
		else
			cases="$cases ${p}:$f"
		fi
	done
done

for c in ${DIR_CASES:-$cases}; do
	profile=${c%%:*} file=${c#*:}
	policy_with "$profile" "$file"
	# A profile with a network namespace of its own cannot reach the
	# test sshd on the host's loopback: ssh out is not tried there.
	net=ssh-out
	[ -n "$file" ] && in_profile "$file" "$profile" '$1 == "unshare" && / (net|all)( |$)/' && net=""
	[ -z "$net" ] && echo "# profile $profile unshares net: no ssh out of its sessions"
	if [ -n "$ssh_modes" ]; then
		dir_through_sshd "$profile" "$U" "$S" "$G" "$net"
	else
		skip "$profile through sshd: the host's account stack refuses directory users"
		net=""
	fi
	run "$CTL" run --user "$U" -- /bin/bash -c "$DIR_PROBE" probe "$U" "$G" \
		${net:+"$(base64 -w0 "$SSHD_DIR/client_key")" "$SSHD_PORT"}
	dir_probe_check "$profile, cocoonctl run" "$U" "$G" "$OUT" $net
done

done_testing
