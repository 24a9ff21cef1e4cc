#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# memory-max, pids-max, cpu-max: each session gets its own cgroup with the
# limits while it runs, gone afterwards; pids-max holds a fork bomb while
# the host stays responsive; memory-max stops an allocation. Controls run
# without the limit where that is safe (never a fork bomb).
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-limits-$T
work=$(mktemp -d /run/cocoon-limits-test.XXXXXX)
chmod 0755 "$work"
bg_pid=""
cleanup() {
	[ -n "$bg_pid" ] && kill -KILL "$bg_pid" 2>/dev/null
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$work"
	# The shared parents the sessions' cgroups were made in, once empty.
	rmdir /sys/fs/cgroup/cocoon /sys/fs/cgroup/{pids,memory,cpu}/cocoon 2>/dev/null
}
trap cleanup EXIT

add_user ccl5$T
add_user ccl6$T
limits_policy "[user ccl5$T]
profile = default
pids-max = 30
memory-max = 64M
cpu-max = 50%"

# cg_dir PID CONTROLLER: the directory of PID's cgroup holding CONTROLLER
# (v2: the one hierarchy).
V2=$([ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] && echo yes)
cg_dir() {
	if [ -n "$V2" ]; then
		echo "/sys/fs/cgroup$(sed -n 's/^0:://p' "/proc/$1/cgroup")"
	else
		echo "/sys/fs/cgroup/$2$(grep -E "^[0-9]+:([^:]*,)?$2(,[^:]*)?:" "/proc/$1/cgroup" | cut -d: -f3)"
	fi
}
mem_file=$([ -n "$V2" ] && echo memory.max || echo memory.limit_in_bytes)
cpu_file=$([ -n "$V2" ] && echo cpu.max || echo cpu.cfs_quota_us)
cpu_want=$([ -n "$V2" ] && echo "50000 100000" || echo 50000)

# first_proc USER: the oldest live process of USER, waited for (5 s).
first_proc() {
	local i p
	for i in $(seq 50); do
		# Not a zombie: one of an earlier user with the same uid may be
		# left where pid 1 does not reap.
		p=$(ps -o pid=,stat= -u "$1" --sort=start_time 2>/dev/null | awk '$2 !~ /^Z/ { print $1; exit }')
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}

# ---- the session's cgroup while it runs, and after ----
caller_cg=$(cg_dir $$ pids)
"$CTL" run --user ccl5$T -- /bin/sleep 30 >/dev/null 2>&1 &
bg_pid=$!
p=$(first_proc ccl5$T)
pids_dir=$(cg_dir "$p" pids)
mem_dir=$(cg_dir "$p" memory)
cpu_dir=$(cg_dir "$p" cpu)
like "$pids_dir" "/cocoon/" "the session runs in a cgroup cocoon/<id> of its own"
is "$(cat "$pids_dir/pids.max")" 30 "with pids-max"
is "$(cat "$mem_dir/$mem_file")" 67108864 "with memory-max"
is "$(cat "$cpu_dir/$cpu_file")" "$cpu_want" "with cpu-max (50% of a CPU)"
is "$(cg_dir $$ pids)" "$caller_cg" "the caller stays in its own cgroup"
kill -TERM "$bg_pid"
wait "$bg_pid"
bg_pid=""
ok $([ ! -e "$pids_dir" ] && [ ! -e "$mem_dir" ] && [ ! -e "$cpu_dir" ]; echo $?) "the cgroup is removed after the session"

# ---- pids-max against a count of processes, with a control ----
FORKS='import os, time
n = 0
for i in range(40):
    try:
        if os.fork() == 0:
            time.sleep(2)
            os._exit(0)
        n += 1
    except OSError:
        break
print(n)'
run "$CTL" run --user ccl5$T -- /usr/bin/python3 -c "$FORKS"
ok $([ "$OUT" -lt 30 ] 2>/dev/null; echo $?) "pids-max stops new processes at the limit ($OUT forked)"
run "$CTL" run --user ccl6$T -- /usr/bin/python3 -c "$FORKS"
is "$OUT" 40 "control: without pids-max all 40 start"
ok $(wait_gone ccl6$T; echo $?) "the control's processes end with its session"

# ---- a fork bomb: held, the host responsive, ended cleanly ----
"$CTL" run --user ccl5$T -- /bin/bash -c ':(){ :|:& };:; exec sleep 30' >/dev/null 2>&1 &
bg_pid=$!
p=$(first_proc ccl5$T)
pids_dir=$(cg_dir "$p" pids)
# Until the bomb has hit the limit (pids.events counts from "max 0").
for _ in $(seq 300); do grep -q '^max [1-9]' "$pids_dir/pids.events" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s%N)
/bin/ls / >/dev/null && /usr/bin/id >/dev/null && /bin/sh -c true
ms=$((($(date +%s%N) - start) / 1000000))
ok $([ "$ms" -lt 1000 ]; echo $?) "the host runs commands while the bomb goes on (${ms} ms)"
live=$(live_procs ccl5$T)
ok $([ "$live" -le 30 ] && [ "$live" -gt 5 ]; echo $?) "the bomb is held at pids-max ($live processes)"
like_re "$(cat "$pids_dir/pids.events" 2>/dev/null)" '^max [1-9]' "the cgroup counted refused forks"
kill -TERM "$bg_pid"
wait "$bg_pid"
bg_pid=""
ok $(wait_gone ccl5$T; echo $?) "ending the session leaves no process of the user"
ok $([ ! -e "$pids_dir" ]; echo $?) "and removes its cgroup"

# ---- memory-max ----
ALLOC='b = b"x" * (200 << 20); print("allocated")'
run "$CTL" run --user ccl5$T -- /usr/bin/python3 -c "$ALLOC"
unlike "$OUT" "allocated" "memory-max stops a 200M allocation"
is "$RC" 137 "the allocating process is killed"
run "$CTL" run --user ccl6$T -- /usr/bin/python3 -c "$ALLOC"
is "$OUT" "allocated" "control: without memory-max it succeeds"

# ---- pam_cocoon: the service process carries the session in ----
sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccl5$T
sshd_allow ccl6$T
# The session's pids cgroup as the shell sees it (v2: the one hierarchy).
CG_LINE=$([ -n "$V2" ] && echo 'grep "^0::" /proc/self/cgroup' ||
	echo 'grep -E "^[0-9]+:pids:" /proc/self/cgroup')
sshd_cg=$(cg_dir "$SSHD_PID" pids)
run ssh_as ccl5$T "$CG_LINE; /usr/bin/python3 -" <<< "$FORKS"
cg=$(echo "$OUT" | head -n 1 | cut -d: -f3)
if [ -d /run/systemd/system ]; then
	# systemd owns the tree: pam_systemd's scope for the login holds the
	# limits (pam_cocoon(8)).
	like "$cg" "/session-" "PAM under systemd: the shell is in logind's session scope"
	gone="/sys/fs/cgroup$cg"
else
	like "$cg" "/cocoon/" "PAM: the shell is in the session's cgroup"
	gone=$([ -n "$V2" ] && echo "/sys/fs/cgroup$cg" || echo "/sys/fs/cgroup/pids$cg")
fi
n=$(echo "$OUT" | tail -1)
ok $([ "$n" -lt 30 ] 2>/dev/null; echo $?) "PAM: pids-max holds ($n forked)"
ok $(wait_gone ccl5$T; echo $?) "PAM: nothing of the user is left after logout"
for i in $(seq 50); do [ -e "$gone" ] || break; sleep 0.1; done
ok $([ -n "$cg" ] && [ ! -e "$gone" ]; echo $?) "PAM: the session's cgroup is removed ($cg)"
is "$(cg_dir "$SSHD_PID" pids)" "$sshd_cg" "PAM: sshd itself stays where it was"
run ssh_as ccl6$T "$CG_LINE"
unlike "$OUT" "/cocoon/" "PAM control: without cgroup limits no cgroup is made"

done_testing
