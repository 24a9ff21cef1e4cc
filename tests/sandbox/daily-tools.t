#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Daily tools under the embedded default profile (issue 26, section 4),
# as throwaway users through `cocoonctl run`, cocoon-shell run by the
# user, and pam_cocoon in a real sshd with a pty: screen and tmux work;
# su, sudo, crontab and the other set-user-ID programs, which gain
# nothing under no-new-privs, say that the session policy stops them;
# `cocoonctl why` shows the user's own rule and walls, no other user's,
# and the policy file is out of the session's reach.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d)
trap 'sshd_cleanup; policy_reset; cleanup_users; rm -rf "$work"' EXIT

add_user cctool1$T
add_user cctool2$T
policy_reset
# cctool1's rule adds the tree under test (below /run, which the
# default profile replaces) so that its cocoonctl is found inside;
# cctool2's rule is another user's, which `why` must not show.
printf '[default]\nsandbox = none\n[user %s]\nprofile = default\nro-bind = %s/usr\n[user %s]\nprofile = default\nhostname = other%s\n' \
	"cctool1$T" "$COCOON_ROOT" "cctool2$T" "$T" | policy_write cocoon.conf
# inside CMD: CMD through sh -c in cctool1's sandbox.
inside() { run "$CTL" run --user cctool1$T -- /bin/sh -c "$1"; }

# screen's socket directory, which Debian's screen (not set-user-ID)
# cannot make in the session's private /run.
inside 'stat -c %a /run/screen'
is "$OUT" "1777" "the default profile makes /run/screen, mode 1777"
if command -v screen >/dev/null; then
	inside 'screen -dmS t sleep 30 && sleep 0.5 && screen -ls; screen -S t -X quit'
	like "$OUT" ".t" "screen starts detached and screen -ls lists it"
else
	skip "screen is not installed on this host"
fi
inside 'tmux -L t new-session -d "sleep 30" && tmux -L t ls; tmux -L t kill-server'
is "$RC" 0 "tmux starts a detached session"
like "$OUT" "0: 1 windows" "and tmux ls lists it"

# Set-user-ID programs: the stub `unavailable` binds over them says so.
inside 'sudo -n true'
is "$RC" 126 "sudo: exit 126"
like "$OUT" "sudo: not available in this session: this host's session policy (cocoon)" \
	"sudo: the message names the session policy"
like "$OUT" "cocoonctl why shows what confines this session" "and says how to ask why"
inside "su - cctool2$T -c true </dev/null"
is "$RC" 126 "su - other: exit 126"
like "$OUT" "su: not available in this session" "su - other: the policy's message"
unlike "$OUT" "Authentication failure" "and not su's own"
if [ -e /usr/bin/crontab ]; then
	inside 'crontab -l'
	is "$RC" 126 "crontab -l: exit 126"
	like "$OUT" "crontab: not available in this session: this host's session policy (cocoon)" \
		"crontab -l: the message names the session policy"
	inside 'echo "* * * * * true" | crontab -'
	is "$RC" 126 "crontab -: exit 126"
	like "$OUT" "crontab: not available in this session: this host's session policy (cocoon)" \
		"crontab -: the message names the session policy"
	unlike "$OUT" "/var/spool/cron" "and not crontab's own about its spool"
	[ ! -e /var/spool/cron/crontabs/cctool1$T ]; ok $? "and no crontab is installed for the user"
else
	inside 'crontab -l; echo "rc=$?"; test -e /usr/bin/crontab || echo absent'
	like "$OUT" "absent" "a program the host lacks (crontab) is skipped: the session starts without it"
fi
inside 'ls -l /usr/bin/sudo /usr/bin/sg; sg root true'
like "$OUT" "sg: not available in this session" "a link to a listed program (sg) reaches the stub"
run "$CTL" run --user cctool1$T -- /bin/bash -c 'exec -a "$(printf "\033[31mevil")" /usr/bin/sudo'
like "$OUT" "this program: not available" "a name with control characters is not printed"
unlike "$OUT" "evil" "nor any of it"
"$CTL" explain cctool1$T > "$work/explain" 2>&1
grep -q '^  unavailable /usr/bin/sudo ' "$work/explain"
ok $? "explain lists the unavailable programs"
"$CTL" explain --bwrap cctool1$T > "$work/bwrap" 2>&1
grep -q -- "--ro-bind $COCOON_ROOT/usr/libexec/cocoon/unavailable /usr/bin/sudo" "$work/bwrap"
ok $? "explain --bwrap binds the stub over them"

# cocoonctl why, as the user inside: what confines this session, from
# the file root wrote there, and no other user's rule.
add_user cctool3$T -s "$SHELL_BIN"
printf '[user %s]\nprofile = default\nro-bind = %s/usr\n' "cctool3$T" "$COCOON_ROOT" |
	policy_write cocoon.d/tool3.conf
for how in run shell; do
	if [ $how = run ]; then
		inside "$CTL why; echo rc=\$?"
	else
		run runuser -u cctool3$T -- "$SHELL_BIN" -c "$CTL why; echo rc=\$?"
	fi
	u=cctool1$T; [ $how = shell ] && u=cctool3$T
	like "$OUT" "rc=0" "$how: cocoonctl why works as the user"
	like_re "$OUT" "session: +[0-9a-f]{32}" "$how: it names the session's id"
	like_re "$OUT" "rule: +\[user $u\] at " "$how: the rule that matched, and where"
	like "$OUT" "profile:     default" "$how: the profile"
	like "$OUT" "no-new-privs yes" "$how: the walls"
	like "$OUT" "unavailable /usr/bin/sudo" "$how: the programs made unavailable"
	unlike "$OUT" "cctool2$T" "$how: not another user's rule"
	unlike "$OUT" "other$T" "$how: nor what it says"
done
inside 'ls -ln /run/cocoon/session; echo forged > /run/cocoon/session; rm -f /run/cocoon/session; cat /run/cocoon/session | head -1'
like_re "$OUT" "^-r--r--r-- 1 0 0 " "the file is root's, mode 0444"
like "$OUT" "Read-only file system" "and the user can neither change nor remove it"
like "$OUT" "session:" "it stays as root wrote it"
run "$CTL" why
is "$RC" 1 "outside a session, cocoonctl why fails"
like "$OUT" "not in a cocoon session" "and says so"

# The policy file as `cocoonctl edit` writes it (and make install and
# the package install it): root's alone, so a session that binds the
# configuration directory does not show other users' rules. Control:
# readable by all, it does.
printf '[user %s]\nprofile = default\nro-bind = %s/usr\nro-bind = %s/etc\n' "cctool3$T" \
	"$COCOON_ROOT" "$COCOON_ROOT" |
	policy_write cocoon.d/tool3.conf
show_policy="cat $CONF_DIR/cocoon.conf; echo rc=\$?"
chmod 0644 "$CONF_DIR/cocoon.conf" # policy_write's files are 0600
run runuser -u cctool3$T -- "$SHELL_BIN" -c "$show_policy"
like "$OUT" "[user cctool2$T]" "control: a policy file readable by all shows another user's rule in a session"
ed=$work/editor
printf '#!/bin/sh\necho "# edited" >> "$1"\n' > "$ed"
chmod 0755 "$ed"
EDITOR=$ed run "$CTL" edit
is "$(stat -c '%U %a' "$CONF_DIR/cocoon.conf")" "root 600" "cocoonctl edit installs the policy root's, 0600"
run runuser -u cctool3$T -- "$SHELL_BIN" -c "$show_policy; $CTL why | grep rule:"
unlike "$OUT" "cctool2$T" "then the session cannot read other users' rules"
like "$OUT" "Permission denied" "(permission denied)"
like "$OUT" "[user cctool3$T]" "and cocoon-shell, set-user-ID root, still reads the policy"

# The same through pam_cocoon in a real sshd's session stack (service
# mode: the engine writes the file beside the launcher's), logged in
# with a pty.
add_user cctool4$T
printf '[user %s]\nprofile = default\nro-bind = %s/usr\n' "cctool4$T" "$COCOON_ROOT" |
	policy_write cocoon.d/tool4.conf
SSHD_PORTS=${SSHD_PORTS:-42400-42499} sshd_start "session required $PAMDIR/pam_cocoon.so" ||
	bail_out "sshd"
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow cctool4$T
run ssh_as cctool4$T -tt "sudo -n true; echo rc=\$?; su - cctool2$T -c true; $CTL why; tmux -L t new-session -d 'sleep 30' && tmux -L t ls; stat -c %a /run/screen" </dev/null
like "$OUT" "sudo: not available in this session" "ssh with a pty: sudo says the session policy stops it"
like "$OUT" "rc=126" "and exits 126"
like "$OUT" "su: not available in this session" "ssh with a pty: so does su - other"
like_re "$OUT" "rule: +\[user cctool4$T\] at " "ssh with a pty: cocoonctl why names the user's rule"
like "$OUT" "service:     $SSHD_SERVICE" "and the service"
unlike "$OUT" "cctool2$T]" "and not another user's rule"
like "$OUT" "0: 1 windows" "ssh with a pty: tmux works"
like "$OUT" "1777" "and /run/screen is there for screen"
sshd_cleanup

# A /run bound from a host directory the user can write: no /run/cocoon
# is made in it (it would stay on the host).
mkdir /home/cctool1$T/hostrun && chown cctool1$T /home/cctool1$T/hostrun
printf '[default]\nsandbox = none\n[user %s]\nprofile = default\nbind = /home/%s/hostrun /run\n' \
	"cctool1$T" "cctool1$T" | policy_write cocoon.conf
rm -f "$CONF_DIR/cocoon.d/"*
inside 'ls /run/cocoon/session'
like "$OUT" "No such file" "a /run from the host: no session file (why then says not in a session)"
[ ! -e /home/cctool1$T/hostrun/cocoon ]; ok $? "nothing is made in the host's directory"

# Control: the same sandbox without `unavailable`: sudo's own advice
# about containers and su's "Authentication failure".
printf '[default]\nsandbox = none\n[profile bare]\nro-bind = /usr\nro-bind = /etc\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib\nsymlink = usr/lib64 /lib64\nproc = /proc\ndev = /dev\ntmpfs = /tmp\nunshare = pid\n[user %s]\nprofile = bare\n' \
	"cctool1$T" | policy_write cocoon.conf
inside 'sudo -n true'
like "$OUT" "If sudo is running in a container" "control: without it sudo gives its container advice"
inside "su - cctool2$T -c true </dev/null"
like "$OUT" "Authentication failure" "control: and su blames the password"
if [ -e /usr/bin/crontab ]; then
	inside 'echo "* * * * * true" | crontab -'
	ok $([ "$RC" != 0 ]; echo $?) "control: crontab - fails without it too ($RC)"
	like "$OUT" "/var/spool/cron" "but with crontab's own words about its spool"
	unlike "$OUT" "session policy" "and nothing of the session policy"
fi

done_testing
