#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Shared sandboxes (share-sandbox, linger) through sshd and pam_cocoon
# under systemd and logind, beyond 35-share-systemd.t: enter --root runs
# as root in the sandbox's namespaces and scope, behind its walls; stop
# --message tells the joined logins' terminals and ends the scope; stop
# while a linger DURATION runs ends it at once, with the only end record;
# stop under KillUserProcesses=yes; two first logins at the same moment
# make one sandbox; a policy change between logins gives the next login a
# sandbox of its own, not a refusal; and logind's RemoveIPC=yes, which
# removes the user's SysV and POSIX shared memory on the host at the last
# logout, leaves those of a lingering sandbox (its own ipc namespace and
# /dev/shm) alone.
. "$(dirname "$0")/../lib.sh" vm

vm_sshd_cocoon
vm_user sst
uid=$(vm 'id -u sst')
policy() { # policy LINGER [PIDS-MAX]: sst shares
	vm "printf '%s\n' '[profile sh]' 'profile = default' 'share-sandbox = yes' 'linger = $1' \
		'pids-max = ${2:-300}' '[user sst]' 'profile = sh' '[default]' 'sandbox = none' > /etc/cocoon/cocoon.conf &&
		cocoonctl check >/dev/null 2>&1"
}
logind() { # logind yes|no: KillUserProcesses=, with RemoveIPC=yes (Debian's default) said
	vm "mkdir -p /etc/systemd/logind.conf.d && printf '[Login]\nKillUserProcesses=$1\nRemoveIPC=yes\n' \
		> /etc/systemd/logind.conf.d/cocoon-share-test.conf && systemctl restart systemd-logind"
}
scopes() { vm "systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }'"; }
sessions() { vm "loginctl list-sessions --no-legend | awk '\$3 == \"sst\"' | wc -l"; }
rows() { vm "cocoonctl list 2>/dev/null | awk '\$2 == \"sst\"'"; }
# holds N: until N logins of sst wait on the shared /tmp.
holds() { vm_wait_for "[ \$(pgrep -u sst -f share-stop | wc -l) -ge $1 ]"; }
# ended PID...: until these ssh clients have exited, 60 s at most.
ended() { local i p; for i in $(seq 120); do
	for p in "$@"; do kill -0 "$p" 2>/dev/null && break; done
	kill -0 "$p" 2>/dev/null || return 0; sleep 0.5; done; return 1; }
# unscoped: until systemd has no cocoon-*.scope, 60 s at most.
unscoped() { vm_wait_for "[ -z \"\$(systemctl list-units --all --no-legend 'cocoon-*.scope')\" ]"; }
gone() { # gone SCOPE WHAT: everything of the stopped sandbox is gone
	vm_wait_for "! pgrep -u sst >/dev/null"; ok $? "$2: no process of the user is left"
	unscoped
	ok $? "$2: systemd drops $1"
	vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sst\"' | wc -l) = 0 ]"
	ok $? "$2: no session of the user is left"
	is "$(rows)" "" "$2: cocoonctl list shows nothing of it"
}
records() { # records ID SINCE: the end records that name sandbox ID
	vm "journalctl -q --no-pager --since '$2' COCOON_USER=sst -o cat" | grep -F "event=end" | grep -F "sandbox=$1"
}
W=$(mktemp -d /tmp/cc-vm-share-stop.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	vm 'rm -rf /etc/systemd/logind.conf.d/cocoon-share-test.conf /tmp/cc-root-prog /tmp/cc-user-prog
		/root/cc-race.sh /run/cc-race
		/dev/shm/cc-ipc-host; systemctl restart systemd-logind;
		for id in $(cocoonctl list | awk "\$2 == \"sst\" && !/ joined / { print \$1 }"); do
			cocoonctl stop $id; done
		pkill -KILL -u sst
		for m in $(ipcs -m | awk "\$3 == \"sst\" { print \$2 }"); do ipcrm -m $m; done' >/dev/null 2>&1
}
trap cleanup EXIT
pidns='stat -L -c %i /proc/self/ns/pid'
hold='while [ ! -e /tmp/share-stop ]; do sleep 0.3; done; echo done'
# login NAME [COMMAND]: an ssh login of sst in the background that prints
# its pid namespace, runs COMMAND and holds until the shared /tmp says so;
# its output in $W/NAME.out, the ssh client's pid in $NAME.
login() {
	vm_as sst "$pidns; ${2:-:}; $hold" > "$W/$1.out" 2>&1 < /dev/null &
	printf -v "$1" %s $!
}
sandbox_id() { rows | awk '!/ joined / { print $1 }'; }

logind no
policy no

# --- enter --root: root in the sandbox's namespaces and scope, without
# seccomp or no_new_privs, every capability; the program is the host's,
# opened before entering, and must be root's alone, by absolute path.
login a "printf '#!/bin/sh\necho from-the-session\n' > /tmp/cc-root-prog; chmod 755 /tmp/cc-root-prog; echo prog-ready"
holds 1
SBX=$(sandbox_id)
scope=cocoon-$SBX.scope
is "$(scopes)" "$scope" "the sandbox has its scope ($scope)"
wait_output "$W/a.out" prog-ready
ns_a=$(head -n 1 "$W/a.out")
ns_host=$(vm "$pidns")
ok $([ -n "$ns_a" ] && [ "$ns_a" != "$ns_host" ]; echo $?) "the login has a pid namespace of its own ($ns_a, the host's $ns_host)"
run vm "cocoonctl enter --root $SBX -- /bin/sh -c '$pidns; id -u; cut -d: -f3 /proc/self/cgroup;
	grep -E \"^(NoNewPrivs|Seccomp|CapEff):\" /proc/self/status' | tr -d '\r' | tr -s '\t' ' '"
is "$OUT" "$ns_a
0
/user.slice/user-$uid.slice/$scope
CapEff: 000001ffffffffff
NoNewPrivs: 0
Seccomp: 0" "enter --root: uid 0 in the sandbox's pid namespace and scope, every capability, no no_new_privs, no seccomp"
# The session has its own file at the path; the host's, root's, runs.
vm 'install -m 0755 /usr/bin/id /tmp/cc-root-prog && install -o sst -m 0755 /usr/bin/id /tmp/cc-user-prog'
run vm "cocoonctl enter $SBX -- /bin/cat /tmp/cc-root-prog | tr -d '\r'"
like "$OUT" "echo from-the-session" "control: at /tmp/cc-root-prog the session has a script of the user's"
run vm "cocoonctl enter --root $SBX -- /tmp/cc-root-prog | tr -d '\r'"
is "$OUT" "uid=0(root) gid=0(root) groups=0(root)" "enter --root runs the host's program at that path, not the session's"
run vm "cocoonctl enter --root $SBX -- /tmp/cc-user-prog"
is "$RC" 1 "enter --root refuses a program the user owns"
like "$OUT" "/tmp/cc-user-prog is not an executable regular file that only root can write" "and says why"
run vm "cocoonctl enter --root $SBX -- sh -c id"
is "$RC" 1 "enter --root refuses a relative path"
like "$OUT" "--root needs an absolute path, not 'sh'" "and says why"
vm 'rm -f /tmp/cc-root-prog /tmp/cc-user-prog'
vm_as sst "touch /tmp/share-stop" >/dev/null 2>&1
wait $a
unscoped

# --- stop --message: two ssh -tt logins, the line on both terminals,
# the scope ended and dropped, one end record with the text.
since=$(vm 'date "+%F %T"')
vm_as sst -tt "$hold" > "$W/e.out" 2>&1 < /dev/null &
e=$!
holds 1
vm_as sst -tt "$hold" > "$W/f.out" 2>&1 < /dev/null &
f=$!
holds 2
SBX=$(sandbox_id)
scope=cocoon-$SBX.scope
like "$(rows)" "shared, 2 logins" "both ssh -tt logins are in the shared sandbox"
sleep 2
ok $(kill -0 $e && kill -0 $f; echo $?) "control: without a stop both logins live on"
run vm "cocoonctl stop --message 'back at ten' $SBX"
is "$RC" 0 "stop --message exits 0"
ended $e $f; ok $? "both ssh logins end"
wait $e $f
unlike "$(cat "$W/e.out" "$W/f.out")" "done" "(killed, not by the shared /tmp)"
msg="cocoon: session ended by the administrator (reference $SBX): back at ten"
like "$(tr -d '\r' < "$W/e.out")" "$msg" "the first login's terminal gets the text"
like "$(tr -d '\r' < "$W/f.out")" "$msg" "and the joined one's"
is "$(cat "$W/e.out" "$W/f.out" | grep -cF "$msg")" 2 "once each"
gone "$scope" "stop --message"
S=$(records "$SBX" "$since")
# Stop's own record has the reason; the logins' (result=stopped too)
# have none.
is "$(printf '%s\n' "$S" | grep -c 'result=stopped reason=')" 1 "one record of the stop"
is "$(printf '%s\n' "$S" | grep 'result=stopped' | grep -vc 'reason=')" 2 "and both logins' own end records say result=stopped"
like "$S" "reason=\"cocoonctl stop: back at ten\"" "with the text as its reason"

# --- stop while linger = 10m runs, with KillUserProcesses= both ways:
# the nohup job outlives the logout (the control), stop ends it at once,
# not at the deadline, and its record is the sandbox's only end record
# (none of pid 1's, share=ended, whose linger the kill cut short).
policy 10m
for kill in no yes; do
	logind $kill
	since=$(vm 'date "+%F %T"')
	vm_as sst "setsid nohup sleep 4361 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
	vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sst\"' | wc -l) = 0 ]"
	ok $? "KillUserProcesses=$kill, linger = 10m: the login's session ends"
	SBX=$(sandbox_id)
	scope=cocoon-$SBX.scope
	like "$(rows)" "shared, lingering" "KillUserProcesses=$kill: list shows the sandbox lingering"
	sleep 3
	is "$(vm "pgrep -u sst -fx 'sleep 4361' | wc -l")" 1 "KillUserProcesses=$kill: control: the nohup job outlives the logout"
	is "$(vm "systemctl show -P ActiveState $scope")" "active" "KillUserProcesses=$kill: in its active scope"
	t0=$(date +%s)
	run vm "cocoonctl stop $SBX"
	is "$RC" 0 "KillUserProcesses=$kill: stop during the linger exits 0"
	gone "$scope" "KillUserProcesses=$kill, stop during the linger"
	t=$(( $(date +%s) - t0 ))
	ok $([ $t -lt 120 ]; echo $?) "KillUserProcesses=$kill: it ended at once (${t}s), not at the linger's end"
	# The login's own end record, at its logout, says share=left.
	S=$(records "$SBX" "$since" | grep -vF 'share=left')
	is "$(printf '%s\n' "$S" | grep -c .)" 1 "KillUserProcesses=$kill: one end record of the sandbox"
	like "$S" "result=stopped reason=\"cocoonctl stop\"" "KillUserProcesses=$kill: stop's"
	unlike "$S" "share=ended" "KillUserProcesses=$kill: none of its pid 1's"
done

# --- stop under KillUserProcesses=yes with a login attached: the login,
# its session and the scope end.
policy no
vm_as sst -tt "$hold" > "$W/g.out" 2>&1 < /dev/null &
g=$!
holds 1
SBX=$(sandbox_id)
scope=cocoon-$SBX.scope
is "$(sessions)" 1 "KillUserProcesses=yes: the attached login has its session"
run vm "cocoonctl stop --message 'kill=yes' $SBX"
ended $g; ok $? "KillUserProcesses=yes: stop ends the attached login"
wait $g
like "$(tr -d '\r' < "$W/g.out")" "(reference $SBX): kill=yes" "KillUserProcesses=yes: whose terminal is told"
gone "$scope" "KillUserProcesses=yes, stop with a login attached"
logind no

# The control of the records: without a stop, at the linger's end, pid 1
# writes the sandbox's end record (share=ended).
policy 6s
since=$(vm 'date "+%F %T"')
vm_as sst "setsid nohup sleep 4362 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
SBX=$(sandbox_id)
vm_wait_for "! pgrep -u sst -fx 'sleep 4362'"; ok $? "control: without a stop, linger = 6s ends the job at its end"
vm_wait_for "journalctl -q --no-pager --since '$since' COCOON_USER=sst -o cat | grep -F sandbox=$SBX | grep -q share=ended"
ok $? "control: and pid 1 writes the sandbox's end record, share=ended"
unscoped

# --- two first logins at the same moment: one sandbox, one pid 1, one
# scope, both logins in it; three rounds. The ssh handshakes spread two
# logins wider than the window pam_cocoon's slot lock guards, so a
# barrier just before pam_cocoon (pam_exec) lets both on at once.
policy no
vm "printf '%s\n' '#!/bin/sh' 'touch /run/cc-race/\$\$' \
	'for i in \$(seq 6000); do [ \$(ls /run/cc-race | wc -l) -ge 2 ] && exit 0; sleep 0.005; done' \
	> /root/cc-race.sh && chmod 755 /root/cc-race.sh &&
	sed -i '/^session required pam_cocoon.so\$/i session optional pam_exec.so /root/cc-race.sh' /etc/pam.d/sshd"
for round in 1 2 3; do
	vm 'rm -rf /run/cc-race; mkdir /run/cc-race'
	login r1
	login r2
	holds 2
	wait_output "$W/r1.out"; wait_output "$W/r2.out"
	ns1=$(head -n 1 "$W/r1.out")
	ns2=$(head -n 1 "$W/r2.out")
	ok $([ -n "$ns1" ] && [ "$ns1" = "$ns2" ] && [ "$ns1" != "$ns_host" ]; echo $?) \
		"race $round: both logins are in one pid namespace ($ns1, $ns2)"
	is "$(vm 'pgrep -x cocoon-init | wc -l')" 1 "race $round: one pid 1"
	is "$(scopes | grep -c .)" 1 "race $round: one scope"
	like "$(rows)" "shared, 2 logins" "race $round: list counts both logins in it"
	vm_as sst "touch /tmp/share-stop" >/dev/null 2>&1
	wait $r1 $r2
	unscoped
done
vm_sshd_cocoon
vm 'rm -rf /root/cc-race.sh /run/cc-race'

# --- a policy change between logins (pids-max, so another plan hash):
# the next login is not refused and gets a sandbox of its own, in a
# scope of its own, beside the first; the first policy again, the next
# login joins the first sandbox (the control).
policy no 300
login p1 'echo from-p1 > /tmp/share-mark; echo marked'
wait_output "$W/p1.out" marked
SBX=$(sandbox_id)
policy no 301
login p2 'cat /tmp/share-mark'
holds 2
wait_output "$W/p1.out"; wait_output "$W/p2.out"
ns1=$(head -n 1 "$W/p1.out")
ns2=$(head -n 1 "$W/p2.out")
ok $([ -n "$ns2" ] && [ "$ns1" != "$ns2" ]; echo $?) "after a policy change the next login has a sandbox of its own ($ns1, $ns2)"
unlike "$(cat "$W/p2.out")" "from-p1" "with a /tmp of its own"
SBX2=$(sandbox_id | grep -vx "$SBX")
is "$(scopes | sort)" "$(printf '%s\n' "cocoon-$SBX.scope" "cocoon-$SBX2.scope" | sort)" \
	"and a scope of its own, beside the first sandbox's"
is "$(rows | grep -c ' shared, 1 login')" 2 "list shows two sandboxes, one login each"
policy no 300
run vm_as sst "$pidns; cat /tmp/share-mark"
is "$OUT" "$ns1
from-p1" "control: under the first policy again, the next login joins the first sandbox"
# enter would refuse the second sandbox (its plan is no longer the policy's): stop both.
vm "cocoonctl stop $SBX; cocoonctl stop $SBX2" >/dev/null 2>&1
wait $p1 $p2
unscoped

# --- logind's RemoveIPC=yes with linger = yes: at the user's last
# logout logind removes the SysV segment and the POSIX shm object the
# user made on the host (the control), not those made in the sandbox,
# which has its own ipc namespace and /dev/shm.
policy yes
vm 'setpriv --reuid sst --regid sst --clear-groups sh -c "ipcmk -M 4096 && touch /dev/shm/cc-ipc-host"' >/dev/null
run vm "ipcs -m | awk '\$3 == \"sst\"' | wc -l; ls /dev/shm/cc-ipc-host"
is "$OUT" "1
/dev/shm/cc-ipc-host" "control: the user has a SysV segment and a POSIX shm object on the host"
run vm_as sst "ipcmk -M 8192 >/dev/null && touch /dev/shm/cc-ipc-sbx && ipcs -m | grep -c ' 8192 '; ls /dev/shm"
is "$OUT" "1
cc-ipc-sbx" "a login makes a segment and an object in the sandbox (its /dev/shm has only that)"
SBX=$(sandbox_id)
vm_wait_for "! loginctl show-user sst >/dev/null 2>&1"; ok $? "after the last logout logind lets go of the user"
like "$(rows)" "shared, lingering" "while the sandbox lingers"
vm_wait_for "[ \$(ipcs -m | awk '\$3 == \"sst\"' | wc -l) = 0 ] && [ ! -e /dev/shm/cc-ipc-host ]"
ok $? "control: RemoveIPC=yes removed the user's segment and object on the host"
run vm "cocoonctl enter $SBX -- /bin/sh -c 'ipcs -m | grep -c \" 8192 \"; ls /dev/shm' | tr -d '\r'"
is "$OUT" "1
cc-ipc-sbx" "the sandbox's segment and object are still there"
run vm "cocoonctl stop $SBX"
gone "cocoon-$SBX.scope" "stop with linger = yes"

done_testing
