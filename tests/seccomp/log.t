#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seccomp-log = yes: a refused system call reaches the kernel's audit log
# (type 1326 records, printed by the kernel when no auditd takes them),
# through cocoonctl run and through pam_cocoon's launcher; without it,
# the same refusal leaves no record.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-seclog-$T
trap 'sshd_cleanup; policy_reset; cleanup_users' EXIT

if ! dmesg >/dev/null 2>&1; then
	skip "the kernel log cannot be read here"
	done_testing
	exit
fi
add_user ccslog1$T || { echo "Bail out! useradd"; exit 1; }
uid=$(id -u ccslog1$T)
policy_reset
with_log() {
	printf '[profile p]\nprofile = default\nseccomp-log = %s\n[default]\nprofile = p\n' "$1" |
		policy_write cocoon.conf
}
# mark: a line of our own in the kernel log, and its text. Counting lines
# would not do: a full ring buffer drops old lines as new ones come.
mark() {
	local m
	m="cocoon-seccomp-log-test $$ mark $(date +%s%N)"
	echo "$m" > /dev/kmsg
	echo "$m"
}
# records MARK: the seccomp records of the test user's unshare calls (272)
# logged after MARK. The kernel prints audit records rate-limited when no
# auditd takes them: give it a moment.
records() {
	sleep 0.5
	dmesg | awk -v m="$1" 'index($0, m) { seen = 1; next } seen' |
		grep -c "type=1326 .* uid=$uid .*comm=\"unshare\" .*syscall=272 "
}

with_log no
before=$(mark)
run "$CTL" run --user ccslog1$T -- /usr/bin/unshare -U true
like "$OUT" "Operation not permitted" "control: unshare -U is refused by the filter"
is "$(records "$before")" 0 "control: without seccomp-log, no audit record"

with_log yes
run "$CTL" explain ccslog1$T
like "$OUT" "(refusals logged)" "explain shows seccomp-log"
before=$(mark)
run "$CTL" run --user ccslog1$T -- /usr/bin/unshare -U true
like "$OUT" "Operation not permitted" "with seccomp-log the call is still refused"
is "$(records "$before")" 1 "and the kernel logs the refusal, with the uid, command and call"

# Through pam_cocoon, where cocoon-launch loads the filter.
sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccslog1$T
before=$(mark)
run ssh_as ccslog1$T "/usr/bin/unshare -U true; cat /proc/1/comm"
like "$OUT" "cocoon-init" "an ssh session in the sandbox"
is "$(records "$before")" 1 "through pam_cocoon the refusal is logged too"
with_log no
before=$(mark)
run ssh_as ccslog1$T "/usr/bin/unshare -U true"
is "$(records "$before")" 0 "control: and not without seccomp-log"

done_testing
