#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Logins through the real services of a systemd host: sshd started by
# systemd with pam_cocoon in the real /etc/pam.d/sshd as pam_cocoon(8)
# gives it, su -, sudo -i, login on a pty; a user whose login shell is
# cocoon-shell; logind's view of each session.
. "$(dirname "$0")/../lib.sh" vm
HERE=$(cd "$(dirname "$0")" && pwd)

# The two lines in the service files whose names are fixed (Debian 12's
# sudo -i has a service of its own, sudo-i); put back as Debian has them
# at the end, for the tests after this one.
STACKS="sshd su sudo sudo-i login"
restore() { local s; for s in $STACKS; do vm "cp /root/$s.pam /etc/pam.d/$s"; done; }
trap restore EXIT
for s in $STACKS; do
	vm "test -f /root/$s.pam || cp /etc/pam.d/$s /root/$s.pam; cp /root/$s.pam /etc/pam.d/$s &&
		sed -i '0,/^session/s//session required pam_cocoon.so return\n&/' /etc/pam.d/$s &&
		awk '/^session|^@include common-session/ { last = NR } { line[NR] = \$0 }
			END { for (i = 1; i <= NR; i++) { print line[i]; if (i == last)
				print \"session required pam_cocoon.so\" } }' /etc/pam.d/$s > /tmp/p &&
		cat /tmp/p > /etc/pam.d/$s"
done
vm 'cat > /etc/cocoon/cocoon.conf <<EOF
# PAM mode for ccp on every service; cocoon-shell for ccs.
[user ccp]
profile = default
[user ccs]
service = shell
profile = default
[default]
sandbox = none
EOF'
vm_user ccp
vm_user ccs -s /usr/bin/cocoon-shell
run vm 'cocoonctl check --pam'
is "$RC" 0 "check --pam passes: four stacks as documented, Debian's sshd_config"
like "$OUT" "warning: sshd: TCP forwarding" "and says what sshd still does beside cocoon-shell"

# --- sshd, PAM mode
run vm_as ccp 'cat /proc/1/comm; grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status'
is "$OUT" "cocoon-init
NoNewPrivs:	1
Seccomp:	2" "ssh through systemd's sshd: sandboxed, filtered"

# --- logind: the session while it lasts, gone at logout
sock=$VM_DIR/ccp-master
ssh "${VM_SSH_OPTS[@]}" -M -S "$sock" -fN ccp@127.0.0.1
sid=$(vm "loginctl list-sessions --no-legend | awk '\$3 == \"ccp\" { print \$1 }'")
run vm "loginctl show-session $sid -p Name -p Class -p State -p Remote -p Service"
like "$OUT" "Name=ccp" "loginctl lists the sandboxed ssh session, for its user"
like "$OUT" "Class=user" "class user"
like "$OUT" "State=active" "active"
like "$OUT" "Service=sshd" "opened by sshd"
run ssh -S "$sock" x 'cat /proc/self/cgroup'
is "$OUT" "0::/user.slice/user-$(vm 'id -u ccp').slice/session-$sid.scope" \
	"its processes are in the session's scope (seen from inside, no cgroup namespace)"
ssh -S "$sock" -O exit x 2>/dev/null
for i in $(seq 50); do vm "loginctl show-session $sid >/dev/null 2>&1" || break; sleep 0.5; done
run vm "loginctl show-session $sid -p State"
[ "$RC" -ne 0 ]; ok $? "after logout the session is gone from logind"

# --- su -, sudo -i, login on a pty
run vm 'su - ccp -c "cat /proc/1/comm; grep Seccomp: /proc/self/status"'
is "$OUT" "cocoon-init
Seccomp:	2" "su - ccp: sandboxed"
run vm 'sudo -i -u ccp sh -c "cat /proc/1/comm; grep Seccomp: /proc/self/status"'
is "$OUT" "cocoon-init
Seccomp:	2" "sudo -i -u ccp: sandboxed (the policy names every service)"
run vm 'printf "cat /proc/1/comm; grep Seccomp: /proc/self/status; exit\n" |
	script -qec "login -f ccp" /dev/null | tr -d "\r"'
like "$OUT" "cocoon-init" "login on a pty: sandboxed"
like "$OUT" "Seccomp:	2" "and filtered"

# --- cocoon-shell through the real sshd, with the user's planted files
vm "install -d -o ccs /home/ccs/t && cat > /home/ccs/t/r.c" < "$HERE/../escape/report.c"
vm 'cc -shared -fPIC -o /home/ccs/t/r.so /home/ccs/t/r.c && chmod 0755 /home/ccs/t/r.so &&
	printf "LD_PRELOAD DEFAULT=/home/ccs/t/r.so\n" > /home/ccs/.pam_environment &&
	echo true > /home/ccs/.ssh/rc && chown ccs /home/ccs/.pam_environment /home/ccs/.ssh/rc'
run vm_as ccs 'cat /proc/1/comm; grep Seccomp: /proc/self/status'
is "$OUT" "cocoon-init
Seccomp:	2" "a cocoon-shell account through systemd's sshd: its own sandbox"
is "$(vm 'cat /home/ccs/t/reports 2>/dev/null')" "" \
	"~/.pam_environment's LD_PRELOAD runs nowhere (pam_cocoon cut it before sshd's /bin/sh)"
vm 'cp /root/sshd.pam /etc/pam.d/sshd'
vm_as ccs true >/dev/null 2>&1
like "$(vm 'cat /home/ccs/t/reports 2>/dev/null')" "seccomp=0" \
	"control: with Debian's own stack it runs, unfiltered, in sshd's /bin/sh"
run vm 'cocoonctl check --pam'
like "$OUT" "/etc/pam.d/sshd:47: error: service sshd: pam_env user_readenv=1" \
	"and check --pam refuses that stock stack while a cocoon-shell account exists"
vm 'rm -f /home/ccs/t/reports /home/ccs/.pam_environment /home/ccs/.ssh/rc'

# --- the other order: pam_cocoon's plain line above pam_systemd
vm "cp /root/sshd.pam /etc/pam.d/sshd && sed -i '0,/^session/s//session required pam_cocoon.so return\n&/' /etc/pam.d/sshd &&
	sed -i 's/^@include common-session$/session required pam_cocoon.so\n&/' /etc/pam.d/sshd"
run vm 'cocoonctl check --pam'
like "$OUT" "error: service sshd: pam_permit.so comes after pam_cocoon.so's confining line (/etc/pam.d/sshd:" \
	"pam_systemd (common-session) after the plain line: check --pam refuses"
done_testing
