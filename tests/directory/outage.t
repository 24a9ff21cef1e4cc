#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A directory outage never unconfines. Local accounts ccout1$T (PAM mode)
# and ccout2$T (shell mode: cocoon-shell as its login shell, which the
# test sshd's pam_cocoon exempts) are members of students$T, a group only
# the directory has (slapd, through nslcd). The policy confines
# [group students$T] and leaves [default] unconfined (sandbox = none):
# the layout cocoon.conf(5) warns about. slapd is stopped by its pid in
# the middle of the test while nslcd keeps running:
# - the control: the host's getgrouplist (`id`) loses students$T without
#   an error, so a rule matched by group membership alone would not
#   match, and [default] would let the user in unconfined;
# - every mode (sshd with pam_cocoon, cocoon-shell through sshd,
#   cocoonctl run) refuses the login, naming the source;
# - cocoonctl explain and check tell a name the directory does not have
#   (asked while it runs) from one it could not be asked about.
# slapd started again, the logins are confined again.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-directory.sh"
U=ccout1$T     # PAM mode and cocoonctl run
S=ccout2$T     # shell mode
D=stu9$T       # a directory account, for explain
G=students$T
trap dir_test_cleanup EXIT
trap 'exit 1' INT TERM HUP

directory_setup || bail_out "slapd did not start"
add_user "$U" && add_user "$S" -s "$SHELL_BIN" || bail_out "useradd"
dir_user "$D" && dir_group "$D" && dir_group "$G" "$U" "$S" "$D" || bail_out "the directory's entries"
nslcd_start || bail_out "nslcd did not start"
nsswitch_use "passwd: files ldap" "group: files ldap" "shadow: files ldap" || bail_out "nsswitch.conf"
gid=$(dir_gid "$G")

policy_reset
# nogroup$T: a group nobody has, for check's answer about an unknown one.
printf '[group %s]\nprofile = default\n[group %s]\nprofile = default\n[default]\nsandbox = none\n' \
	"$G" "nogroup$T" | policy_write cocoon.conf
dir_sshd_start "$S" || bail_out "the test sshd did not start"
sshd_allow "$U"
sshd_allow "$S"

# logins WHEN: each mode with the directory WHEN ("up", "up again").
logins_confined() {
	run id -Gn "$U"
	like " $OUT " " $G " "$1: the host's group list of $U has $G"
	run ssh_as "$U" 'cat /proc/1/comm; grep ^Groups: /proc/self/status'
	like "$OUT" "cocoon-init" "$1: PAM mode confines $U by [group $G]"
	like "$OUT" " $gid" "$1: with the directory group in its credentials"
	run ssh_as "$S" 'cat /proc/1/comm'
	is "$OUT" "cocoon-init" "$1: shell mode confines $S"
	run "$CTL" run --user "$U" -- /bin/cat /proc/1/comm
	is "$OUT" "cocoon-init" "$1: cocoonctl run confines $U"
}
logins_confined "directory up"

run "$CTL" explain "nosuch$T"
unknown_rc=$RC
like "$OUT" "unknown user" "directory up: explain of a name nobody has says the user is unknown"
run "$CTL" check
like "$OUT" "'nogroup$T' is not known" "directory up: check says a group nobody has is not known"
unlike "$OUT" "'$G' is not known" "directory up: and knows $G"

# ---- the outage, mid-test
slapd_stop
run ldapsearch -x -H "ldap://127.0.0.1:$SLAPD_PORT/" -b "$SLAPD_BASE" -s base
is "$RC" 255 "slapd is down (ldapsearch cannot contact it)"
ok "$([ -n "$NSLCD_PID" ] && kill -0 "$NSLCD_PID" 2>/dev/null; echo $?)" "nslcd still runs"

# The control: the hole the rule closes.
run id -Gn "$U"
is "$RC" 0 "control: id $U succeeds during the outage"
unlike " $OUT " " $G " "control: and silently drops $G (getgrouplist reports no error)"

run ssh_as "$U" 'echo UNCONFINED; cat /proc/1/comm'
ok "$([ "$RC" -ne 0 ]; echo $?)" "outage: PAM mode refuses $U's login"
unlike "$OUT" "UNCONFINED" "outage: no command of $U ran"
run ssh_as "$S" 'echo UNCONFINED; cat /proc/1/comm'
ok "$([ "$RC" -ne 0 ]; echo $?)" "outage: shell mode refuses $S's login"
unlike "$OUT" "UNCONFINED" "outage: no command of $S ran"
like "$OUT" "refused by the session policy of this host (reference" \
	"outage: cocoon-shell says it was refused (the source is named in the log)"
run "$CTL" run --user "$U" -- /bin/echo UNCONFINED
ok "$([ "$RC" -ne 0 ]; echo $?)" "outage: cocoonctl run refuses $U"
unlike "$OUT" "UNCONFINED" "outage: the command did not run"
unlike "$OUT" "is not sandboxed" "outage: refused for the outage, not as unconfined by [default]"
like "$OUT" "ldap" "outage: and names the source"

# Unknown and unreachable are different answers.
run "$CTL" explain "$D"
unlike "$OUT" "unknown user" "outage: explain of a directory account does not call it unknown"
like "$OUT" "ldap" "outage: it names the source it could not ask"
ok "$([ "$RC" -ne "$unknown_rc" ]; echo $?)" \
	"outage: with an exit status other than an unknown user's ($unknown_rc; got $RC)"
run "$CTL" explain "$U"
like "$OUT" "ldap" "outage: explain of $U says its groups could not be read"
run "$CTL" check
unlike "$OUT" "'$G' is not known" "outage: check does not call [group $G] unknown"
like "$OUT" "ldap" "outage: check says the directory could not be asked"

# ---- the directory back
slapd_start || bail_out "slapd did not start again"
for i in $(seq 50); do
	id -Gn "$U" | grep -qw "$G" && break
	sleep 0.2
done
logins_confined "directory up again"

done_testing
