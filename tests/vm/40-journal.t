#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# journald on a real host: every audit record of cocoon (start, refuse,
# end; pam_cocoon's and cocoon-shell's) in journalctl with its fields
# intact, and seccomp-log's refusals as the kernel's audit lines. A PAM
# session writes nothing to the journal of its own: /dev/log (a link to
# journald's socket here) is root's alone, and the private /run shows no
# journald socket (native, stdout).
. "$(dirname "$0")/../lib.sh" vm

vm 'cp /root/sshd.pam /etc/pam.d/sshd &&
	sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
	sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd'
vm_user ccj
vm_user ccjs -s /usr/bin/cocoon-shell
vm_user ccjr
vm 'cat > /etc/cocoon/cocoon.conf <<EOF
[profile logged]
profile = default
seccomp-log = yes
[user ccj]
profile = logged
[user ccjs]
service = shell
profile = default
[user ccjr]
profile = default
unshare = pid ipc uts user
[default]
sandbox = none
EOF'
since=$(vm 'date "+%Y-%m-%d %H:%M:%S"')
journal() { vm "journalctl -q --no-pager --since '$since' -o cat $1"; }

vm_as ccj 'perl -e "syscall(165, my \$s = \"none\", my \$d = \"/tmp\", my \$f = \"tmpfs\", 0, 0)"' >/dev/null 2>&1
vm_as ccjs true >/dev/null 2>&1
vm_as ccjr true >/dev/null 2>&1
# A forged record from a PAM session, by every way journald takes one.
run vm_as ccj 'logger --socket-errors=on -p authpriv.info -t sshd "pam_cocoon(sshd:session): v=1 event=refuse user=root uid=0 service=sshd result=refused CCJ-FORGED-LOGGER"; echo logger=$?
echo CCJ-FORGED-CAT | systemd-cat -t sshd; echo cat=$?
ls /run/systemd/journal 2>&1 | head -1
readlink /dev/log'
like "$OUT" "logger=1" "a session's logger fails"
unlike "$OUT" "cat=0" "so does systemd-cat (the journal's stdout socket)"
like "$OUT" "No such file or directory" "no journald socket in the session's /run"
like "$OUT" "/run/cocoon/log/dev-log" "/dev/log leads into root's /run/cocoon/log"
sleep 2
run journal ''
unlike "$OUT" "CCJ-FORGED" "nothing of it in the journal"
run journal 'SYSLOG_IDENTIFIER=sshd'
like_re "$OUT" '^pam_cocoon\(sshd:session\): v=1 event=start user=ccj uid=[0-9]+ service=sshd rhost=10\.0\.2\.2 tty=ssh rule="\[user ccj\] at /etc/cocoon/cocoon\.conf:4" profile=logged plan=[0-9a-f]{16} ns=mnt,pid,ipc,uts session=[0-9a-f]{32} result=sandboxed$' \
	"pam_cocoon's start record, whole, in the journal"
like_re "$OUT" '^pam_cocoon\(sshd:session\): v=1 event=end user=ccj service=sshd .* session=[0-9a-f]{32} result=ended duration=[0-9]+$' \
	"its end record"
like_re "$OUT" '^pam_cocoon\(sshd:session\): v=1 event=refuse user=ccjr uid=[0-9]+ service=sshd .* result=refused reason="a user namespace cannot hold a root service' \
	"a refusal, with its quoted reason"
like_re "$OUT" 'event=start user=ccjs .* result=unconfined reason="sandbox = none; cocoon-shell account, environment cut"' \
	"the cut for a cocoon-shell account"
run vm "journalctl -q --no-pager --since '$since' SYSLOG_IDENTIFIER=cocoon-shell -o verbose | grep -E '^ *(MESSAGE|SYSLOG_FACILITY|PRIORITY)='"
like_re "$OUT" 'MESSAGE=v=1 event=start user=ccjs .* session=[0-9a-f]{32} result=sandboxed' \
	"cocoon-shell's start record"
like_re "$OUT" 'MESSAGE=v=1 event=end user=ccjs .* result=ended duration=[0-9]+ status=0' "and its end"
like "$OUT" "SYSLOG_FACILITY=10" "to authpriv (facility 10)"
# One field per key: journalctl finds the records by them.
run vm "journalctl -q --no-pager --since '$since' COCOON_USER=ccj -o verbose | grep -E '^ *(COCOON_[A-Z]+|SYSLOG_IDENTIFIER|PRIORITY)='"
like "$OUT" "COCOON_EVENT=start" "journalctl COCOON_USER=ccj: the start record"
like "$OUT" "COCOON_RESULT=sandboxed" "with COCOON_RESULT"
like "$OUT" "COCOON_RULE=[user ccj] at /etc/cocoon/cocoon.conf:4" "values as they are, not quoted"
like_re "$OUT" "COCOON_SESSION=[0-9a-f]{32}" "the session id"
like "$OUT" "COCOON_EVENT=end" "and the end record"
like "$OUT" "SYSLOG_IDENTIFIER=sshd" "under sshd's name"
run vm "journalctl -q --no-pager --since '$since' COCOON_USER=ccjr COCOON_RESULT=refused -o cat"
like "$OUT" "event=refuse user=ccjr" "journalctl COCOON_RESULT=refused: the refusal"
run vm "journalctl -q --no-pager --since '$since' COCOON_USER=ccjs SYSLOG_IDENTIFIER=cocoon-shell -o cat"
like "$OUT" "event=start user=ccjs" "cocoon-shell's records carry the fields too"
# Once each: the native record only, not also the syslog line.
lines=$(vm "journalctl -q --no-pager --since '$since' SYSLOG_IDENTIFIER=sshd -o cat | grep -c 'event=start user=ccj '")
records=$(vm "journalctl -q --no-pager --since '$since' COCOON_USER=ccj COCOON_EVENT=start -o cat | wc -l")
[ "$records" -ge 1 ]; ok $? "ccj's start records ($records) are there"
is "$lines" "$records" "and each is in the journal once, not again as a syslog line"
run journal '-k'
like_re "$OUT" 'audit: type=1326 .*uid=[0-9]+ .*comm="perl".* syscall=165 ' \
	"seccomp-log = yes: the refused mount as the kernel's audit line"
done_testing
