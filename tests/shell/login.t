#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon-shell as a user's login shell, through real su, runuser, ssh, scp,
# sftp, rsync and git, and run directly: the real shell starts inside the
# sandbox, arguments pass unchanged, exit statuses are relayed.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
work=$(mktemp -d /run/cocoon-shell-test.XXXXXX)
chmod 0755 "$work"
trap 'syslog_release; sshd_cleanup; policy_reset; cleanup_users; rm -rf "$work"' EXIT

add_user ccsh1$T -s "$SHELL_BIN"
add_user ccsh2$T
policy_reset

# Run directly by the user: the same sandbox a login gives.
run runuser -u ccsh2$T -- "$SHELL_BIN" -c 'cat /proc/1/comm; echo "$SHELL"; pwd'
is "$RC" 0 "run directly, cocoon-shell starts the real shell"
like "$OUT" "cocoon-init" "inside a new pid namespace whose pid 1 is cocoon-init"
like "$OUT" "/bin/bash" "SHELL names the real shell, not cocoon-shell"
like "$OUT" "/home/ccsh2$T" "in the home"

run "$SHELL_BIN" -c true
is "$RC" 1 "root is refused"
like "$OUT" "refusing to run for root" "with the reason"

# -c CMD stays one argument; later arguments are positional parameters.
run runuser -u ccsh2$T -- "$SHELL_BIN" -c 'printf "<%s>" "$0" "$@"' zero 'a b' "c'd" '$(id)' ''
is "$OUT" "<zero><a b><c'd><\$(id)><>" "-c CMD ARGS pass unchanged"
run runuser -u ccsh2$T -- "$SHELL_BIN" -c 'exit 7'
is "$RC" 7 "the exit status is relayed"
run runuser -u ccsh2$T -- "$SHELL_BIN" -c 'kill -KILL $$'
is "$RC" 137 "death by signal N is 128+N"

# argv[0] '-' makes the real shell a login shell.
run runuser -u ccsh2$T -- bash -c "exec -a -cocoon-shell $SHELL_BIN -c 'shopt -q login_shell && echo login || echo not-login'"
is "$OUT" "login" "argv[0] starting with - starts a login shell"

# The caller controls argv, environment, umask, rlimits and descriptors.
run runuser -u ccsh2$T -- env LD_PRELOAD=/nonexistent.so BASH_ENV=/tmp/x GCONV_PATH=/tmp \
	PATH=/tmp/evil LANG=C.UTF-8 "$SHELL_BIN" -c 'echo "${LD_PRELOAD-none} ${BASH_ENV-none} ${GCONV_PATH-none} $PATH $LANG"'
is "$OUT" "none none none /usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games C.UTF-8" \
	"a hostile environment does not reach the session; PATH is set afresh"
run runuser -u ccsh2$T -- bash -c "umask 077; ulimit -S -n 64; exec $SHELL_BIN -c 'umask; ulimit -n'"
is "$OUT" "0077
64" "the caller's umask and limits come back for the session"
run runuser -u ccsh2$T -- bash -c "exec 0<&- 2>&-; $SHELL_BIN -c 'echo closed-stdio-ok'"
is "$OUT" "closed-stdio-ok" "closed standard descriptors are handled"
run runuser -u ccsh2$T -- bash -c "exec 7</etc/hostname; $SHELL_BIN -c 'ls /proc/self/fd'"
is "$(echo $OUT)" "0 1 2 3" "an inherited descriptor does not reach the session (3 is ls's own)"
# While privileged it cannot be signalled or traced by the caller.
runuser -u ccsh2$T -- "$SHELL_BIN" -c 'sleep 5' &
bgpid=$!
sleep 1
shellpid=$(pgrep -P "$bgpid" -x cocoon-shell || echo "$bgpid")
run runuser -u ccsh2$T -- kill -STOP "$shellpid"
like "$OUT" "Operation not permitted" "the caller cannot stop cocoon-shell"
run runuser -u ccsh2$T -- cat "/proc/$shellpid/environ"
like "$OUT" "Permission denied" "nor read its memory or environment"
wait "$bgpid"

# su and runuser with cocoon-shell as the passwd shell.
run su ccsh1$T -c 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "su USER -c CMD is sandboxed"
run su - ccsh1$T -c 'shopt -q login_shell && echo login; cat /proc/1/comm; pwd'
like "$OUT" "login
cocoon-init
/home/ccsh1$T" "su - USER is a sandboxed login shell in the home"
run runuser -l ccsh1$T -c 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "runuser -l is sandboxed"

# shell = PATH picks the real shell; cocoon-shell itself is refused.
# The user sees a reference; the reason is in the log.
log=$work/refusals
syslog_capture "$log" || log=""
printf '[default]\nprofile = default\nshell = /bin/sh\n' | policy_write cocoon.conf
run su ccsh1$T -c 'echo "$SHELL"; readlink /proc/$$/exe'
is "$OUT" "/bin/sh
/usr/bin/dash" "shell = PATH is the real shell, and SHELL names it"
printf '[default]\nprofile = default\nshell = %s\n' "$SHELL_BIN" | policy_write cocoon.conf
run su ccsh1$T -c 'echo ESCAPED'
unlike "$OUT" "ESCAPED" "a policy whose shell is cocoon-shell itself is refused"
refusal_logged "$log" "is cocoon-shell itself" "and says why (in the log)"
# A forced command is judged by the same rule as the shell: by its
# name too, wherever it lies.
printf '[default]\nprofile = default\ncommand = /opt/cc%s/cocoon-shell -c id\n' "$T" |
	policy_write cocoon.conf
run su ccsh1$T -c 'echo ESCAPED'
refusal_logged "$log" "the policy's command /opt/cc$T/cocoon-shell is cocoon-shell itself" \
	"a forced command named cocoon-shell, elsewhere, is refused as cocoon-shell"

# A policy that refuses: the login is refused, not let through.
printf '[default]\nprofile = nope\n' | policy_write cocoon.conf
run su ccsh1$T -c 'echo ESCAPED'
unlike "$OUT" "ESCAPED" "a broken policy refuses the login"
refusal_logged "$log" "unknown profile 'nope'" "and says why (in the log)"
syslog_release
policy_reset

# ssh through a real sshd: commands, quoting, scp, sftp, rsync, git.
sshd_start || { ok 1 "test sshd starts"; done_testing; exit; }
sshd_allow ccsh1$T
run ssh_as ccsh1$T 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "ssh host CMD is sandboxed"
run ssh_as ccsh1$T printf '"<%s>"' "'a b'" '"c d"' '\$HOME'
is "$OUT" "<a b><c d><\$HOME>" "ssh host CMD with awkward quoting"
run ssh_as ccsh1$T 'exit 3'
is "$RC" 3 "ssh relays the exit status"

echo "payload $RANDOM" > "$work/up"
chmod 0644 "$work/up"
# shellcheck disable=SC2046
run timeout 60 scp -q $(SSH_OPTS | sed 's/-p /-P /') "$work/up" ccsh1$T@127.0.0.1:up.txt
is "$RC" 0 "scp (sftp protocol) uploads"
is "$(cat /home/ccsh1$T/up.txt 2>/dev/null)" "$(cat "$work/up")" "the file arrived in the home"
# shellcheck disable=SC2046
run timeout 60 scp -O -q $(SSH_OPTS | sed 's/-p /-P /') ccsh1$T@127.0.0.1:up.txt "$work/down"
is "$RC" 0 "scp -O (legacy protocol) downloads"
cmp -s "$work/up" "$work/down"; ok $? "the same bytes came back"
# shellcheck disable=SC2046
run timeout 60 sftp -b - $(SSH_OPTS | sed 's/-p /-P /') ccsh1$T@127.0.0.1 <<SFTP
ls /proc/1/comm
get /proc/1/comm $work/sftp-comm
SFTP
is "$RC" 0 "sftp with the external sftp-server"
is "$(cat "$work/sftp-comm" 2>/dev/null)" "cocoon-init" "sftp-server runs inside the sandbox"
if command -v rsync >/dev/null; then
	mkdir -p "$work/tree/sub" && echo r > "$work/tree/sub/f"
	run timeout 60 rsync -a -e "ssh $(SSH_OPTS)" "$work/tree/" ccsh1$T@127.0.0.1:tree/
	is "$RC" 0 "rsync -e ssh"
	is "$(cat /home/ccsh1$T/tree/sub/f 2>/dev/null)" "r" "rsync copied the tree"
else
	skip "rsync not installed"; skip "rsync not installed"
fi
runuser -u ccsh1$T -- git init -q --bare /home/ccsh1$T/repo.git
git -C "$work" init -q src && git -C "$work/src" -c user.email=t@t -c user.name=t commit -q --allow-empty -m first
run env GIT_SSH_COMMAND="ssh $(SSH_OPTS)" git -C "$work/src" push -q ccsh1$T@127.0.0.1:repo.git HEAD:refs/heads/main
is "$RC" 0 "git push over ssh"

# An interactive login on a pty: job control, the terminal inside.
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccsh1$T 127.0.0.1" /dev/null <<'TTY'
t=$(tty); echo "TTY=$t"; exec 3<>"$t" && echo REOPENED; exec 3>&-
sleep 30 &
jobs; kill %1; test -t 0 && echo HAS-TTY
stty rows 41 cols 101; stty size
script -qec 'tty >/dev/null && echo SCRIPT-PTY' /dev/null
tmux -L cctest new-session -d 'sleep 5' && tmux -L cctest ls && tmux -L cctest kill-server && echo TMUX-OK
exit
TTY
like "$OUT" "TTY=/dev/" "tty names the session's terminal"
like "$OUT" "REOPENED" "the terminal can be reopened by its name"
like "$OUT" "sleep 30" "job control works"
like "$OUT" "HAS-TTY" "stdin is the terminal"
like "$OUT" "41 101" "the window size can be changed and read"

like "$OUT" "SCRIPT-PTY" "script allocates a pty inside"
like "$OUT" "TMUX-OK" "tmux works inside"

# Ctrl-Z, fg and Ctrl-C, typed with pauses as a person would.
run timeout 60 script -qec "ssh -tt $(SSH_OPTS) -l ccsh1$T 127.0.0.1" /dev/null < <(
	sleep 2; echo 'sleep 40'; sleep 1; printf '\032'; sleep 1
	echo 'jobs; fg'; sleep 1; printf '\003'; sleep 1; echo 'echo AFTER-FG; exit'; sleep 1)
like "$OUT" "Stopped" "Ctrl-Z stops the foreground job"
like "$OUT" "AFTER-FG" "fg resumes it and Ctrl-C ends it, the shell goes on"

# Audit records: one line each to authpriv (facility 10: <8x>).
if syslog_capture "$work/syslog"; then
	run su ccsh1$T -c 'exit 3'
	is "$RC" 3 "a login for the records"
	syslog_wait "$work/syslog" "event=end user=ccsh1$T "
	log=$(cat "$work/syslog")
	like_re "$log" "^<86>.*cocoon-shell\[[0-9]+\]: v=1 event=start user=ccsh1$T uid=[0-9]+ service=shell rule=\"\[default\] at [^\"]+\" profile=default plan=[0-9a-f]{16} ns=mnt,pid,ipc,uts session=[0-9a-f]{32} result=sandboxed\$" \
		"cocoon-shell logs the start to authpriv"
	like_re "$log" "v=1 event=end user=ccsh1$T .* result=ended duration=[0-9]+ status=3\$" \
		"and the end, with the duration and the status"
	policy_write cocoon.conf <<'CONF'
[default]
profile = nosuch
CONF
	run su ccsh1$T -c true
	syslog_wait "$work/syslog" "event=refuse user=ccsh1$T "
	like_re "$(cat "$work/syslog")" "^<83>.*v=1 event=refuse user=ccsh1$T uid=[0-9]+ service=shell session=[0-9a-f]{32} result=refused reason=\".*unknown profile 'nosuch'" \
		"a refusal is logged with its reason"
	policy_reset
	syslog_release
else
	skip "/dev/log exists: syslog not captured"
fi

done_testing
