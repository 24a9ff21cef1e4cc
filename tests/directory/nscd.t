#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nscd in front of nslcd: directory accounts stu3$T (PAM mode, cocoonctl
# run) and stu4$T (shell mode) from slapd, the embedded default profile
# for [group students$T]. The host's lookups fill nscd's cache, then
# nslcd is stopped (by its pid): whatever resolves in a session after
# that came through nscd's socket. The session must see the names, keep
# the directory group, let sshd write lastlog and utmp, reach ssh out,
# and see nothing of /run/nscd but its socket, read-only. Runs only where
# no other nscd does (its socket, /run/nscd/socket, is fixed).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-directory.sh"
U=stu3$T
S=stu4$T
G=students$T
DIR_DAEMON=nscd
trap dir_test_cleanup EXIT
trap 'exit 1' INT TERM HUP

directory_setup || bail_out "slapd did not start"
dir_students "$U" "$S" "$G" || bail_out "the directory's entries"
nslcd_start || bail_out "nslcd did not start"
nsswitch_use "passwd: files ldap" "group: files ldap" || bail_out "nsswitch.conf"
nscd_start
case $? in
0) ;;
2) echo "1..0 # SKIP another nscd runs on this host (its socket /run/nscd/socket is fixed)"; exit 0 ;;
*) bail_out "nscd did not start" ;;
esac

policy_reset
printf '[group %s]\nprofile = default\nsetenv = CC_RULE %s\n[default]\nsandbox = none\n' "$G" "$G" |
	policy_write cocoon.conf
dir_sshd_start "$S" || bail_out "the test sshd did not start"
sshd_allow "$U"
sshd_allow "$S"

dir_through_sshd "default" "$U" "$S" "$G" ssh-out
run "$CTL" run --user "$U" -- /bin/bash -c "$DIR_PROBE" probe "$U" "$G" \
	"$(base64 -w0 "$SSHD_DIR/client_key")" "$SSHD_PORT"
dir_probe_check "default, cocoonctl run" "$U" "$G" "$OUT" ssh-out

# The cache filled by the host's lookups, then a session that waits for
# nslcd to stop before it looks anything up: what it resolves then came
# through nscd's socket. (The login itself needs nslcd: cocoon reads the
# group list from the sources nsswitch.conf names, not from nscd's cache,
# and refuses a login whose list it cannot read.)
for u in "$U" "$S"; do
	getent passwd "$u" "$(dir_uid "$u")" > /dev/null
	id "$u" > /dev/null
done
getent group "$G" "$(dir_gid "$G")" > /dev/null
rm -f "/home/$U/go"
"$CTL" run --user "$U" -- /bin/bash -c 'while [ ! -e ~/go ]; do sleep 0.1; done
	getent passwd "$1"; id -Gn' sh "$U" > "$SSHD_DIR/late.out" 2>&1 &
late=$!
# Until the session runs (its loop's sleep): a busy host takes seconds to
# start it, and one that starts after nslcd stopped is refused.
for i in $(seq 600); do
	pgrep -u "$(dir_uid "$U")" -x sleep > /dev/null && break
	sleep 0.1
done
pgrep -u "$(dir_uid "$U")" -x sleep > /dev/null || echo "# the session had not started after 60 s"
nslcd_stop
run getent passwd "$U"
like "$OUT" ":$(dir_uid "$U"):$(dir_uid "$U"):" "with nslcd stopped, the host still resolves $U (through nscd)"
# The control: with /run/nscd hidden too (a private mount namespace), no
# source answers for a directory account any more.
run unshare -m --propagation private sh -c 'mount -t tmpfs none /run/nscd && getent passwd "$1"' sh "$U"
is "$RC" 2 "control: without nscd's socket, $U does not resolve"
touch "/home/$U/go"
wait "$late"
OUT=$(cat "$SSHD_DIR/late.out")
like "$OUT" "$U:" "nslcd stopped: the session resolves $U through nscd"
like " $(echo $OUT) " " $G " "and names its directory group"

done_testing
