#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A session on a terminal: the terminal stays usable inside (as
# /dev/console), job control works, and the terminal's signals reach the
# session once, without killing the caller.
. "$(dirname "$0")/../lib.sh" engine

if ! command -v script >/dev/null; then
	skip "script(1) is not installed"
	done_testing
	exit
fi
engine_user cceng3$T

# on_tty INPUT-SCRIPT COMMAND: run COMMAND on a new pseudo-terminal
# (script(1)), feeding it what INPUT-SCRIPT prints; output in OUT. The
# session inherits the caller's signal dispositions, as after exec, and a
# CI runner may start us with SIGINT ignored: a terminal starts clean.
# script(1) runs COMMAND with $SHELL, which CI may leave unset (then dash,
# which dies of the ^C that bash waits out): bash, always.
on_tty() {
	OUT=$( (eval "$1") | SHELL=/bin/bash timeout 120 env --default-signal=INT,QUIT,TSTP \
		script -qec "$2" /dev/null 2>&1 | tr -d '\r')
}
drv="$ENGINE_DRIVER --user cceng3$T $(echo $BASE)"

on_tty : "$drv -- /bin/sh -c 'tty; stty size >/dev/null && echo stty-ok; echo via-tty > /dev/tty'"
like "$OUT" "/dev/console" "the session's terminal is reachable as /dev/console"
like "$OUT" "stty-ok" "terminal ioctls work"
like "$OUT" "via-tty" "/dev/tty is the controlling terminal"

sandbox cceng3$T -- /bin/sh -c 'test -e /dev/console && echo console || echo "no console"' </dev/null
is "$OUT" "no console" "no /dev/console when stdin is not a terminal"

on_tty "printf 'sleep 0.3 &\njobs\nfg\necho fg-done\nset -o | grep monitor\nexit 5\n'" \
	"$drv --env TERM=dumb --env PS1=P: -- /bin/bash --norc -i; echo driver-rc=\$?"
like "$OUT" "[1]+  Running                 sleep 0.3 &" "a job runs in the background"
like "$OUT" "fg-done" "fg brings it back"
like "$OUT" "monitor        	on" "job control is on"
unlike "$OUT" "no job control" "bash finds job control possible"
like "$OUT" "driver-rc=5" "the shell's status comes back"

# until_running ARGS: an input script's wait (60 s at most) until the
# session runs the command line ARGS, unique to this test: a fixed sleep
# before ^C lost the race to the session's setup on a loaded host.
until_running() {
	local i
	for i in $(seq 600); do pgrep -fx "$1" >/dev/null && return; sleep 0.1; done
}
on_tty "until_running '/bin/sleep 10.$$'; printf '\\003'" "$drv -- /bin/sleep 10.$$; echo driver-rc=\$?"
like "$OUT" "driver-rc=130" "^C kills the foreground command once; the caller survives and reports it"

on_tty "sleep 1; printf 'sleep 11.$$\n'; until_running 'sleep 11.$$'; printf '\\003'; sleep 0.3; printf 'echo alive\nexit\n'" \
	"$drv --env TERM=dumb --env PS1=P: -- /bin/bash --norc -i; echo driver-rc=\$?"
like "$OUT" "alive" "^C stops a job of the inner shell, not the shell"
like "$OUT" "driver-rc=0" "and the session goes on until it exits"

done_testing
