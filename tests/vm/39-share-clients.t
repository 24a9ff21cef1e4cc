#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The clients people keep work with, in a shared sandbox under systemd:
# - screen started in one login is attached from the next, over ssh with
#   a pty, through pam_cocoon and with cocoon-shell as the login shell
#   (whose joined login's terminal the sandbox names /dev/console-ID);
# - mosh, whose server outlives the ssh login that started it, runs in
#   the sandbox of a concurrent login, and with linger needs none. The
#   control: with neither, the sandbox ends with that ssh login, and the
#   mosh client never connects.
# The client runs in the guest (mosh's UDP stays on the guest's loopback).
. "$(dirname "$0")/../lib.sh" vm

vm_sshd_cocoon
vm_user sdm
vm_user ssm -s /usr/bin/cocoon-shell
policy() { # policy LINGER
	vm "printf '%s\n' '[user sdm]' 'profile = default' 'share-sandbox = yes' 'linger = $1' \
		'[user ssm]' 'service = shell' 'profile = default' 'share-sandbox = yes' \
		'[default]' 'sandbox = none' > /etc/cocoon/cocoon.conf && cocoonctl check >/dev/null 2>&1"
}
W=$(mktemp -d /tmp/cc-vm-clients.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	vm 'rm -f /root/.ssh/cc_mosh /root/cc-mosh.sh /tmp/clients-stop
		for u in sdm ssm; do
			for id in $(cocoonctl list | awk -v u=$u "\$2 == u && !/ joined / { print \$1 }"); do
				cocoonctl stop $id; done
			pkill -KILL -u $u; userdel -r $u
		done' >/dev/null 2>&1
}
trap cleanup EXIT
pidns='stat -L -c %i /proc/self/ns/pid'
hold='while [ ! -e /tmp/clients-stop ]; do sleep 0.3; done; echo done'
policy no

# --- screen -r across logins, in both modes
for u in sdm ssm; do
	mode="pam_cocoon"; [ $u = ssm ] && mode="cocoon-shell"
	vm_as $u "$pidns; screen -dmS work sleep 4391; echo started=\$?; $hold" > "$W/$u.out" 2>&1 < /dev/null &
	a=$!
	wait_output "$W/$u.out" started=
	like "$(cat "$W/$u.out")" "started=0" "$mode: screen -dmS work starts in a login"
	# The detach comes from beside, once screen -ls says it is attached.
	R=$(vm_as $u -tt "export TERM=xterm
		(for i in \$(seq 150); do screen -ls | grep -q 'work.*Attached' && break; sleep 0.2; done
		 screen -S work -X detach) &
		timeout 60 screen -r work; echo rc=\$?" 2>&1 | tr -d '\r' |
		grep -oE '\[detached from [0-9]+\.work\]|rc=[0-9]+' | tr '\n' ' ')
	like "$R" "[detached from " "$mode: screen -r work attaches from the next login, over ssh -tt"
	like "$R" ".work] rc=0" "$mode: and detaches, screen -r exiting 0"
	vm_as $u "touch /tmp/clients-stop" >/dev/null 2>&1 < /dev/null
	wait $a
	vm_wait_for "! pgrep -u $u >/dev/null"; ok $? "$mode: the sandbox ends with its last login, screen and all"
done

# --- mosh, from the guest's root to sdm on the guest's sshd
vm_put "$VM_KEY" /root/.ssh/cc_mosh
vm 'chmod 0600 /root/.ssh/cc_mosh'
# mosh_vm SECONDS CMD: the real mosh client, in a terminal of script(1)'s,
# logging in as sdm and running CMD under sh; the terminal's text (less
# escape sequences) in OUT, the client's status in RC.
mosh_vm() {
	printf 'stty rows 24 cols 80\nexport TERM=xterm LANG=C.UTF-8 LC_ALL=C.UTF-8\nexec mosh --ssh=%q sdm@127.0.0.1 -- sh -c %q\n' \
		"ssh -i /root/.ssh/cc_mosh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR" \
		"$2" > "$W/mosh.sh"
	vm_put "$W/mosh.sh" /root/cc-mosh.sh
	OUT=$(vm "timeout -k 5 $1 script -qfec 'bash /root/cc-mosh.sh' /dev/null < /dev/null; echo rc=\$?" 2>&1 |
		sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][A-Z0-9]//g' -e 's/\x1b[=>]//g' \
			-e 's/\x1b\][^\x07]*\x07//g' -e 's/\r//g')
	RC=$(printf '%s\n' "$OUT" | sed -n 's/^rc=//p' | tail -n 1)
}
vm_as sdm "$pidns; echo from-ssh > /tmp/mosh-mark; echo marked; $hold" > "$W/m.out" 2>&1 < /dev/null &
a=$!
wait_output "$W/m.out" marked
ns_a=$(head -n 1 "$W/m.out")
mosh_vm 120 "echo ns=\$($pidns); cat /tmp/mosh-mark; sleep 1"
is "$RC" 0 "mosh through sshd with pam_cocoon ends as its command does"
like "$OUT" "ns=$ns_a" "its command runs in the concurrent ssh login's sandbox ($ns_a)"
like "$OUT" "from-ssh" "and sees its /tmp"
[ "$RC" = 0 ] || printf '%s\n' "$OUT" | head -n 20 | sed 's/^/# /'
vm_as sdm "touch /tmp/clients-stop" >/dev/null 2>&1 < /dev/null
wait $a
vm_wait_for "! pgrep -u sdm >/dev/null"; ok $? "the sandbox ends with its last login"

# The control: no linger and no other login. mosh-server ends with the
# sandbox, which ends with the ssh login that started it.
mosh_vm 40 "echo reached-the-command"
ok $([ "$RC" != 0 ]; echo $?) "control: with linger = no and no other login mosh does not connect (status $RC)"
unlike "$OUT" "reached-the-command" "control: its command's output never reaches the client"
vm_wait_for "! pgrep -u sdm >/dev/null"; ok $? "control: nothing of that sandbox is left, mosh-server neither"

policy 60s
mosh_vm 120 "echo ns=\$($pidns); echo alone > /tmp/mosh-mark; sleep 1"
is "$RC" 0 "with linger, mosh alone works (no other login holds the sandbox)"
ns_m=$(printf '%s\n' "$OUT" | sed -n 's/.*ns=\([0-9]*\).*/\1/p' | head -n 1)
L=$(vm_as sdm "$pidns; cat /tmp/mosh-mark" 2>&1 < /dev/null)
like "$L" "$ns_m" "a later ssh login joins the sandbox mosh ran in ($ns_m)"
like "$L" "alone" "and sees its /tmp"
done_testing
