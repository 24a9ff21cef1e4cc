#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A shared sandbox through pam_cocoon under systemd and journald (Debian's
# sshd stack), what make check proves on a host without them:
# - a login that joins, with a pty, has every wall a new login has: no
#   capability, no_new_privs, the seccomp filter, and a controlling
#   terminal of its own in the sandbox's devpts;
# - the journal has the share records (created, joined, left, ended)
#   with their fields, the sandbox's id in each;
# - a login whose shell was changed since the sandbox was made (chsh, to
#   one the tree does not cover) is refused and told so, while the
#   sandbox and its login go on; with the shell back, the next login
#   joins (the control);
# - max-session-time ends a lingering shared sandbox in its scope: the
#   job, the scope and the user's processes go, and the end record says
#   expired. The control: before the deadline the job is alive.
. "$(dirname "$0")/../lib.sh" vm

vm_sshd_cocoon
vm_user sdw
uid=$(vm 'id -u sdw')
policy() { # policy EXTRA...: sdw shares, with EXTRA lines
	local extra="" l
	for l in "$@"; do extra="$extra '$l'"; done
	vm "printf '%s\n' '[user sdw]' 'profile = default' 'share-sandbox = yes' $extra \
		'[default]' 'sandbox = none' > /etc/cocoon/cocoon.conf && cocoonctl check >/dev/null 2>&1"
}
scopes() { vm "systemctl list-units --no-legend --plain 'cocoon-*.scope' | awk '{ print \$1 }'"; }
journal() { # journal SINCE FILTER...: sdw's cocoon records since SINCE
	local since=$1; shift
	vm "journalctl -q --no-pager --since '$since' COCOON_USER=sdw $* -o cat"
}
W=$(mktemp -d /tmp/cc-vm-walls.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	rm -rf "$W"
	vm 'usermod -s /bin/bash sdw
		for id in $(cocoonctl list | awk "\$2 == \"sdw\" && !/ joined / { print \$1 }"); do
			cocoonctl stop $id; done
		pkill -KILL -u sdw' >/dev/null 2>&1
}
trap cleanup EXIT
pidns='stat -L -c %i /proc/self/ns/pid'
hold='while [ ! -e /tmp/walls-stop ]; do sleep 0.3; done; echo done'

# --- a login that joins: its walls and its terminal
policy
since=$(vm 'date "+%F %T"')
vm_as sdw "$pidns; $hold" > "$W/a.out" 2>&1 < /dev/null &
a=$!
vm_wait_for "pgrep -u sdw -f walls-stop"
wait_output "$W/a.out"
ns_a=$(head -n 1 "$W/a.out")
P=$(vm_tty_login sdw)
is "$(printf '%s\n' "$P" | head -n 1)" "$ns_a" "a second login, with a pty, joins the first one's sandbox"
like "$P" "CapEff: 0000000000000000" "the joined login has no effective capability"
like "$P" "CapPrm: 0000000000000000" "nor a permitted one"
like "$P" "NoNewPrivs: 1" "it runs with no_new_privs"
like "$P" "Seccomp: 2" "under the seccomp filter"
like_re "$P" "^tty=/dev/pts/[0-9]+$" "its terminal is in the sandbox's devpts, which names it"
tty_nr=$(printf '%s\n' "$P" | sed -n 's/^tty_nr=//p')
ok $([ -n "$tty_nr" ] && [ "$tty_nr" != 0 ]; echo $?) "and is its shell's controlling terminal (tty_nr $tty_nr)"

# --- a changed login shell: refused, told so; the control joins
# The tree covers /bin/bash (and /bin/sh) with cocoon-launch; python3
# stands for a shell it does not cover, which would run without walls.
vm 'usermod -s /usr/bin/python3 sdw'
R=$(vm_as sdw 'print("ran")' 2>&1 < /dev/null)
unlike "$R" "ran" "after chsh, a login that would join runs nothing"
like "$R" "refused by the session policy" "and is told its login was refused"
ref=$(printf '%s\n' "$R" | sed -n 's/.*(reference \([0-9a-f]*\)).*/\1/p' | head -n 1)
like "$(journal "$since" COCOON_EVENT=refuse COCOON_SESSION="$ref")" \
	"the login shell /usr/bin/python3 is not the shared sandbox's" \
	"the journal's refuse record, by the reference, says the shell changed"
is "$(vm "pgrep -u sdw -f walls-stop | wc -l")" 1 "the sandbox and its first login go on"
vm 'usermod -s /bin/bash sdw'
R=$(vm_as sdw "$pidns" 2>&1 < /dev/null)
is "$R" "$ns_a" "control: with the shell back, the next login joins"
vm_as sdw 'touch /tmp/walls-stop' >/dev/null 2>&1 < /dev/null
wait "$a"
like "$(cat "$W/a.out")" "done" "the first login saw the shared /tmp to the end"
vm_wait_for "! pgrep -u sdw >/dev/null"; ok $? "the sandbox ends with its last login"

# --- the share records in the journal
sbx=$(journal "$since" COCOON_EVENT=start COCOON_SHARE=created -o cat | sed -n 's/.* sandbox=\([0-9a-f]*\) .*/\1/p' | head -n 1)
ok $([ -n "$sbx" ]; echo $?) "journal: the first login's start record says share=created ($sbx)"
# B, the control and the login that ended A joined; the refused one did not.
is "$(journal "$since" COCOON_EVENT=start COCOON_SHARE=joined COCOON_SANDBOX="$sbx" | wc -l)" 3 \
	"journal: the three logins that joined say share=joined, with the sandbox's id"
is "$(journal "$since" COCOON_EVENT=end COCOON_SHARE=left COCOON_SANDBOX="$sbx" | wc -l)" 4 \
	"journal: they and the first say share=left at their ends"
is "$(journal "$since" COCOON_EVENT=end COCOON_SHARE=ended COCOON_SESSION="$sbx" | wc -l)" 1 \
	"journal: the sandbox's pid 1 says share=ended once, under the sandbox's id"

# --- max-session-time ends a lingering shared sandbox, in its scope
policy 'linger = yes' 'max-session-time = 30s'
since=$(vm 'date "+%F %T"')
vm_as sdw "setsid nohup sleep 4380 >/dev/null 2>&1 < /dev/null & sleep 0.5" >/dev/null 2>&1
vm_wait_for "[ \$(loginctl list-sessions --no-legend | awk '\$3 == \"sdw\"' | wc -l) = 0 ]"
scope=$(scopes)
is "$(vm "pgrep -u sdw -fx 'sleep 4380' | wc -l")" 1 "control: after the logout, the nohup job lingers"
like "$(vm "systemctl show -P ActiveState $scope")" "active" "in the sandbox's scope ($scope)"
vm_wait_for "! pgrep -u sdw -fx 'sleep 4380'"; ok $? "max-session-time ends the job"
vm_wait_for "[ -z \"\$(systemctl list-units --all --no-legend 'cocoon-*.scope')\" ]"; ok $? "systemd drops the scope"
is "$(vm 'pgrep -u sdw | wc -l')" 0 "no process of the user is left"
E=$(journal "$since" COCOON_EVENT=end COCOON_SHARE=ended)
like "$E" "result=expired" "the sandbox's end record says expired"
done_testing
