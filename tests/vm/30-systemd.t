#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon and systemd on a real host: the user's systemd manager
# (user@.service, outside every sandbox) out of the session's reach unless
# the policy binds its sockets; logind's KillUserProcesses either way;
# where the session's processes are in the cgroup v2 tree, and
# memory-max, pids-max and cpu-max enforced there, through pam_cocoon and
# through cocoon-shell; a lingering user.
. "$(dirname "$0")/../lib.sh" vm

vm 'cp /root/sshd.pam /etc/pam.d/sshd &&
	sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
	sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd'
vm_user ccd
vm_user cce -s /usr/bin/cocoon-shell
policy() { # policy PROFILE-LINES: ccd through PAM, cce through cocoon-shell
	vm "cat > /etc/cocoon/cocoon.conf <<EOF
[profile t]
profile = default
$1
[user ccd]
profile = t
[user cce]
service = shell
profile = t
[user ccfree]
sandbox = none
[default]
sandbox = none
EOF
cocoonctl check >/dev/null 2>&1"
}
uid=$(vm 'id -u ccd')

# --- the user's systemd manager
policy ''
vm_user ccfree
run vm_as ccfree 'systemctl --user is-system-running; busctl --user status >/dev/null && echo bus'
like "$OUT" "running" "control: unconfined, the user reaches its systemd manager"
like "$OUT" "bus" "and its session bus"
for u in ccd cce; do
	run vm_as $u 'systemctl --user is-system-running 2>&1; busctl --user status 2>&1;
		systemd-run --user --wait true 2>&1; echo "ls:[$(ls -A /run/user/$(id -u))]"'
	like "$OUT" "Failed to connect to bus" "$u: from a sandboxed session neither is reachable"
	unlike "$OUT" "running" "$u: (no systemctl --user)"
	like "$OUT" "ls:[]" "$u: (/run/user/UID is the sandbox's own, empty)"
done
# A policy may bind them (a desktop session wants the bus): then the
# manager starts what the session asks, on the host. check says so, and
# pam_cocoon refuses it (root's service would read below /run).
policy 'bind = /run/user/%U'
run vm 'cocoonctl check'
like "$OUT" "warning: bind = /run/user/%U shows the session the sockets of the user's systemd manager" \
	"binding /run/user/%U is warned by check"
# An error where a stack runs the package's pam_cocoon on the policy and
# the rule applies to its service (sshd), else a warning.
like_re "$OUT" "pam_cocoon would refuse the sessions of \\[user ccd\\]|\\[user ccd\\]: pam_cocoon refuses its sessions on service" \
	"and refused in PAM mode"
vm 'rm -f /tmp/cce-outside'
run vm_as cce 'systemd-run --user --wait touch /tmp/cce-outside 2>&1; ls /tmp/cce-outside 2>&1'
like "$OUT" "No such file" "cocoon-shell: the session's own /tmp does not have the file"
run vm 'ls /tmp/cce-outside'
is "$RC" 0 "but systemd-run --user made it on the host: the documented policy choice"
vm 'rm -f /tmp/cce-outside'

# --- KillUserProcesses, both ways
policy ''
for kill in yes no; do
	vm "mkdir -p /etc/systemd/logind.conf.d && printf '[Login]\nKillUserProcesses=$kill\n' \
		> /etc/systemd/logind.conf.d/cocoon-test.conf && systemctl restart systemd-logind"
	for u in ccd ccfree; do
		vm_as $u 'setsid nohup sleep 1234 >/dev/null 2>&1 < /dev/null & sleep 0.5' >/dev/null 2>&1
		if [ $u = ccd ]; then
			vm_wait_for "! pgrep -u $u -fx 'sleep 1234'"
			ok $? "KillUserProcesses=$kill: a sandboxed session's processes end at logout"
		elif [ $kill = no ]; then
			# Given the time that ending it takes the other rounds.
			sleep 2
			is "$(vm "pgrep -u $u -fx 'sleep 1234' | wc -l")" 1 \
				"control: KillUserProcesses=no, unconfined, a nohup'd process stays"
		else
			vm_wait_for "! pgrep -u $u -fx 'sleep 1234'"
			ok $? "control: KillUserProcesses=yes ends it unconfined too"
		fi
		vm "pkill -u $u -x sleep" >/dev/null 2>&1
	done
done
vm 'rm -f /etc/systemd/logind.conf.d/cocoon-test.conf && systemctl restart systemd-logind'

# --- limits: where they are, and that they hold
policy 'memory-max = 64M
pids-max = 40
cpu-max = 20%'
# explain asks the module's own check of the stack: the limits reach
# pam_systemd only through the return line above it.
run vm 'cocoonctl explain --service sshd ccd'
like "$OUT" "verdict:     sandboxed" "explain: sshd's stack hands the limits over, sandboxed"
vm 'cp /etc/pam.d/sshd /root/sshd.limits && sed -i "/pam_cocoon.so return/d" /etc/pam.d/sshd'
run vm 'cocoonctl explain --service sshd ccd'
like "$OUT" "verdict:     refused" "explain: without the return line, refused"
like "$OUT" "systemd.memory_max is not set" "and says why"
run vm_as ccd 'echo logged-in'
printf '%s\n' "$OUT" | grep -qx logged-in
ok $((! $?)) "control: the real login without the return line is refused too"
vm 'cp /root/sshd.limits /etc/pam.d/sshd'
for u in ccd cce; do
	mode=$([ $u = ccd ] && echo "pam_cocoon" || echo "cocoon-shell")
	vm_as $u 'sleep 30' >/dev/null 2>&1 &
	bg=$!
	for i in $(seq 60); do p=$(vm "pgrep -u $u -x sleep" | head -n 1); [ -n "$p" ] && break; sleep 0.5; done
	cg=$(vm "cut -d: -f3 /proc/$p/cgroup")
	if [ $u = ccd ]; then
		like "$cg" "/user.slice/user-$uid.slice/session-" "$mode: the session is in logind's scope"
	else
		like_re "$cg" "^/cocoon/[0-9a-f]{32}$" "$mode: the session is in cocoon's own cgroup, /cocoon/ID"
	fi
	run vm "cat /sys/fs/cgroup$cg/memory.max /sys/fs/cgroup$cg/pids.max /sys/fs/cgroup$cg/cpu.max"
	is "$OUT" "67108864
40
20000 100000" "$mode: memory.max, pids.max and cpu.max set there"
	vm "pkill -u $u -x sleep"
	wait $bg
	run vm_as $u 'python3 -c "b = bytearray(16 << 20); print(\"small ok\")"; python3 -c "b = bytearray(200 << 20); print(\"big ok\")"; echo rc=$?'
	like "$OUT" "small ok" "$mode: 16M fits"
	printf '%s\n' "$OUT" | grep -qx 'big ok'
	ok $((! $?)) "$mode: 200M is refused by memory-max"
	# Long sleeps: under emulation 60 forks can take longer than a short
	# one lives, and the count would never reach the limit. bash says
	# "Resource temporarily unavailable", dash "Cannot fork".
	run vm_as $u '{ for i in $(seq 60); do sleep 120 & done; } 2>&1 |
		grep -ciE "resource temporarily unavailable|cannot fork"; pkill -x sleep; true'
	[ "${OUT:-0}" -gt 0 ] 2>/dev/null; ok $? "$mode: the 60 processes meet pids-max ($OUT forks refused)"
	run vm_as $u 'timeout 4 sh -c "while :; do :; done"; cat /proc/self/stat >/dev/null;
		awk "{ print \$14 + \$15 + \$16 + \$17 }" /proc/$$/stat'
	cpu=$(printf '%s\n' "$OUT" | tail -n 1)
	# 4 s at 20% of one CPU: about 80 ticks of 100 Hz; unbounded it would be 400.
	[ "${cpu:-999}" -lt 160 ] 2>/dev/null; ok $? "$mode: a busy loop of 4 s gets no more than cpu-max ($cpu ticks)"
done
policy ''
run vm_as ccd 'python3 -c "b = bytearray(200 << 20); print(\"big ok\")";
	timeout 4 sh -c "while :; do :; done"; awk "{ print \$14 + \$15 + \$16 + \$17 }" /proc/$$/stat'
printf '%s\n' "$OUT" | grep -qx 'big ok'
ok $? "control: without memory-max 200M fit"
cpu=$(printf '%s\n' "$OUT" | tail -n 1)
[ "${cpu:-0}" -ge 160 ] 2>/dev/null; ok $? "control: without cpu-max the loop gets more CPU ($cpu ticks)"

# --- logind ends a cocoon-shell session too
policy ''
vm_as cce 'sleep 300' >/dev/null 2>&1 &
bg=$!
for i in $(seq 60); do vm "pgrep -u cce -x sleep" >/dev/null && break; sleep 0.5; done
sid=$(vm "loginctl list-sessions --no-legend | awk '\$3 == \"cce\" { print \$1 }'" | head -n 1)
vm "loginctl terminate-session $sid"
vm_wait_for "! pgrep -u cce -x sleep"
ok $? "loginctl terminate-session ends a cocoon-shell session's sandbox"
vm_wait_for "[ -z \"\$(find /sys/fs/cgroup/cocoon -mindepth 1 -type d 2>/dev/null)\" ]"
ok $? "and its cgroup"
wait $bg

# --- a lingering user: its manager runs without a login, outside
vm 'loginctl enable-linger ccd'
for i in $(seq 60); do vm "systemctl is-active user@$uid.service" >/dev/null && break; sleep 0.5; done
run vm 'cocoonctl check --pam'
like "$OUT" "warning: confined user ccd has lingering enabled" "check --pam warns of a confined user's lingering"
is "$(vm "systemctl show -p ControlGroup --value user@$uid.service")" \
	"/user.slice/user-$uid.slice/user@$uid.service" "whose manager runs outside any session"
vm 'loginctl disable-linger ccd'
done_testing
