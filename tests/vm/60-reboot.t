#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A reboot with sessions open, one of each mode: nothing of them is left
# afterwards (records, cgroups, mounts, processes) but what cocoon.conf(5)
# says is kept: a persistent private /tmp, across the user's logins.
. "$(dirname "$0")/../lib.sh" vm

vm 'cp /root/sshd.pam /etc/pam.d/sshd &&
	sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
	sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd
install -d -m 0755 /etc/cocoon && cat > /etc/cocoon/cocoon.conf <<EOF
[user ccr]
profile = default
private-tmp = persistent
[user ccrs]
service = shell
profile = default
pids-max = 100
[default]
sandbox = none
EOF'
vm_user ccr
vm_user ccrs -s /usr/bin/cocoon-shell
uid=$(vm 'id -u ccr')
run vm_as ccr 'echo kept > /tmp/keep; cat /tmp/keep'
is "$OUT" "kept" "a persistent private /tmp takes a file"
vm_as ccr 'sleep 600' >/dev/null 2>&1 &
vm_as ccrs 'sleep 600' >/dev/null 2>&1 &
for i in $(seq 60); do [ "$(vm 'pgrep -x sleep | wc -l')" -ge 2 ] && break; sleep 0.5; done
run vm 'cocoonctl list | tail -n +2 | wc -l; find /sys/fs/cgroup/cocoon -mindepth 1 -maxdepth 1 -type d | wc -l'
is "$OUT" "2
1" "two sessions are recorded, the cocoon-shell one with a cgroup of its own"

vm_reboot
ok $? "the guest reboots with the sessions open"
wait
run vm 'cocoonctl list | tail -n +2 | wc -l; ls -A /run/cocoon 2>/dev/null | wc -l;
	ls /sys/fs/cgroup/cocoon 2>/dev/null | wc -l; grep -c cocoon /proc/self/mountinfo;
	pgrep -u ccr,ccrs -x sleep | wc -l'
is "$OUT" "0
0
0
0
0" "afterwards: no record, no cgroup, no mount, no process of them"
run vm "cat /var/lib/cocoon/private-tmp/$uid/tmp/keep"
is "$OUT" "kept" "the persistent private /tmp is kept, as documented"
run vm_as ccr 'cat /tmp/keep; cat /proc/1/comm'
is "$OUT" "kept
cocoon-init" "and the next login finds it, in a new sandbox"
done_testing
