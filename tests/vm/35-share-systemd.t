#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# share-sandbox through pam_cocoon under systemd and logind (Debian's sshd
# stack): two ssh logins share one sandbox (one pid 1, one /tmp, tmux
# across logins), both stay logind sessions (a holder keeps each
# session-N.scope), the sandbox's processes are in a scope of its own,
# cocoon-ID.scope in user-UID.slice, with the plan's MemoryMax,
# TasksMax and CPUQuota; logind's KillUserProcesses= both ways ends the sessions'
# scopes, never the sandbox's, which ends at the last logout without
# linger and at the linger's end with it. The control: the same without
# share-sandbox gives each login a sandbox of its own.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)

# This file alone (tests/vm/run tests/vm/35-share-systemd.t) installs the
# new build; after 10-package.t it is there.
if ! vm 'dpkg -s libpam-cocoon >/dev/null 2>&1'; then
	vm 'mkdir -p /root/debs/new'
	vm_put "$TOP"/build/deb/{cocoon,libpam-cocoon,cocoon-shell}_"$(cat "$TOP/VERSION")"_*.deb /root/debs/new/
	vm 'apt-get install -y -q /root/debs/new/*.deb >/dev/null 2>&1'
fi
vm '[ -f /root/sshd.pam ] || cp /etc/pam.d/sshd /root/sshd.pam
	cp /root/sshd.pam /etc/pam.d/sshd &&
	sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
	sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd'
vm_user sda
vm_user sdc
uid=$(vm 'id -u sda')
policy() { # policy LINGER: sda shares, sdc (the control) does not
	vm "printf '%s\n' '[profile sh]' 'profile = default' 'share-sandbox = yes' 'linger = $1' \
		'memory-max = 256M' 'pids-max = 300' 'cpu-max = 150%' '[user sda]' 'profile = sh' \
		'[user sdc]' 'profile = default' '[default]' 'sandbox = none' > /etc/cocoon/cocoon.conf &&
		cocoonctl check >/dev/null 2>&1"
}
logind() { # logind yes|no: KillUserProcesses=
	vm "mkdir -p /etc/systemd/logind.conf.d && printf '[Login]\nKillUserProcesses=$1\n' \
		> /etc/systemd/logind.conf.d/cocoon-share-test.conf && systemctl restart systemd-logind"
}
scopes() { vm "systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }'"; }
sessions() { vm "loginctl list-sessions --no-legend | awk '\$3 == \"$1\"' | wc -l"; }
# wait_for COMMAND: until it succeeds in the guest, 60 s at most.
wait_for() { local i; for i in $(seq 120); do vm "$1" >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }
W=$(mktemp -d /tmp/cc-vm-share.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	vm 'rm -f /etc/systemd/logind.conf.d/cocoon-share-test.conf; systemctl restart systemd-logind;
		pkill -KILL -u sda; pkill -KILL -u sdc' >/dev/null 2>&1
}
trap cleanup EXIT
pidns='stat -L -c %i /proc/self/ns/pid'

# --- two logins, one sandbox, two logind sessions
policy no
logind no
# A and B stay logged in until a file in the shared /tmp says otherwise.
hold='while [ ! -e /tmp/share-stop ]; do sleep 0.3; done; echo done'
vm_as sda "$pidns; cat /proc/1/comm; echo from-a > /tmp/share-mark; sleep 4320 & $hold" \
	> "$W/a.out" 2>&1 < /dev/null &
a=$!
wait_for "pgrep -u sda -f share-stop"
vm_as sda "$pidns; $hold" > "$W/b.out" 2>&1 < /dev/null &
b=$!
wait_for "[ \$(pgrep -u sda -f share-stop | wc -l) -ge 2 ]"
P=$(vm_as sda -tt "cat /tmp/share-mark; pgrep -f 'sleep 4320' >/dev/null && echo sees-a;
	grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status | tr -s '\t' ' ';
	tmux new-session -d -s work 'sleep 4321'; echo tmux=\$?" 2>&1 | tr -d '\r')
ns_a=$(head -n 1 "$W/a.out")
ns_b=$(head -n 1 "$W/b.out")
ok $([ -n "$ns_a" ] && [ "$ns_a" = "$ns_b" ]; echo $?) "a second ssh login is in the first one's pid namespace ($ns_a, $ns_b)"
is "$(sed -n 2p "$W/a.out")" "cocoon-init" "whose pid 1 is cocoon-init"
like "$P" "from-a" "a third login sees the first one's /tmp"
like "$P" "sees-a" "and its processes"
like "$P" "Seccomp: 2" "the login that joined runs under the seccomp filter"
like "$P" "NoNewPrivs: 1" "with no_new_privs"
like "$P" "tmux=0" "tmux starts detached in it"
T2=$(vm_as sda -tt "TERM=xterm tmux attach-session -t work \\; detach-client" 2>&1 | tr -d '\r')
like "$T2" "[detached (from session work)]" "and the next login attaches to it, over ssh with a pty"

# While A and B are logged in: their sessions, a holder in each, the
# services and the sandbox's processes in the sandbox's scope.
is "$(sessions sda)" 2 "loginctl lists both logins' sessions"
scope=$(scopes)
is "$(printf '%s\n' "$scope" | grep -c .)" 1 "one cocoon-*.scope for the shared sandbox ($scope)"
run vm "systemctl show -p Slice -p MemoryMax -p TasksMax -p ControlGroup $scope"
like "$OUT" "Slice=user-$uid.slice" "the scope is in the user's slice"
like "$OUT" "MemoryMax=268435456" "with the plan's memory-max"
like "$OUT" "TasksMax=300" "and pids-max"
cg=$(printf '%s\n' "$OUT" | sed -n 's/^ControlGroup=//p')
is "$cg" "/user.slice/user-$uid.slice/$scope" "its cgroup"
run vm "cat /sys/fs/cgroup$cg/memory.max /sys/fs/cgroup$cg/pids.max;
	for p in \$(pgrep -u sda -fx 'sleep 432[01]') \$(pgrep -fx 'sshd: sda \\[priv\\]'); do
		[ \"\$(cat /proc/\$p/comm)\" = cocoon-hold ] || cut -d: -f3 /proc/\$p/cgroup; done | sort | uniq -c | awk '{ print \$1, \$2 }'"
is "$OUT" "268435456
300
4 $cg" "the kernel holds the limits there, where both jobs and both logins' sshd are"
# cpu-max, sent as CPUQuotaPerSecUSec over sd-bus (libsystemd loaded
# when first needed): 150% of a CPU in the default period of 100 ms.
run vm "cat /sys/fs/cgroup$cg/cpu.max"
is "$OUT" "150000 100000" "and the plan's cpu-max, on the scope"
run vm "for p in \$(pgrep -x cocoon-hold); do cut -d: -f3 /proc/\$p/cgroup; done | sort -u |
	grep -c '^/user.slice/user-$uid.slice/session-[0-9]*.scope\$'"
is "$OUT" 2 "a holder keeps each login's session scope, one each"
run vm "loginctl user-status sda --no-pager 2>&1"
like "$OUT" "$scope" "loginctl user-status shows the sandbox's scope"
vm_as sda "touch /tmp/share-stop" >/dev/null 2>&1
wait $a $b
like "$(cat "$W/a.out")" "done" "the first login ends when the shared /tmp says so"
like "$(cat "$W/b.out")" "done" "and the second"
wait_for "! pgrep -u sda >/dev/null"; ok $? "linger = no: the sandbox ends with its last login, tmux and all"
wait_for "[ -z \"\$(systemctl list-units --no-legend 'cocoon-*.scope')\" ]"; ok $? "and systemd drops its scope"
is "$(vm 'pgrep -x cocoon-hold | wc -l')" 0 "no holder is left"
is "$(sessions sda)" 0 "nor any session"

# --- KillUserProcesses both ways: the sessions' scopes end, not the
# sandbox's; without linger it ends at the last logout, with linger at
# its end.
for kill in yes no; do
	logind $kill
	policy no
	vm_as sda "setsid nohup sleep 4322 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
	wait_for "! pgrep -u sda -f 'sleep 4322'"; ok $? "KillUserProcesses=$kill, linger = no: a nohup job ends at logout"
	policy 12s
	vm_as sda "setsid nohup sleep 4323 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
	is "$(vm "pgrep -u sda -f 'sleep 4323' | wc -l")" 1 "KillUserProcesses=$kill, linger = 12s: the nohup job outlives the logout"
	wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sda\"' | wc -l) = 0 ]"
	ok $? "KillUserProcesses=$kill: the user's session is gone"
	run vm "systemctl show -p Slice -p ActiveState \$(systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }')"
	like "$OUT" "ActiveState=active" "KillUserProcesses=$kill: its scope is active"
	like "$OUT" "Slice=user-$uid.slice" "KillUserProcesses=$kill: under user-$uid.slice"
	is "$(vm "systemctl is-active user-$uid.slice")" "active" "KillUserProcesses=$kill: logind leaves the user's slice up"
	wait_for "! pgrep -u sda -f 'sleep 4323'"; ok $? "KillUserProcesses=$kill: the job dies at the linger's end"
	wait_for "[ -z \"\$(systemctl list-units --no-legend 'cocoon-*.scope')\" ]"; ok $? "KillUserProcesses=$kill: and the scope goes"
done

# --- the control: without share-sandbox each login has its own sandbox
logind no
vm_as sdc "$pidns; echo from-c > /tmp/share-mark; sleep 4324" > "$W/c.out" 2>&1 &
c=$!
wait_for "pgrep -u sdc -x sleep"
D=$(vm_as sdc "$pidns; cat /tmp/share-mark 2>&1; pgrep -x sleep >/dev/null && echo sees-c" 2>&1)
ns_c=$(head -n 1 "$W/c.out")
ns_d=$(printf '%s\n' "$D" | head -n 1)
ok $([ -n "$ns_c" ] && [ "$ns_c" != "$ns_d" ]; echo $?) "control: without share-sandbox a second login has a pid namespace of its own"
unlike "$D" "from-c" "control: and a /tmp of its own"
unlike "$D" "sees-c" "control: and does not see the first one's processes"
is "$(scopes | grep -c .)" 0 "control: no cocoon-*.scope"
vm 'pkill -u sdc -x sleep' >/dev/null 2>&1
wait $c
done_testing
