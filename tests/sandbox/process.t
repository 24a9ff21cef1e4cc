#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The engine's process side: who the command runs as, what it keeps,
# what it sees of other processes, how its end and its signals travel.
. "$(dirname "$0")/../lib.sh" engine

add_group ccenggrp$T || bail_out "groupadd ccenggrp$T"
engine_user cceng2$T -G ccenggrp$T
uid=$(id -u cceng2$T)
gid=$(id -g cceng2$T)
ggid=$(getent group ccenggrp$T | cut -d: -f3)
home=$(getent passwd cceng2$T | cut -d: -f6)

# ---- identity and privileges ----
sandbox cceng2$T -- /bin/sh -c '
	id -u; id -g; id -G
	grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):" /proc/self/status
	ls /proc/self/fd | tr "\n" " "; echo
	pwd'
is "$RC" 0 "a sandbox runs"
is "$(echo "$OUT" | sed -n 1,3p | tr '\n' ' ')" "$uid $gid $gid $ggid " "uid, gid and the groups resolved before the build"
like "$OUT" "CapInh:	0000000000000000
CapPrm:	0000000000000000
CapEff:	0000000000000000
CapBnd:	0000000000000000
CapAmb:	0000000000000000" "no capability in any set, bounding set empty"
like "$OUT" "NoNewPrivs:	1" "no_new_privs by default"
like "$OUT" "0 1 2 3 " "the command gets descriptors 0, 1 and 2 only (3 is ls's own)"
is "$(echo "$OUT" | tail -1)" "/" "without chdir and with no home inside, the command starts in /"

exec 7</dev/null
sandbox cceng2$T -- /bin/sh -c 'ls /proc/self/fd | tr "\n" " "'
exec 7<&-
is "$OUT" "0 1 2 3 " "descriptors the caller leaked are closed"

sandbox cceng2$T --no-new-privs 0 -- /bin/grep NoNewPrivs /proc/self/status
like "$OUT" "NoNewPrivs:	0" "no_new_privs off when the plan says so"

sandbox cceng2$T --seccomp default -- /bin/sh -c 'grep Seccomp: /proc/self/status; unshare -U true 2>&1 || echo "userns refused"'
like "$OUT" "Seccomp:	2" "the seccomp filter is loaded"
like "$OUT" "userns refused" "the filter applies to the command"
sandbox cceng2$T --seccomp default --no-new-privs 0 -- /bin/grep -E "Seccomp:|NoNewPrivs" /proc/self/status
like "$OUT" "NoNewPrivs:	0
Seccomp:	2" "the filter loads without no_new_privs"

sandbox cceng2$T --session-nofile 77 -- /bin/sh -c 'ulimit -n'
is "$OUT" "77" "session_rlimits reach the command"

# A setuid-root program gains nothing: binds are nosuid.
install -m 4755 /usr/bin/id "$WORK/suid-id"
sandbox cceng2$T --no-new-privs 0 --ro-bind "$WORK/suid-id" /suid-id -- /suid-id -u
is "$OUT" "$uid" "a setuid-root program inside runs as the user (nosuid)"
sandbox cceng2$T -- /bin/sh -c 'kill -KILL 1 2>/dev/null && echo killed || echo refused; kill -STOP 1 2>/dev/null || echo refused'
is "$OUT" "refused
refused" "the session cannot signal cocoon-init"

# ---- working directory ----
sandbox cceng2$T --bind "$home" "$home" -- /bin/pwd
is "$OUT" "$home" "the command starts in the home when it exists inside"
sandbox cceng2$T --bind "$home" "$home" --chdir /usr -- /bin/pwd
is "$OUT" "/usr" "chdir wins over the home"
sandbox cceng2$T --chdir /nowhere -- /bin/true
like "$OUT" "chdir /nowhere: No such file or directory" "a chdir that fails refuses the session"
install -d -o root -m 0700 "$WORK/private"
sandbox cceng2$T --bind "$WORK/private" /private --chdir /private -- /bin/true
like "$OUT" "chdir /private: Permission denied" "chdir happens as the user, after the switch"

# ---- processes, hostname, network ----
host_name=$(cat /proc/sys/kernel/hostname)
sandbox cceng2$T --hostname cocoon-box --unshare uts,net,ipc -- /bin/sh -c '
	ps -eo pid=,uid=,comm= | tr -s " "
	hostname
	cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "
	cat /sys/class/net/lo/operstate 2>/dev/null; ping -c1 -W1 127.0.0.1 >/dev/null 2>&1 && echo "lo up"'
like "$OUT" " 1 0 cocoon-init
 2 $uid sh" "pid 1 is cocoon-init (root); the command is pid 2"
is "$(echo "$OUT" | grep '^ [0-9]' | grep -cv -e ' cocoon-init$' -e ' sh$' -e ' ps$' -e ' tr$')" 0 \
	"only the sandbox's processes are visible"
like "$OUT" "cocoon-box" "hostname in the uts namespace"
# The host's name before and after: the sandbox's did change, the host's
# did not (a different name, so that the comparison can fail).
[ "$host_name" != cocoon-box ]; ok $? "control: the host is not already named cocoon-box"
is "$(cat /proc/sys/kernel/hostname)" "$host_name" "the host's name is untouched"
like "$OUT" "lo" "only the loopback interface in the network namespace"
run "$ENGINE_DRIVER" --user cceng2$T --hostname x -- /bin/true
like "$OUT" "'hostname' needs a uts namespace" "hostname without a uts namespace is refused"

sandbox cceng2$T -- /bin/sh -c 'cat /proc/1/environ; ls /proc/1/fd; cat /proc/1/status | grep -c ^Name'
like "$OUT" "Permission denied" "cocoon-init's memory, environment and descriptors are out of reach"

# ---- status, signals, the end of a session ----
sandbox cceng2$T -- /bin/sh -c 'exit 7'
is "$RC" 7 "the command's exit status comes back"
sandbox cceng2$T -- /bin/sh -c 'kill -SEGV $$'
is "$RC" 139 "death by signal N comes back as 128+N"
sandbox cceng2$T -- /nonexistent
is "$RC" 125 "a command that cannot be executed fails the run"
like "$OUT" "exec /nonexistent: No such file or directory" "with the reason"
sandbox cceng2$T -- sh -c 'echo found'
is "$OUT" "found" "a command without a directory is looked up in PATH"

install -d -o cceng2$T -m 0755 "$WORK/out"
sandbox cceng2$T --bind "$WORK/out" /out -- /bin/sh -c '(sleep 2; touch /out/survived) & exit 0'
sleep 2.5
[ ! -e "$WORK/out/survived" ]; ok $? "processes left behind die with the session's main process"
is "$(live_procs cceng2$T)" 0 "no process of the user remains"

"$ENGINE_DRIVER" --user cceng2$T $BASE --bind "$WORK/out" /out -- /bin/sh -c \
	'trap "echo got TERM > /out/term; exit 3" TERM; echo ready > /out/ready; while :; do sleep 0.1; done' &
drv=$!
for _ in $(seq 50); do [ -e "$WORK/out/ready" ] && break; sleep 0.1; done
kill -TERM "$drv"
wait "$drv"
rc=$?
is "$(cat "$WORK/out/term" 2>/dev/null)" "got TERM" "SIGTERM to the caller reaches the session"
is "$rc" 3 "and the session's status comes back"

# A signal that arrives while the sandbox is being built is not lost:
# the session ends instead of starting.
slow=0
for d in 0.001 0.002 0.004 0.008; do
	start=$(date +%s)
	"$ENGINE_DRIVER" --user cceng2$T $BASE -- /bin/sleep 30 &
	drv=$!
	sleep "$d"
	kill -TERM "$drv"
	wait "$drv"
	[ $(($(date +%s) - start)) -lt 10 ] || slow=1
done
is "$slow" 0 "SIGTERM during the build ends the session"

sandbox cceng2$T --new-session -- /bin/sh -c 'ps -o sid= -p $$; ps -o pid= -p $$'
is "$(echo "$OUT" | tr -s ' \n' ' ')" " 2 2 " "new-session makes the command a session leader"

# ---- user namespace ----
sandbox cceng2$T --unshare user --seccomp default -- /bin/sh -c '
	cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups | tr -s " "
	id -u; id -G
	grep -E "^Cap(Eff|Prm|Bnd)" /proc/self/status; grep Seccomp: /proc/self/status
	readlink /proc/self/ns/user /proc/self/ns/mnt'
is "$RC" 0 "a user namespace is created last"
is "$(echo "$OUT" | head -2)" " $uid $uid 1
 $gid $gid 1" "only the user's uid and gid are mapped"
like "$OUT" "deny" "setgroups is denied in it"
like "$OUT" "CapPrm:	0000000000000000
CapEff:	0000000000000000
CapBnd:	0000000000000000" "no capability inside it either"
like "$OUT" "Seccomp:	2" "the filter is loaded inside it"
userns=$(echo "$OUT" | grep '^user:')
[ -n "$userns" ] && [ "$userns" != "$(readlink /proc/self/ns/user)" ]; ok $? "a new user namespace"
sandbox cceng2$T --unshare user --seccomp default --no-new-privs 0 -- /bin/grep -E "Seccomp:|NoNewPrivs" /proc/self/status
like "$OUT" "NoNewPrivs:	0
Seccomp:	2" "in a user namespace the filter loads without no_new_privs too"

# ---- without a pid namespace: the caller's child is the session ----
run "$ENGINE_DRIVER" --user cceng2$T --ro-bind /usr /usr --symlink usr/lib /lib \
	--symlink usr/lib64 /lib64 --symlink usr/bin /bin --dev /dev --unshare user,net \
	-- /bin/sh -c 'id -u; exit 6'
is "$RC" 6 "without a pid namespace the status comes back too"
is "$OUT" "$uid" "and the command runs as the user, in its own user namespace"

done_testing
