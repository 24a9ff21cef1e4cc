#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kiosk accounts: `command` forces one program, through cocoon-shell (su
# in its forms) and through pam_cocoon in a real sshd (a pty login, ssh
# CMD, scp, sftp); the sshd_config Match block of pam_cocoon(8) stops
# what sshd runs without the shell (internal-sftp, forwarding). The
# installed example policy and menu are what runs.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
SSHD_SERVICE=cocoon-test-sshd-kiosk-$T
MENU=$COCOON_ROOT/usr/libexec/cocoon/kiosk-menu
EXAMPLE=$COCOON_ROOT/usr/share/doc/cocoon/examples/kiosk.conf
work=$(mktemp -d /run/cocoon-kiosk-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_group cckg$T
add_user cck1$T -s "$SHELL_BIN" -G cckg$T
add_user cck2$T -s "$SHELL_BIN"
# Through pam_cocoon the kiosk's login shell must be one /etc/shells does
# not list, or su -s would run another: nologin, as the man page says.
add_user cck3$T -G cckg$T -s /usr/sbin/nologin
add_user cck5$T -G cckg$T
add_user cck4$T
policy_reset
# The example as installed; only its group is this test's.
sed "s/cocoon-kiosk/cckg$T/" "$EXAMPLE" | policy_write cocoon.conf

# The example is clean, and explain shows the command.
run "$CTL" check
is "$RC" 0 "cocoonctl check accepts the installed example"
# Whether the accounts' pty totals fit the host's pty pool depends on how
# many accounts the host has, not on the policy (tests/limits/pty.t).
others=$(printf '%s\n' "$OUT" | grep ': warning: ' | grep -v 'pty-max-user totals of the')
is "$others" "" "with no warning"
run "$CTL" explain cck1$T
like "$OUT" "command      $MENU" "explain shows the forced command"
# explain reads the service's own stack: sshd's test service, with
# pam_cocoon (sshd_start writes it again below; sshd_cleanup removes it).
printf 'session required %s/pam_cocoon.so\n' "$PAMDIR" > "/etc/pam.d/$SSHD_SERVICE"
run "$CTL" explain --service "$SSHD_SERVICE" cck3$T
like "$OUT" "never the command: close them with the sshd Match block" \
	"explain for sshd points at the Match block"
# The example's tmpfs home and limits have no bubblewrap equivalent: the
# command alone, on the default profile.
printf '[profile k]\nprofile = default\ncommand = %s\n[default]\nprofile = k\n' "$MENU" |
	policy_write cocoon.conf
run "$CTL" explain --bwrap cck1$T
like "$OUT" "--die-with-parent -- $MENU" "the bwrap rendering runs the command"
sed "s/cocoon-kiosk/cckg$T/" "$EXAMPLE" | policy_write cocoon.conf

# ---- cocoon-shell, through su as root ----
run su cck1$T -c id </dev/null
like "$OUT" "kiosk menu" "su USER -c id runs the menu"
like "$OUT" "you asked for: id" "which is told what was asked"
unlike "$OUT" "uid=" "id never runs"
run su - cck1$T </dev/null
like "$OUT" "kiosk menu" "su - USER runs the menu"
unlike "$OUT" "you asked for" "a login asks for nothing"
like "$OUT" "goodbye" "and the end of input ends it"
run su -l cck1$T -c 'echo ES""CAPED' </dev/null
unlike "$OUT" "ESCAPED" "su -l USER -c CMD runs the menu only"
run su -f cck1$T -c 'echo ES""CAPED' </dev/null
unlike "$OUT" "ESCAPED" "su -f USER -c CMD too"
run su -s "$SHELL_BIN" cck1$T -c 'echo ES""CAPED' </dev/null
unlike "$OUT" "ESCAPED" "su -s cocoon-shell USER -c CMD too"
like "$OUT" "kiosk menu" "(the menu ran)"
run runuser -u cck1$T -- "$SHELL_BIN" --norc -i -x -c 'echo ES""CAPED' </dev/null
unlike "$OUT" "ESCAPED" "unknown options do not matter"
run runuser -u cck1$T -- "$SHELL_BIN" -c 'echo ES""CAPED; cat /proc/1/comm' </dev/null
unlike "$OUT" "ESCAPED" "run directly, cocoon-shell runs the menu"
# The menu's own status is the session's.
run su cck1$T -c x <<<'q'
is "$RC" 0 "the menu's exit status is the session's"
run su cck1$T -c 'pid 1?' <<<'1'
like "$OUT" "UTC" "a choice runs (date)"
# su -s SHELL as root runs that shell instead of any login shell: root's
# choice, which no login shell sees. (A non-root caller cannot: su ignores
# -s for a target whose shell is not in /etc/shells, as cocoon-shell must
# not be.)
run su -s /bin/sh cck1$T -c 'echo ROOT-CHOSE-SH'
like "$OUT" "ROOT-CHOSE-SH" "su -s /bin/sh as root bypasses the login shell (root's choice)"
grep -qx "$SHELL_BIN" /etc/shells; ok $((! $?)) "cocoon-shell is not in /etc/shells"
# Control: a user outside the group runs what was asked.
run su cck2$T -c 'id -un; cat /proc/1/comm'
is "$OUT" "cck2$T
cocoon-init" "control: a non-kiosk user's su -c id runs id, sandboxed"

# argv is exactly the policy's, and the command's status is the session's.
printf '[user %s]\nprofile = kiosk\ncommand = /bin/echo "a  b" c\n' "cck1$T" |
	policy_write cocoon.d/argv.conf
run su - cck1$T -c 'echo ES""CAPED' x y
is "$OUT" "a  b c" "the command gets the policy's argv, nothing of the caller's"
printf '[user %s]\nprofile = kiosk\ncommand = /bin/sh -c "exit 7"\n' "cck1$T" |
	policy_write cocoon.d/argv.conf
run su cck1$T -c true
is "$RC" 7 "the command's exit status is the session's"
rm -f "$CONF_DIR/cocoon.d/argv.conf"

# ---- pam_cocoon in a real sshd ----
# kiosk_sshd SUBSYSTEM [MATCH-BLOCK]: a fresh test sshd whose sftp is
# SUBSYSTEM, with pam_cocoon (and its `return` line) in the session stack.
kiosk_sshd() {
	sshd_cleanup
	SSHD_EXTRA_CONFIG=${2:-} sshd_start "session required $PAMDIR/pam_cocoon.so" ||
		{ echo "Bail out! sshd"; exit 1; }
	sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		"/etc/pam.d/$SSHD_SERVICE"
	# OpenSSH 9.2 takes one Subsystem line and none in a Match block.
	sed -i "s|^Subsystem sftp .*|Subsystem sftp $1|" "$SSHD_DIR/sshd_config"
	kill -HUP "$SSHD_PID"
	local i
	for i in $(seq 50); do
		sleep 0.1; ss -ltn | grep -q "127.0.0.1:$SSHD_PORT " && break
	done
	sshd_allow cck3$T
	sshd_allow cck4$T
}
SCP() { # SCP scp|sftp ARGS: they take -P for the port
	local prog=$1; shift
	# shellcheck disable=SC2046
	timeout 30 "$prog" $(SSH_OPTS | sed 's/-p /-P /') "$@"
}
kiosk_sshd /usr/lib/openssh/sftp-server
sshd_allow cck5$T
run ssh_as cck5$T id </dev/null
[ "$RC" -ne 0 ]; ok $? "pam_cocoon refuses a kiosk whose login shell /etc/shells lists (su -s would escape)"
unlike "$OUT" "uid=" "and id never runs"

# An interactive pty login runs the menu; quitting ends the session.
on_pty() { # on_pty INPUT USER [ssh args]: OUT, RC
	local input=$1 user=$2; shift 2
	OUT=$( { sleep 2; printf '%s' "$input"; sleep 2; } | SHELL=/bin/bash timeout 30 \
		env --default-signal=INT,QUIT script -qec \
		"ssh -tt $(SSH_OPTS) -l $user 127.0.0.1 $*" /dev/null 2>&1 | tr -d '\r')
	RC=$?
}
on_pty $'2\nq\n' cck3$T
like "$OUT" "kiosk menu" "a pty login through sshd runs the menu"
like "$OUT" "load average" "a choice runs (uptime)"
like "$OUT" "goodbye" "quitting leaves the menu"
unlike "$OUT" "you asked for" "a login asks for nothing"
for i in $(seq 50); do ps -o stat= -u cck3$T | grep -vq '^Z' || break; sleep 0.1; done
is "$(ps -o stat= -u cck3$T | grep -vc '^Z')" "0" "and the session ended: no live process of the user"

run ssh_as cck3$T id </dev/null
like "$OUT" "you asked for: id" "ssh host id runs the menu, told what was asked"
unlike "$OUT" "uid=" "id never runs"
run ssh_as cck3$T 'echo ES""CAPED; cat /proc/1/comm' </dev/null
unlike "$OUT" "ESCAPED" "nor does any other command"
echo "payload" > "$work/up"; chmod 0644 "$work/up"
run SCP scp -q "$work/up" cck3$T@127.0.0.1:up.txt
ok $((! RC)) "scp (sftp protocol, sftp-server through the shell) fails"
run SCP scp -O -q "$work/up" cck3$T@127.0.0.1:up2.txt
ok $((! RC)) "scp -O (scp -t through the shell) fails"
ls /home/cck3$T/up.txt /home/cck3$T/up2.txt >/dev/null 2>&1; ok $((! $?)) "no file arrived"
run SCP sftp -b - cck3$T@127.0.0.1 <<<'ls /'
ok $((! RC)) "sftp through the shell gets the menu, not a server"
# The command running the login shell's path (nologin, covered by the
# launcher) again gets the real shell: a nested launch, not the command
# once more.
nested='/usr/sbin/nologin -c "/usr/sbin/nologin -c %s"'
printf "[user cck3$T]\nprofile = kiosk\ncommand = $nested\n" \
	"'echo nested-\$((6*7)); readlink /proc/\$\$/exe; true'" | policy_write cocoon.d/nested.conf
run ssh_as cck3$T id </dev/null
like "$OUT" "This account is currently not available" \
	"the example's shell = nologin: a nested shell refuses"
unlike "$OUT" "nested-42" "(nothing ran)"
printf "[user cck3$T]\nprofile = kiosk\nshell = /bin/bash\ncommand = $nested\n" \
	"'echo nested-\$((6*7)); readlink /proc/\$\$/exe; true'" | policy_write cocoon.d/nested.conf
run ssh_as cck3$T id </dev/null
is "$OUT" "nested-42
/run/cocoon/shell" "control: with shell = bash a nested launch runs the real shell"
rm -f "$CONF_DIR/cocoon.d/nested.conf"
# Control: a user without the command.
run ssh_as cck4$T id -un </dev/null
is "$OUT" "cck4$T" "control: ssh host id runs id for a non-kiosk user"
run SCP scp -q "$work/up" cck4$T@127.0.0.1:up.txt
is "$RC" 0 "control: scp works for a non-kiosk user"

# What sshd runs without the shell: internal-sftp and forwarding.
# Forwards aim at the host's loopback sshd (its banner: SSH-2.0).
forwards() {
	# FWD_W: ssh -W's complaint; FWD_R: ssh -R's status
	FWD_W=$(ssh_as cck3$T -v -W "127.0.0.1:$SSHD_PORT" </dev/null 2>&1 |
		grep -E '^SSH-2.0|open failed')
	ssh_as cck3$T -o ExitOnForwardFailure=yes -R "127.0.0.1:0:127.0.0.1:$SSHD_PORT" x \
		</dev/null >/dev/null 2>&1
	FWD_R=$?
}
# Control, without the Match block: internal-sftp serves the sandbox's
# files, forwarding lands in the session's own network namespace.
kiosk_sshd internal-sftp
run SCP sftp -b - cck3$T@127.0.0.1 <<<'ls /run/cocoon'
is "$RC" 0 "control: without the Match block internal-sftp serves the kiosk user"
like "$OUT" "launch" "inside the sandbox's file system"
forwards
like "$FWD_W" "connect failed" "control: ssh -W is attempted, inside the session's network namespace"
unlike "$FWD_W" "SSH-2.0" "(where the host's loopback sshd is out of reach)"
is "$FWD_R" 0 "control: ssh -R is accepted"

kiosk_sshd internal-sftp "Match User cck3$T
	DisableForwarding yes
	ForceCommand $MENU"
run SCP sftp -b - cck3$T@127.0.0.1 <<<'ls /run/cocoon'
ok $((! RC)) "with the Match block internal-sftp never runs"
unlike "$OUT" "launch" "and lists nothing"
forwards
like "$FWD_W" "administratively prohibited" "ssh -W (as -L) is refused"
ok $((! FWD_R)) "ssh -R is refused"
run ssh_as cck3$T id </dev/null
like "$OUT" "you asked for: id" "with ForceCommand, sshd's SSH_ORIGINAL_COMMAND is kept"
on_pty $'q\n' cck3$T
like "$OUT" "kiosk menu" "a pty login still runs the menu"
unlike "$OUT" "you asked for" "and asks for nothing"
run SCP sftp -b - cck4$T@127.0.0.1 <<<'ls /'
is "$RC" 0 "control: the block leaves other users' internal-sftp alone"

done_testing
