#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Daily tools under the embedded default profile (issue 26, section 4),
# as a throwaway user through `cocoonctl run`: screen and tmux work.
. "$(dirname "$0")/../lib.sh"
trap 'policy_reset; cleanup_users' EXIT

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

done_testing
