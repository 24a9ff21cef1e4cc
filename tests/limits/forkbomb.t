#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A fork bomb in a session of the shipped guest policy (guest.conf, its
# pids-max = 256), logged in through a real sshd with pam_cocoon: held
# at the session's bound, the host answers a command in under a second
# while it runs, and closing the connection ends the session with
# nothing left. The control (no bomb) shows the count it is held to is
# the bomb's doing.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-fault-$T
work=$(mktemp -d /run/cocoon-exhaust-test.XXXXXX)
chmod 0755 "$work"
client=""
cleanup() {
	[ -n "$client" ] && kill -KILL "$client" 2>/dev/null
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccft2$T
guest_policy ccft2$T
guest_sshd_start || { echo "Bail out! sshd"; exit 1; }
sshd_allow ccft2$T
before=$(leftovers)

run ssh_as ccft2$T 'cat /proc/1/comm; cat /sys/fs/cgroup/pids$(grep -E "^[0-9]+:pids:" /proc/self/cgroup | cut -d: -f3)/pids.max 2>/dev/null || grep -E "^[0-9]+:pids:" /proc/self/cgroup'
like "$OUT" "cocoon-init" "a guest session through sshd runs in the sandbox"
is "$(live_procs ccft2$T)" 0 "control: an ordinary session leaves no process"

ssh_bg "$work/bomb.out" ccft2$T ':(){ :|:& };:; exec sleep 60'
client=$CLIENT
for i in $(seq 100); do [ "$(live_procs ccft2$T)" -gt 200 ] && break; sleep 0.1; done
sleep 1
# The host: a few commands, each its own process, timed together.
start=$(date +%s%N)
/bin/ls / >/dev/null && /usr/bin/id >/dev/null && /bin/sh -c true
ms=$((($(date +%s%N) - start) / 1000000))
ok $([ "$ms" -lt 1000 ]; echo $?) "the host runs commands while the bomb goes on (${ms} ms)"
n=$(live_procs ccft2$T)
ok $([ "$n" -le 256 ] && [ "$n" -gt 50 ]; echo $?) "the bomb is held at guest.conf's pids-max = 256 ($n processes of the user)"
cg=$(for p in $(pgrep -u ccft2$T | head -20); do grep -E '^[0-9]+:pids:' "/proc/$p/cgroup" | cut -d: -f3; done | grep /cocoon/ | head -1)
like "$cg" "/cocoon/" "in the session's own cgroup"
like "$(cat "/sys/fs/cgroup/pids$cg/pids.events" 2>/dev/null)" "max" "which refused forks"
run ssh_as ccft2$T 'echo another-login'
is "$OUT" "another-login" "another login of the same user still works"

kill -TERM "$client"; wait "$client" 2>/dev/null; client=""
ok $(wait_gone ccft2$T; echo $?) "closing the connection ends every process of the bomb"
after=$(settle_to "$before")
is "$after" "$before" "nothing is left: processes, mounts, cgroups, records, sshd fds, inits"
ok $([ ! -e "/sys/fs/cgroup/pids$cg" ]; echo $?) "the session's cgroup is removed"

done_testing
