#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Daily tools under the embedded default profile (issue 26, section 4),
# as a throwaway user through `cocoonctl run`: screen and tmux work;
# su, sudo, crontab and the other set-user-ID programs, which gain
# nothing under no-new-privs, say that the session policy stops them.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d)
trap 'policy_reset; cleanup_users; rm -rf "$work"' EXIT

add_user cctool1$T
add_user cctool2$T
policy_reset
printf '[default]\nsandbox = none\n[user %s]\nprofile = default\n[user %s]\nprofile = default\nhostname = other%s\n' \
	"cctool1$T" "cctool2$T" "$T" | policy_write cocoon.conf
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
	like "$OUT" "crontab: not available in this session" "crontab -l: the policy's message"
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

# Control: the same sandbox without `unavailable`: sudo's own advice
# about containers and su's "Authentication failure".
printf '[default]\nsandbox = none\n[profile bare]\nro-bind = /usr\nro-bind = /etc\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib\nsymlink = usr/lib64 /lib64\nproc = /proc\ndev = /dev\ntmpfs = /tmp\nunshare = pid\n[user %s]\nprofile = bare\n' \
	"cctool1$T" | policy_write cocoon.conf
inside 'sudo -n true'
like "$OUT" "If sudo is running in a container" "control: without it sudo gives its container advice"
inside "su - cctool2$T -c true </dev/null"
like "$OUT" "Authentication failure" "control: and su blames the password"

done_testing
