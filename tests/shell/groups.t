#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The user's supplementary groups: cocoon-shell and `cocoonctl run` leave
# their lookup to the session process (the NSS modules it loads then stay
# out of the process that waits out the session), unless [group] rules
# need them to pick the rule. Either way the session has every group,
# and [group] rules match.
. "$(dirname "$0")/../lib.sh"
trap 'policy_reset; cleanup_users' EXIT

add_user ccgrp1$T
add_group ccgrpa$T
usermod -aG ccgrpa$T ccgrp1$T
gid_a=$(getent group ccgrpa$T | cut -d: -f3)

# Without [group] rules.
policy_write cocoon.conf <<'CONF'
[default]
profile = default
setenv = CCGRP_RULE default
CONF
run runuser -u ccgrp1$T -- "$SHELL_BIN" -c 'id -G; echo "rule=$CCGRP_RULE"'
is "$RC" 0 "cocoon-shell runs"
like " $(echo "$OUT" | head -1) " " $gid_a " "cocoon-shell's session has the supplementary group"
like "$OUT" "rule=default" "the default rule applies"
run "$CTL" run --user ccgrp1$T -- /usr/bin/id -G
is "$RC" 0 "cocoonctl run runs"
like " $OUT " " $gid_a " "cocoonctl run's session has the supplementary group"

# Without a pid namespace the session process starts in the new network
# namespace: the caller looks the groups up (a source on the network would
# be out of reach there).
policy_write cocoon.conf <<'CONF'
[profile nopid]
ro-bind = /usr
symlink = usr/bin /bin
symlink = usr/lib /lib
symlink = usr/lib64 /lib64
unshare = net ipc uts
[default]
profile = nopid
CONF
run "$CTL" run --user ccgrp1$T -- /usr/bin/id -G
is "$RC" 0 "a plan without a pid namespace runs"
like " $OUT " " $gid_a " "and its session has the supplementary group"

# With a [group] rule: looked up before the rule is picked.
policy_write cocoon.conf <<CONF
[group ccgrpa$T]
profile = default
setenv = CCGRP_RULE group
[default]
profile = default
setenv = CCGRP_RULE default
CONF
run runuser -u ccgrp1$T -- "$SHELL_BIN" -c 'id -G; echo "rule=$CCGRP_RULE"'
like "$OUT" "rule=group" "a [group] rule matches through cocoon-shell"
like " $(echo "$OUT" | head -1) " " $gid_a " "with the supplementary group"
run "$CTL" run --user ccgrp1$T -- /bin/sh -c 'echo "rule=$CCGRP_RULE"'
like "$OUT" "rule=group" "a [group] rule matches through cocoonctl run"

# Where the modules load: with a group source besides files in
# nsswitch.conf (systemd here), the waiting cocoonctl maps it only when
# [group] rules made it look the groups up itself (the control).
nss_modules() { # PID: the NSS modules mapped by the process
	grep -o 'libnss_[a-z]*' "/proc/$1/maps" 2>/dev/null | grep -v libnss_files | sort -u | tr '\n' ' '
}
modules_while_running() { # the modules the session's cocoonctl maps
	"$CTL" run --user ccgrp1$T -- /bin/sleep 3 &
	local pid=$! m="" i
	for i in $(seq 30); do
		m=$(nss_modules "$pid")
		[ -n "$(pgrep -P "$pid")" ] && break
		sleep 0.1
	done
	m=$(nss_modules "$pid")
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$m"
}
if grep -Eq '^group:.*[[:space:]](systemd|sss|ldap|winbind)' /etc/nsswitch.conf; then
	with_rules=$(modules_while_running)
	ok $([ -n "$with_rules" ]; echo $?) "control: with [group] rules the waiting cocoonctl maps $with_rules"
	policy_write cocoon.conf <<'CONF'
[default]
profile = default
CONF
	without=$(modules_while_running)
	is "$without" "" "without [group] rules it maps no group module"
else
	ok 0 "# SKIP nsswitch.conf lists only files for group"
	ok 0 "# SKIP nsswitch.conf lists only files for group"
fi
done_testing
