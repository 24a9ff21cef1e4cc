#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# share-sandbox through pam_cocoon under systemd and logind (Debian's sshd
# stack): two ssh logins share one sandbox (one pid 1, one /tmp, tmux
# across logins), both stay logind sessions (a holder keeps each
# session-N.scope), the sandbox's processes are in a scope of its own,
# cocoon-ID.scope in user-UID.slice, with the plan's MemoryMax,
# TasksMax and CPUQuota; logind's KillUserProcesses= both ways ends the sessions'
# scopes, never the sandbox's, which ends at the last logout without
# linger and at the linger's end with it. cocoonctl enter runs in the
# sandbox (its scope, its namespaces, as the user under seccomp); stop,
# by a joined login's id or the sandbox's, lingering or not, ends
# everything in the scope, systemd drops it, list forgets it, and stop's
# record is the sandbox's only end record. The control: the same without
# share-sandbox gives each login a sandbox of its own.
. "$(dirname "$0")/../lib.sh" vm

vm_sshd_cocoon
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
W=$(mktemp -d /tmp/cc-vm-share.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	# A sandbox with linger = yes outlives its user's processes.
	vm 'rm -f /etc/systemd/logind.conf.d/cocoon-share-test.conf /tmp/enter.out /tmp/enter-stop.pid;
		systemctl restart systemd-logind;
		for id in $(cocoonctl list | awk "\$2 == \"sda\" && !/ joined / { print \$1 }"); do
			cocoonctl stop $id; done
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
vm_wait_for "pgrep -u sda -f share-stop"
vm_as sda "$pidns; $hold" > "$W/b.out" 2>&1 < /dev/null &
b=$!
vm_wait_for "[ \$(pgrep -u sda -f share-stop | wc -l) -ge 2 ]"
# A's mark is written before its job starts.
vm_wait_for "pgrep -u sda -fx 'sleep 4320'"
P=$(vm_as sda -tt "cat /tmp/share-mark; pgrep -fx 'sleep 4320' >/dev/null && echo sees-a;
	grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status | tr -s '\t' ' ';
	tmux new-session -d -s work 'sleep 4321'; echo tmux=\$?" 2>&1 | tr -d '\r')
wait_output "$W/a.out" cocoon-init
wait_output "$W/b.out"
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
vm_wait_for "! pgrep -u sda >/dev/null"; ok $? "linger = no: the sandbox ends with its last login, tmux and all"
vm_wait_for "[ -z \"\$(systemctl list-units --no-legend 'cocoon-*.scope')\" ]"; ok $? "and systemd drops its scope"
is "$(vm 'pgrep -x cocoon-hold | wc -l')" 0 "no holder is left"
is "$(sessions sda)" 0 "nor any session"

# --- KillUserProcesses both ways: the sessions' scopes end, not the
# sandbox's; without linger it ends at the last logout, with linger at
# its end.
for kill in yes no; do
	logind $kill
	policy no
	vm_as sda "setsid nohup sleep 4322 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
	vm_wait_for "! pgrep -u sda -f 'sleep 4322'"; ok $? "KillUserProcesses=$kill, linger = no: a nohup job ends at logout"
	policy 12s
	vm_as sda "setsid nohup sleep 4323 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
	is "$(vm "pgrep -u sda -f 'sleep 4323' | wc -l")" 1 "KillUserProcesses=$kill, linger = 12s: the nohup job outlives the logout"
	vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sda\"' | wc -l) = 0 ]"
	ok $? "KillUserProcesses=$kill: the user's session is gone"
	run vm "systemctl show -p Slice -p ActiveState \$(systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }')"
	like "$OUT" "ActiveState=active" "KillUserProcesses=$kill: its scope is active"
	like "$OUT" "Slice=user-$uid.slice" "KillUserProcesses=$kill: under user-$uid.slice"
	is "$(vm "systemctl is-active user-$uid.slice")" "active" "KillUserProcesses=$kill: logind leaves the user's slice up"
	vm_wait_for "! pgrep -u sda -f 'sleep 4323'"; ok $? "KillUserProcesses=$kill: the job dies at the linger's end"
	vm_wait_for "[ -z \"\$(systemctl list-units --no-legend 'cocoon-*.scope')\" ]"; ok $? "KillUserProcesses=$kill: and the scope goes"
done

# --- cocoonctl on a sandbox in its scope: enter joins it (its
# namespaces, the scope's cgroup, the user under seccomp); stop, named by
# a joined login's id with both logins attached, or by the sandbox's id
# while it lingers, ends everything in the scope, and systemd drops the
# scope; list forgets it, the slot's files go, and the audit record says
# the administrator stopped it.
rows() { vm "cocoonctl list 2>/dev/null | awk '\$2 == \"sda\"'"; }
stopped() { # stopped ID SINCE: the end records of ID's stop
	vm "journalctl -q --no-pager --since '$2' SYSLOG_IDENTIFIER=cocoonctl COCOON_USER=sda -o cat" |
		grep -F "session=$1 "
}
gone() { # gone SCOPE WHAT: everything of the stopped sandbox is gone
	vm_wait_for "! pgrep -u sda >/dev/null"; ok $? "$2: no process of the user is left"
	vm_wait_for "[ \"\$(systemctl show -P ActiveState $1)\" = inactive ]"
	ok $? "$2: systemd ends $1"
	vm_wait_for "[ -z \"\$(systemctl list-units --all --no-legend 'cocoon-*.scope')\" ]"
	ok $? "$2: and drops it"
	is "$(vm 'pgrep -x cocoon-hold | wc -l')" 0 "$2: no holder is left"
	vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sda\"' | wc -l) = 0 ]"
	ok $? "$2: nor any session of the user"
	is "$(rows)" "" "$2: cocoonctl list shows nothing of it"
	is "$(vm "ls -A /run/cocoon | grep -c '^\\.share-$uid-'")" 0 "$2: nor are its slot's files left"
}
logind no
policy no
since=$(vm 'date "+%F %T"')
vm_as sda "$pidns; echo from-e > /tmp/share-mark; sleep 4325 & $hold" > "$W/e.out" 2>&1 < /dev/null &
e=$!
vm_wait_for "pgrep -u sda -f share-stop"
vm_as sda "$hold" > "$W/f.out" 2>&1 < /dev/null &
f=$!
vm_wait_for "[ \$(pgrep -u sda -f share-stop | wc -l) -ge 2 ]"
R=$(rows)
SBX=$(printf '%s\n' "$R" | awk '/ shared, 2 logins$/ { print $1 }')
JOINED=$(printf '%s\n' "$R" | awk '/ joined / { print $1 }')
ok $([ -n "$SBX" ] && [ -n "$JOINED" ]; echo $?) "list: the sandbox ($SBX) and its joined login ($JOINED)"
scope=cocoon-$SBX.scope
is "$(scopes)" "$scope" "its scope is named for the sandbox's id"
wait_output "$W/e.out"
vm_wait_for "pgrep -u sda -fx 'sleep 4325'"
ns_e=$(head -n 1 "$W/e.out")
# The command's view from inside, and the host's view of it while it runs.
run vm "cocoonctl enter $SBX -- /bin/sh -c '$pidns; id -un; cat /proc/1/comm /tmp/share-mark;
		grep -E \"^(Seccomp|NoNewPrivs):\" /proc/self/status; exec sleep 4326' > /tmp/enter.out 2>&1 < /dev/null &
	for i in \$(seq 100); do p=\$(pgrep -u sda -fx 'sleep 4326') && break; sleep 0.1; done
	cut -d: -f3 /proc/\$p/cgroup; kill \$p; wait; tr -d '\r' < /tmp/enter.out | tr -s '\t' ' '"
is "$OUT" "/user.slice/user-$uid.slice/$scope
$ns_e
sda
cocoon-init
from-e
NoNewPrivs: 1
Seccomp: 2" "enter SANDBOX-ID: in the scope, the sandbox's pid namespace, as the user, under seccomp"
run vm "cocoonctl enter $JOINED -- /usr/bin/stat -L -c %i /proc/self/ns/pid | tr -d '\r'"
is "$OUT" "$ns_e" "enter JOINED-ID: the same sandbox"
run vm "cocoonctl stop $JOINED"
is "$RC" 0 "stop JOINED-ID exits 0"
like "$OUT" "stopped shared sandbox $SBX (user sda" "and stops the sandbox it joined"
like "$OUT" "and its 1 joined login" "with its joined login"
for _ in $(seq 120); do kill -0 $e 2>/dev/null || kill -0 $f 2>/dev/null || break; sleep 0.5; done
ok $( ! kill -0 $e 2>/dev/null && ! kill -0 $f 2>/dev/null; echo $?) "both ssh logins end"
wait $e $f
unlike "$(cat "$W/e.out" "$W/f.out")" "done" "(killed, not by the shared /tmp)"
like "$(cat "$W/e.out")" "session ended by the administrator (reference $SBX)" \
	"the first login is told who ended it"
like "$(cat "$W/f.out")" "session ended by the administrator (reference $SBX)" "and the joined one"
gone "$scope" "stop JOINED-ID"
S=$(stopped "$SBX" "$since")
is "$(printf '%s\n' "$S" | grep -c .)" 1 "one cocoonctl record of the stop"
like "$S" "event=end user=sda" "the record is an end of sda's"
like "$S" "result=stopped reason=\"cocoonctl stop\"" "it says the administrator stopped it"
like "$S" "sandbox=$SBX" "and names the sandbox"

# linger = yes: no login attached, only the scope holds the sandbox; stop
# by the sandbox's id.
policy yes
since=$(vm 'date "+%F %T"')
vm_as sda "setsid nohup sleep 4327 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sda\"' | wc -l) = 0 ]"
SBX=$(rows | awk '{ print $1 }')
scope=cocoon-$SBX.scope
like "$(rows)" "shared, lingering, no end" "linger = yes: list shows the sandbox lingering, with no end"
is "$(vm "systemctl show -P ActiveState $scope")" "active" "its scope $scope is active"
is "$(vm "pgrep -u sda -fx 'sleep 4327' | wc -l")" 1 "with the nohup job in it"
# An enter still running when stop comes: its entering process, root's
# outside the pid namespace, is in the scope too.
vm "cocoonctl enter $SBX -- sleep 4328 > /dev/null 2>&1 < /dev/null & echo \$! > /tmp/enter-stop.pid"
vm_wait_for "pgrep -u sda -fx 'sleep 4328'"
run vm "for p in \$(pgrep -u sda -fx 'sleep 432[78]'); do cut -d: -f3 /proc/\$p/cgroup; done | sort | uniq -c | awk '{ print \$1, \$2 }'"
is "$OUT" "2 /user.slice/user-$uid.slice/$scope" "enter while it lingers runs in its scope, beside the nohup job"
run vm "cocoonctl stop $SBX"
is "$RC" 0 "stop SANDBOX-ID exits 0"
like "$OUT" "stopped shared sandbox $SBX (user sda" "and says it stopped the shared sandbox"
vm_wait_for "! kill -0 \$(cat /tmp/enter-stop.pid)"; ok $? "the cocoonctl enter that ran in it returns"
gone "$scope" "stop SANDBOX-ID, lingering"
S=$(stopped "$SBX" "$since")
is "$(printf '%s\n' "$S" | grep -c .)" 1 "one cocoonctl record of the stop"
like "$S" "result=stopped" "it says the administrator stopped it"
like "$S" "sandbox=$SBX" "and names the sandbox"
is "$(vm "journalctl -q --no-pager --since '$since' COCOON_USER=sda COCOON_SHARE=ended -o cat | wc -l")" 0 \
	"and is its only end record: none of its pid 1's (share=ended)"

# --- the control: without share-sandbox each login has its own sandbox
logind no
vm_as sdc "$pidns; echo from-c > /tmp/share-mark; sleep 4324" > "$W/c.out" 2>&1 &
c=$!
vm_wait_for "pgrep -u sdc -x sleep"
D=$(vm_as sdc "$pidns; cat /tmp/share-mark 2>&1; pgrep -x sleep >/dev/null && echo sees-c" 2>&1)
wait_output "$W/c.out"
ns_c=$(head -n 1 "$W/c.out")
ns_d=$(printf '%s\n' "$D" | head -n 1)
ok $([ -n "$ns_c" ] && [ "$ns_c" != "$ns_d" ]; echo $?) "control: without share-sandbox a second login has a pid namespace of its own"
unlike "$D" "from-c" "control: and a /tmp of its own"
unlike "$D" "sees-c" "control: and does not see the first one's processes"
is "$(scopes | grep -c .)" 0 "control: no cocoon-*.scope"
vm 'pkill -u sdc -x sleep' >/dev/null 2>&1
wait $c
done_testing
