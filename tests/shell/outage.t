#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A name service outage never unconfines (cocoon.conf(5), NAME SERVICE
# OUTAGES). In a private mount namespace, nsswitch.conf lists the test
# source (tests/nss: libnss_cocoontest.so.2, whose answers a file sets)
# after files, and that source holds the group a [group] rule confines,
# with [default] sandbox = none. Up, the member is sandboxed; down
# (UNAVAIL, ECONNREFUSED, as sss with sssd stopped), getgrouplist and
# id drop the group without a word (the hole), and cocoon-shell, pam_cocoon
# (pamtester) and cocoonctl run refuse the login, naming the source. And
# check and explain tell "no such entry" from "could not be asked".
# Nothing of the host's /etc or /usr changes: the namespace binds its
# own nsswitch.conf and lays the module over the library directory.
if [ -z "${COCOON_OUTAGE_NS:-}" ]; then
	exec unshare -m --propagation private env COCOON_OUTAGE_NS=1 "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
: "${COCOON_BUILD:?run through make check (COCOON_BUILD)}"
STATE=$COCOON_BUILD/tests/nss/cocoontest.state
MODULE=$COCOON_BUILD/tests/nss/libnss_cocoontest.so.2
SERVICE=cocoon-test-outage-$T
W=$(mktemp -d /run/cocoon-outage.XXXXXX)
chmod 0755 "$W"
cleanup() {
	syslog_release
	: > "$STATE"
	rm -f "/etc/pam.d/$SERVICE"
	policy_reset; cleanup_users; rm -rf "$W"
}
trap cleanup EXIT
[ -f "$MODULE" ] || bail_out "no $MODULE: make unit builds it"

# The namespace's own nsswitch.conf and library directory.
libdir=$(dirname "$(realpath "$(ldconfig -p | awk '/libnss_files.so.2 .*x86-64/ { print $NF; exit }')")")
mkdir "$W/lib"
cp "$MODULE" "$W/lib/"
printf 'passwd: files cocoontest\ngroup: files cocoontest\nshadow: files\n' > "$W/nsswitch.conf"
mount --bind "$W/nsswitch.conf" /etc/nsswitch.conf &&
	mount -t overlay overlay -o "lowerdir=$W/lib:$libdir" "$libdir" ||
	bail_out "cannot set up the private namespace"
# An nscd of the host (another test's) would answer glibc's lookups from
# the host's nsswitch.conf: out of sight here.
if [ -d /run/nscd ]; then mount -t tmpfs -o mode=0755 tmpfs /run/nscd || bail_out "hiding nscd"; fi

add_user ccout1$T
gid=$((47000 + 0x$T % 2000))
while getent -s files group "$gid" >/dev/null; do gid=$((gid + 1)); done
group=ccoutg$T
up() { printf 'group %s %s ccout1%s\n' "$group" "$gid" "$T" > "$STATE"; }
down() { echo down > "$STATE"; }
up

cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required $PAMDIR/pam_cocoon.so
PAM
have_syslog=yes
syslog_capture "$W/syslog" || have_syslog=""

policy_reset
policy_write cocoon.conf <<CONF
[group $group]
profile = default
setenv = CCOUT_RULE group
[default]
sandbox = none
CONF
host_pidns=$(readlink /proc/self/ns/pid)
probe='echo "rule=${CCOUT_RULE:-none}"; readlink /proc/self/ns/pid'

# The hole, as the control: glibc skips a source it cannot reach.
run id -Gn ccout1$T
like " $OUT " " $group " "up: id lists the directory's group"
down
run id -Gn ccout1$T
is "$RC" 0 "down: id still succeeds"
unlike " $OUT " " $group " "but without the group, silently (the hole)"

# Up: the member is sandboxed in each mode.
up
run runuser -u ccout1$T -- "$SHELL_BIN" -c "$probe"
like "$OUT" "rule=group" "up: cocoon-shell takes the [group] rule"
unlike "$OUT" "$host_pidns" "in a sandbox (a pid namespace of its own)"
run "$CTL" run --user ccout1$T -- /bin/sh -c "$probe"
like "$OUT" "rule=group" "up: cocoonctl run takes the [group] rule"
unlike "$OUT" "$host_pidns" "in a sandbox"
run pamtester "$SERVICE" ccout1$T open_session close_session
is "$RC" 0 "up: pam_cocoon opens the session"
if [ -n "$have_syslog" ]; then
	syslog_wait "$W/syslog" "result=sandboxed"
	like "$(grep "ccout1$T" "$W/syslog")" "result=sandboxed" "sandboxed"
else
	skip "/dev/log is taken: no syslog to read"
fi

# Down: every mode refuses, naming the source and its errno.
why="could not be asked (cocoontest: Connection refused)"
down
run runuser -u ccout1$T -- "$SHELL_BIN" -c "$probe"
isnt_zero=$([ "$RC" -ne 0 ] && echo 0 || echo 1)
ok "$isnt_zero" "down: cocoon-shell refuses the login"
like "$OUT" "refused by the session policy of this host (reference" \
	"and says it was refused, with a reference (the reason is the log's)"
unlike "$OUT" "$why" "not the reason itself"
unlike "$OUT" "rule=" "no shell ran, confined or not"
run "$CTL" run --user ccout1$T -- /bin/sh -c "$probe"
is "$RC" 3 "down: cocoonctl run refuses (exit 3)"
like "$OUT" "$why" "and says why"
unlike "$OUT" "rule=" "nothing ran"
mark=$( [ -n "$have_syslog" ] && wc -l < "$W/syslog" || echo 0)
run pamtester "$SERVICE" ccout1$T open_session close_session
isnt_zero=$([ "$RC" -ne 0 ] && echo 0 || echo 1)
ok "$isnt_zero" "down: pam_cocoon refuses the session"
if [ -n "$have_syslog" ]; then
	syslog_wait "$W/syslog" "$why"
	log=$(tail -n "+$((mark + 1))" "$W/syslog" | grep "ccout1$T")
	like "$log" "$why" "syslog says why"
	like "$log" "result=refused" "an audit record of the refusal"
else
	skip "/dev/log is taken: no syslog to read"
	skip "/dev/log is taken: no syslog to read"
fi

# Without [group] rules the list is still needed (the session's
# credentials, cocoon-shell's setgroups): still refused, even unconfined.
policy_write cocoon.conf <<'CONF'
[default]
sandbox = none
CONF
run runuser -u ccout1$T -- "$SHELL_BIN" -c "$probe"
like "$OUT" "refused by the session policy of this host (reference" \
	"no [group] rule, sandbox = none: cocoon-shell still refuses"
unlike "$OUT" "rule=" "and runs nothing"
run pamtester "$SERVICE" ccout1$T open_session close_session
isnt_zero=$([ "$RC" -ne 0 ] && echo 0 || echo 1)
ok "$isnt_zero" "and so does pam_cocoon"
up
run runuser -u ccout1$T -- "$SHELL_BIN" -c "$probe"
like "$OUT" "rule=none" "up again: the unconfined login goes on"

# check and explain: "no such entry" is not "could not be asked".
policy_write cocoon.conf <<CONF
[user ccnosuch$T]
profile = default
[group $group]
profile = default
[default]
sandbox = none
CONF
run "$CTL" explain ccnosuch$T
is "$RC" 1 "up: explain of an unknown user exits 1"
like "$OUT" "unknown user 'ccnosuch$T'" "and says it is unknown"
run "$CTL" check
is "$RC" 0 "up: check exits 0"
like "$OUT" "user 'ccnosuch$T' is not known to NSS" "warning of the unknown user"
unlike "$OUT" "group '$group' is not known" "the directory's group is known"
down
run "$CTL" explain ccnosuch$T
is "$RC" 3 "down: explain of the same name exits 3"
like "$OUT" "the account database $why" "and says the account database could not be asked"
unlike "$OUT" "unknown user" "never 'unknown user'"
run "$CTL" explain ccout1$T
is "$RC" 3 "down: explain of a files user whose groups cannot be read exits 3"
like "$OUT" "the group database $why" "and says so"
run "$CTL" check
is "$RC" 3 "down: check exits 3"
like "$OUT" "user 'ccnosuch$T': the account database $why" \
	"and says the names could not be checked"
unlike "$OUT" "not known to NSS" "never 'not known'"
up

done_testing
