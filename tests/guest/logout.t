#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest session leaves nothing behind: no process, SysV IPC object,
# POSIX message queue, /dev/shm file, temporary file or home file
# survives logout, through sshd with pam_cocoon and through su with
# cocoon-shell, on the shipped conf/examples/guest.conf. The control runs
# the same commands as the user on the host, where each object survives.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
SSHD_SERVICE=cocoon-test-sshd-guest-$T
work=$(mktemp -d /run/cocoon-guest-logout.XXXXXX)
chmod 0755 "$work"
mkdir -m 0700 "$work/mq"
cleanup() {
	sshd_cleanup
	mountpoint -q "$work/mq" && umount "$work/mq"
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_group ccgg$T
add_user ccg5$T -G ccgg$T
add_user ccg6$T -G ccgg$T -s "$SHELL_BIN"
policy_reset
sed "s/^\\[group cocoon-guest\\]\$/[group ccgg$T]/" "$(dirname "$0")/../../conf/examples/guest.conf" |
	policy_write cocoon.conf
run "$CTL" check
# Whether the accounts' pty totals fit the host's pty pool depends on how
# many accounts the host has, not on the policy (tests/limits/pty.t).
others=$(printf '%s\n' "$OUT" | grep ': warning: ' | grep -v 'pty-max-user totals of the')
is "$others" "" "the example guest policy passes check without a warning"
like "$OUT" "policy OK (1 file, 3 sections, " "and check passes it"
# The host ipc namespace's message queues, to look for survivors.
mount -t mqueue mqueue "$work/mq"
mounts_before=$(wc -l < /proc/self/mountinfo)

# One of each object, named after the user; mq_open must succeed under
# the Landlock wall too (it works in the ipc namespace's internal mqueue
# mount, which the wall lets through).
objects() {
	echo "sleep 4207 >/dev/null 2>&1 </dev/null &
	ipcmk -M 4096 >/dev/null && ipcmk -Q >/dev/null && ipcmk -S 1 >/dev/null &&
	/usr/bin/python3 -c 'import ctypes, os
rt = ctypes.CDLL(\"librt.so.1\")
exit(rt.mq_open(b\"/ccgq-$1\", os.O_CREAT | os.O_RDWR, 0o600, None) < 0)' &&
	echo x > /dev/shm/ccg-$1 && echo x > /tmp/ccg-$1 && echo x > /var/tmp/ccg-$1 &&
	mkdir ~/ccg-dir && echo made"
}

# What of USER's is on the host: live processes, IPC objects, queues,
# files, home files.
survivors() {
	local u=$1 n
	n=$(ps -u "$u" -o stat= | grep -vc '^Z')
	printf 'processes=%s ' "$n"
	printf 'shm=%s ' "$(ipcs -m | awk -v u="$u" '$3 == u' | wc -l)"
	printf 'msg=%s ' "$(ipcs -q | awk -v u="$u" '$3 == u' | wc -l)"
	printf 'sem=%s ' "$(ipcs -s | awk -v u="$u" '$3 == u' | wc -l)"
	printf 'mq=%s ' "$(ls "$work/mq" | grep -cx "ccgq-$u")"
	printf 'files=%s ' "$(ls /dev/shm/ccg-$u /tmp/ccg-$u /var/tmp/ccg-$u 2>/dev/null | wc -l)"
	printf 'home=%s\n' "$(ls -d /home/$u/ccg-dir 2>/dev/null | wc -l)"
}
NOTHING="processes=0 shm=0 msg=0 sem=0 mq=0 files=0 home=0"

# Through sshd and pam_cocoon (service mode).
sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccg5$T
run ssh_as ccg5$T "$(objects ccg5$T); ls /dev/mqueue; cat /proc/1/comm; stat -c '%U %a' ~ /tmp"
is "$OUT" "made
ccgq-ccg5$T
cocoon-init
ccg5$T 700
root 1777" "ssh: a guest session makes one of each object in a tmpfs home and a private /tmp"
wait_gone ccg5$T
is "$(survivors ccg5$T)" "$NOTHING" "ssh: nothing of it survives logout"

# Through su with cocoon-shell.
run su - ccg6$T -c "$(objects ccg6$T); ls /dev/mqueue; cat /proc/1/comm"
is "$OUT" "made
ccgq-ccg6$T
cocoon-init" "su: a guest session makes one of each object"
wait_gone ccg6$T
is "$(survivors ccg6$T)" "$NOTHING" "su: nothing of it survives logout"
is "$(wc -l < /proc/self/mountinfo)" "$mounts_before" "no mount is left on the host"

# Control: the same commands run as the user on the host leave each one.
run runuser -u ccg6$T -- bash -c "cd; $(objects ccg6$T)"
is "$OUT" "made" "control: the objects made on the host"
is "$(survivors ccg6$T)" "processes=1 shm=1 msg=1 sem=1 mq=1 files=3 home=1" \
	"control: without the sandbox every one survives"
for pid in $(pgrep -u ccg6$T -x sleep); do kill "$pid"; done
for id in $(ipcs -m | awk -v u="ccg6$T" '$3 == u { print $2 }'); do ipcrm -m "$id"; done
for id in $(ipcs -q | awk -v u="ccg6$T" '$3 == u { print $2 }'); do ipcrm -q "$id"; done
for id in $(ipcs -s | awk -v u="ccg6$T" '$3 == u { print $2 }'); do ipcrm -s "$id"; done
rm -f "$work/mq/ccgq-ccg6$T" /dev/shm/ccg-ccg6$T /tmp/ccg-ccg6$T /var/tmp/ccg-ccg6$T
wait_gone ccg6$T
is "$(survivors ccg6$T)" "processes=0 shm=0 msg=0 sem=0 mq=0 files=0 home=1" "control objects removed"

done_testing
