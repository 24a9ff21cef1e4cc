#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A directory account served by SSSD (its LDAP provider against a private
# slapd), confined by a [group] rule on its directory group, in the three
# ways in: pam_cocoon through a real sshd, cocoon-shell, cocoonctl run.
# Inside, names resolve through sssd's socket and memory cache (the
# directories /var/lib/sss/pipes and /var/lib/sss/mc, read-only, nothing
# else of /var/lib/sss), also after sssd restarts under a running session;
# sssd stopped, the login is refused, never let in unconfined; slapd
# stopped, sssd's cache keeps the account and its confinement.
# In a mount namespace of its own: `sss` goes into this namespace's
# nsswitch.conf only, so stopping sssd mid-test refuses no other login.
[ -n "${COCOON_DIRECTORY_NS:-}" ] ||
	exec unshare -m --propagation private env COCOON_DIRECTORY_NS=1 "$0" "$@"
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-sssd.sh"
trap 'sshd_cleanup; sssd_cleanup; policy_reset; cleanup_users' EXIT

command -v sssd >/dev/null && command -v slapd >/dev/null ||
	{ echo "1..0 # SKIP sssd or slapd is not installed (make deps)"; exit 0; }
sssd_hold || { echo "1..0 # SKIP another sssd runs here: /var/lib/sss/pipes is its"; exit 0; }
slapd_setup "$SSSD_PORTS" || bail_out "slapd did not start"
U=ccsd1$T G=ccsdg$T P=ccsdp$T
ids=$(ldap_free_ids 2) || bail_out "no free ids"
uid=$ids gid_g=$((ids + 1))
ldap_group "$P" "$uid" || bail_out "ldapadd"
ldap_group "$G" "$gid_g" "$U" || bail_out "ldapadd"
ldap_user "$U" "$uid" "$uid" /bin/bash || bail_out "ldapadd"
sssd_nsswitch || bail_out "nsswitch.conf"
sssd_start "$G" || bail_out "sssd did not answer"

# Confined by the directory group; everyone else is not: the case where
# a lost group list would let the user in unconfined.
policy_reset
policy_write cocoon.conf <<CONF
[group $G]
profile = default
[default]
sandbox = none
CONF
guest_sshd_start || bail_out "sshd did not start"
sshd_allow "$U"
echo owned > "/home/$U/owned"
chown "$U:$G" "/home/$U/owned"

# What a session says of itself: confined, names, groups, the file's
# owner names, which of /var/lib/sss it sees and how it is mounted.
PROBE="cat /proc/1/comm; id; groups; getent passwd $U | cut -d: -f1,3,6;
getent group $G | cut -d: -f1,3; grep ^Groups: /proc/self/status | tr -s '\t ' ' ';
ls -l ~/owned | awk '{ print \$3, \$4 }'; echo sss: \$(ls /var/lib/sss);
awk '\$5 ~ \"^/var/lib/sss\" { split(\$6, o, \",\"); print \$5, o[1] }' /proc/self/mountinfo"
WANT="cocoon-init
uid=$uid($U) gid=$uid($P) groups=$uid($P),$gid_g($G)
$P $G
$U:$uid:/home/$U
$G:$gid_g
Groups: $uid $gid_g 
$U $G
sss: mc pipes
/var/lib/sss/pipes ro
/var/lib/sss/mc ro"
# Groups: the kernel lists them sorted, with a trailing space.
check_session() { # MODE OUTPUT
	is "$2" "$WANT" "$1: confined; id, groups, getent, Groups:, ls -l by name; only pipes and mc, read-only"
}

run ssh_as "$U" "$PROBE"
check_session "pam_cocoon through sshd" "$OUT"
run runuser -u "$U" -- "$SHELL_BIN" -c "$PROBE"
check_session "cocoon-shell" "$OUT"
run "$CTL" run --user "$U" -- /bin/bash -c "$PROBE"
check_session "cocoonctl run" "$OUT"

run ssh_as "$U" 'test -e /var/lib/sss/db || test -e /var/lib/sss/secrets || echo hidden;
	touch /var/lib/sss/pipes/x 2>&1; touch /var/lib/sss/mc/x 2>&1; true'
like "$OUT" "hidden" "sssd's db/ and secrets/ are not in the session"
like "$OUT" "/var/lib/sss/pipes/x': Read-only file system" "pipes/ is read-only"
like "$OUT" "/var/lib/sss/mc/x': Read-only file system" "mc/ is read-only (root's 0775 on the host)"

# A login on a pty: sshd records it in lastlog and utmp, as root inside
# the session, and needs the account's name there.
run ssh_as "$U" -tt 'echo pty-login'
like "$OUT" "pty-login" "a pty login runs"
run cat "$SSHD_DIR/sshd.log"
unlike "$OUT" "login_get_lastlog" "sshd finds the account for lastlog (no fatal)"
unlike "$OUT" "Cannot find account" "nor any other lookup of it fails"

# sssd restarted under a running session: its sockets and memory-cache
# files are new files, which the bound directories show.
ssh_bg "$SSHD_DIR/restart.out" "$U" "echo up; while [ ! -e ~/go ]; do sleep 0.2; done;
	id; getent group $G | cut -d: -f1,3"
for i in $(seq 100); do grep -q up "$SSHD_DIR/restart.out" 2>/dev/null && break; sleep 0.1; done
sssd_stop
ok $? "sssd stopped by its pid"
sssd_start "$G"
ok $? "sssd started again: new socket and memory-cache files"
sleep 3 # past memcache_timeout: what the session had mapped has expired
touch "/home/$U/go"
wait "$CLIENT"
is "$(cat "$SSHD_DIR/restart.out")" "up
uid=$uid($U) gid=$uid($P) groups=$uid($P),$gid_g($G)
$G:$gid_g" "names resolve in the session that ran across the restart"
rm -f "/home/$U/go"

# slapd stopped: sssd goes offline and answers from its cache; the
# account keeps its directory group, so its rule and confinement.
slapd_stop
sleep 3
run ssh_as "$U" 'cat /proc/1/comm; id -G'
is "$OUT" "cocoon-init
$uid $gid_g" "slapd down: sssd's cache answers, the login is confined with its group"

# sssd stopped: its socket refuses and the memory cache has expired.
sssd_stop
sleep 3
run getent passwd "$U"
is "$RC" 2 "control: sssd stopped, the host cannot look the account up (socket refused)"
run ssh_as "$U" 'echo unconfined-login; cat /proc/1/comm'
unlike "$OUT" "unconfined-login" "sssd stopped: no ssh login"
run runuser -u "$U" -- "$SHELL_BIN" -c 'echo unconfined-login'
unlike "$OUT" "unconfined-login" "sssd stopped: no cocoon-shell session"
[ "$RC" -ne 0 ]; ok $? "and a failure status ($RC)"
run "$CTL" run --user "$U" -- /bin/echo unconfined-login
unlike "$OUT" "unconfined-login" "sssd stopped: cocoonctl run refuses"
[ "$RC" -ne 0 ]; ok $? "with a failure status ($RC)"
like "$OUT" "could not be asked (sss: Connection refused)" \
	"and says the directory could not be asked, not that the user is unknown"
done_testing
