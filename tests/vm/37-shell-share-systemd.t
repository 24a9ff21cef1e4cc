#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon-shell's shared sandbox under systemd and logind: without limits
# in the plan, it is still a scope of its own, cocoon-ID.scope in the
# user's slice, as a PAM login's is, and not the first login's session
# scope. So logind's KillUserProcesses=yes, which ends a session's scope
# at its logout, ends the first login and not the sandbox: the second
# login and its jobs go on, and the sandbox ends with its last login. A
# login that joins with a pty has every wall and its own named terminal.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)

# This file alone installs the new build; after 10-package.t it is there.
if ! vm 'dpkg -s cocoon-shell >/dev/null 2>&1'; then
	vm 'mkdir -p /root/debs/new'
	vm_put "$TOP"/build/deb/{cocoon,libpam-cocoon,cocoon-shell}_"$(cat "$TOP/VERSION")"_*.deb /root/debs/new/
	vm 'apt-get install -y -q /root/debs/new/*.deb >/dev/null 2>&1'
fi
vm 'cp /etc/cocoon/cocoon.conf /root/shell-share.conf'
vm "printf '%s\n' '[profile sh]' 'profile = default' 'share-sandbox = yes' \
	'[user ssa]' 'service = shell' 'profile = sh' '[default]' 'sandbox = none' \
	> /etc/cocoon/cocoon.conf && cocoonctl check >/dev/null 2>&1"
vm_user ssa -s /usr/bin/cocoon-shell
uid=$(vm 'id -u ssa')
vm 'mkdir -p /etc/systemd/logind.conf.d &&
	printf "[Login]\nKillUserProcesses=yes\n" > /etc/systemd/logind.conf.d/cocoon-shell-share-test.conf &&
	systemctl restart systemd-logind'
# The test's own: cocoon-*.scope units in ssa's slice.
scopes() { vm "for u in \$(systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }'); do
	[ \"\$(systemctl show -P Slice \$u)\" = user-$uid.slice ] && echo \$u; done"; }
sessions() { vm "loginctl list-sessions --no-legend | awk '\$3 == \"ssa\"' | wc -l"; }
W=$(mktemp -d /tmp/cc-vm-shell-share.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	vm 'rm -f /etc/systemd/logind.conf.d/cocoon-shell-share-test.conf; systemctl restart systemd-logind
		pkill -KILL -u ssa; userdel -r ssa
		cp /root/shell-share.conf /etc/cocoon/cocoon.conf && rm -f /root/shell-share.conf' >/dev/null 2>&1
}
trap cleanup EXIT
pidns='stat -L -c %i /proc/self/ns/pid'
hold='while [ ! -e /tmp/share-stop ]; do sleep 0.3; done; echo done'

vm_as ssa "$pidns; while [ ! -e /tmp/a-stop ]; do sleep 0.3; done; echo a-done" \
	> "$W/a.out" 2>&1 < /dev/null &
a=$!
vm_wait_for "pgrep -u ssa -f a-stop"
vm_as ssa "$pidns; sleep 4330 & $hold" > "$W/b.out" 2>&1 < /dev/null &
b=$!
vm_wait_for "pgrep -u ssa -f share-stop"
wait_output "$W/a.out"; wait_output "$W/b.out"
is "$(head -n 1 "$W/a.out")" "$(head -n 1 "$W/b.out")" "two cocoon-shell logins share one pid namespace"
is "$(sessions)" 2 "each a logind session"
scope=$(scopes)
is "$(printf '%s\n' "$scope" | grep -c .)" 1 "one cocoon-*.scope, for the shared sandbox ($scope)"
run vm "systemctl show -p Slice $scope"
is "$OUT" "Slice=user-$uid.slice" "in the user's slice"
vm_wait_for "pgrep -u ssa -fx 'sleep 4330'"
run vm "for p in \$(pgrep -u ssa -fx 'sleep 4330') \$(pgrep -u ssa -f '(share|a)-stop'); do
	cut -d: -f3 /proc/\$p/cgroup; done | sort | uniq -c | awk '{ print \$1, \$2 }'"
is "$OUT" "3 /user.slice/user-$uid.slice/$scope" "both logins' programs are in it"
# A third login, with a pty, joins: every wall of a new login, and its
# terminal (the host's pty) named in the sandbox's /dev as its own.
P=$(vm_tty_login ssa)
is "$(printf '%s\n' "$P" | head -n 1)" "$(head -n 1 "$W/a.out")" "a third login, over ssh -tt, joins the sandbox"
like "$P" "CapEff: 0000000000000000" "with no effective capability"
like "$P" "NoNewPrivs: 1" "no_new_privs"
like "$P" "Seccomp: 2" "and the seccomp filter"
like_re "$P" "^tty=/dev/console-[0-9a-f]{16}$" "tty(1) names its terminal, /dev/console-ID"
tty_nr=$(printf '%s\n' "$P" | sed -n 's/^tty_nr=//p')
ok $([ -n "$tty_nr" ] && [ "$tty_nr" != 0 ]; echo $?) "its shell's controlling terminal (tty_nr $tty_nr)"
is "$(vm_as ssa 'ls /dev | grep -c "^console-"' 2>&1 < /dev/null)" 0 "the name goes with that login"
# A's logout: logind kills A's session scope, everything in it.
vm_as ssa 'touch /tmp/a-stop' >/dev/null 2>&1 < /dev/null
wait "$a"
like "$(cat "$W/a.out")" "a-done" "the first login logs out"
vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"ssa\"' | wc -l) -eq 1 ]"
ok $? "after the first login's logout one session is left"
sleep 2
run vm "pgrep -u ssa -fx 'sleep 4330' >/dev/null && echo job; pgrep -u ssa -f 'share-stop' | wc -l"
is "$OUT" "job
1" "KillUserProcesses=yes ended the first login, not the sandbox: the second and its job live"
vm_as ssa 'touch /tmp/share-stop' >/dev/null 2>&1 < /dev/null
wait "$b"
like "$(cat "$W/b.out")" "done" "the second login saw the shared /tmp to the end"
vm_wait_for "! pgrep -u ssa >/dev/null"; ok $? "the sandbox ends with its last login (linger = no)"
for _ in $(seq 60); do [ -z "$(scopes)" ] && break; sleep 0.5; done
is "$(scopes)" "" "and systemd drops its scope"
done_testing
