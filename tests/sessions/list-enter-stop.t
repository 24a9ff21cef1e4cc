#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Live sessions: a PAM session through a real sshd and a cocoon-shell
# login through real su are recorded; cocoonctl list shows them, enter
# runs a command inside (as the user under the session's confinement, or
# as root with a host binary and a fresh pty), stop ends them. Stale,
# forged and badly owned records are refused.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
SSHD_SERVICE=cocoon-test-sshd-sessions-$T
RECORDS=$COCOON_ROOT/run/cocoon
work=$(mktemp -d /var/lib/cocoon-sessions-test.XXXXXX) # not /run: noexec under systemd
chmod 0755 "$work"
BG_PIDS=""
cleanup() {
	local p
	for p in $BG_PIDS; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	sshd_cleanup
	syslog_release
	[ -d "$RECORDS" ] && chmod 0700 "$RECORDS"
	rm -f "$RECORDS"/deadbeef* "$RECORDS"/.deadbeef*
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccsn1$T || { echo "Bail out! useradd"; exit 1; }
add_user ccsn2$T -s "$SHELL_BIN"
add_user ccsn3$T
add_user ccsn4$T
policy_reset
# sessions_policy [LINE...]: the test's policy, LINEs added to [default]
# (changing them changes the plan of a session already running).
sessions_policy() {
	{ cat <<CONF
[user ccsn4$T]
profile = nopid
[profile nopid]
ro-bind = /usr
symlink = usr/bin /bin
symlink = usr/lib /lib
symlink = usr/lib64 /lib64
unshare = ipc
[default]
profile = default
CONF
	  printf '%s\n' "$@"; } | policy_write cocoon.conf
}
sessions_policy 'pids-max = 200'
syslog_capture "$work/syslog"

sshd_start "session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccsn1$T
sshd_allow ccsn3$T

# records_of USER: the records (published or not) of USER's sessions; the
# tree's directory may hold other users' too (an installed cocoon's).
records_of() { grep -lsx "user=$1" "$RECORDS"/* "$RECORDS"/.[!.]*; }
# end_results ID: the results of session ID's end records, sorted, on one
# line (stop's and the login's own).
end_results() {
	grep -F "event=end " "$work/syslog" | grep -F "session=$1 " |
		grep -o ' result=[a-z]*' | cut -d= -f2 | sort | xargs
}
# live USER: how many processes USER has that are not zombies.
live() { ps -u "$1" -o stat= 2>/dev/null | grep -vc '^Z'; }

ssh_as ccsn1$T 'echo up; sleep 60' > "$work/ssh.out" 2>&1 &
ssh_pid=$!
BG_PIDS="$BG_PIDS $ssh_pid"
su - ccsn2$T -c 'sleep 60' > "$work/su.out" 2>&1 &
su_pid=$!
BG_PIDS="$BG_PIDS $su_pid"
pam_id=$(session_id_of ccsn1$T)
ok $? "the sshd session is recorded"
shell_id=$(session_id_of ccsn2$T)
ok $? "the cocoon-shell session is recorded"

# --- list
run "$CTL" list
is "$RC" 0 "list succeeds"
pam_hash=$("$CTL" explain --service $SSHD_SERVICE ccsn1$T | awk '/^plan hash:/ { print $3 }')
shell_hash=$("$CTL" explain ccsn2$T | awk '/^plan hash:/ { print $3 }')
like_re "$OUT" "^$pam_id +ccsn1$T +$SSHD_SERVICE +[0-9-]+ [0-9:]+ +default +$pam_hash +running$" \
	"the sshd session: id, user, service, start, profile, plan hash, state"
like_re "$OUT" "^$shell_id +ccsn2$T +shell +[0-9-]+ [0-9:]+ +default +$shell_hash +running$" \
	"the cocoon-shell session likewise"
run "$CTL" list --json
like "$OUT" "\"id\": \"$pam_id\", \"user\": \"ccsn1$T\", \"uid\": $(id -u ccsn1$T), \"service\": \"$SSHD_SERVICE\"" \
	"list --json"
is "$(stat -c '%U %a' "$RECORDS" "$RECORDS/$pam_id" | tr '\n' ' ')" "root 700 root 600 " \
	"the records are root's alone"
like "$(cat "$RECORDS/$pam_id")" "v=1" "in a versioned format"

# Bash completion offers the live ids.
comp=$COCOON_ROOT/usr/share/bash-completion/completions/cocoonctl
complete_line() {
	PATH=$COCOON_ROOT/usr/sbin:$PATH bash -c '. /usr/share/bash-completion/bash_completion
		. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}; _cocoonctl; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
is "$(complete_line cocoonctl enter "${pam_id:0:8}")" "$pam_id" "completion: enter completes session ids"
like "$(complete_line cocoonctl st)" "stop" "completion: the new commands"

# --- enter, as the user
probe='id -u; cat /proc/1/comm; grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; echo "$HOME $PATH"'
for who in ccsn1$T:$pam_id ccsn2$T:$shell_id; do
	user=${who%%:*}
	run "$CTL" enter "${who#*:}" -- sh -c "$probe" < /dev/null
	is "$RC" 0 "enter runs a command in $user's session"
	like "$OUT" "$(id -u "$user")
cocoon-init" "as $user, in the session's pid namespace"
	like "$OUT" "Seccomp:	2" "under the seccomp filter"
	like "$OUT" "NoNewPrivs:	1" "with no_new_privs"
	like "$OUT" "/home/$user /usr/local/bin:/usr/bin:/bin" "with a fixed environment"
done
run env LD_LIBRARY_PATH=/nonexistent SECRET=x "$CTL" enter "${pam_id:0:8}" -- sh -c 'echo "${LD_LIBRARY_PATH-none} ${SECRET-none}"; ls /proc/self/fd' 7</etc/hostname < /dev/null
is "$(echo $OUT)" "none none 0 1 2 3" "an 8-character prefix works; no caller environment or descriptor comes in (3 is ls's own)"
run sh -c "printf 'id -un; exit 5\\n' | $CTL enter $pam_id"
is "$RC" 5 "without a command the session's shell runs, on the pty, reading the input"
like "$OUT" "ccsn1$T" "as the user"
run "$CTL" enter "$pam_id" -- sh -c 'exit 7' < /dev/null
is "$RC" 7 "enter returns the command's status"
run "$CTL" enter "$pam_id" -- sh -c 'kill -KILL $$' < /dev/null
is "$RC" 137 "128+N for a signal"
run "$CTL" enter "$pam_id" -- sh -c 'echo "PPid: $PPID"; ps -eo user=,comm= | grep -c "^root"' < /dev/null
is "$(echo $OUT)" "PPid: 0 1" "the entering process stays outside the session's pid namespace (only pid 1 is root's)"

run "$CTL" enter "$pam_id" -- sh -c 'cat /proc/self/cgroup; echo ==; cat /proc/1/cgroup' < /dev/null
is "${OUT%%==*}" "$(printf '%s\n' "${OUT#*==}" | tail -n +2)
" "enter joins the cgroups of the session's pid 1: its limits hold what runs inside"
# Where those are: cocoon's own cgroup, or logind's scope under systemd.
if [ -d /run/systemd/system ]; then
	like "$OUT" "/session-" "(under systemd, the logind session's scope)"
else
	like "$OUT" "pids:/cocoon/$pam_id" "(cocoon's cgroup of the session)"
fi

# A process the session leaves holding the pty (a detached job, as a
# planted ~/.bashrc could start) must not keep the relay, and the
# administrator's keystrokes, going to it once the command has ended.
start=$(date +%s)
run timeout 20 "$CTL" enter "$pam_id" -- sh -c 'setsid sleep 60 <&0 >&1 2>&1 & echo detached' < /dev/null
is "$RC" 0 "enter returns when its command ends, though a detached job holds the pty"
[ $(( $(date +%s) - start )) -lt 10 ]; ok $? "(without waiting for that job)"

# --- enter --root
caller_tty=$(readlink /proc/self/fd/0)
run "$CTL" enter "$pam_id" --root -- /usr/bin/id < /dev/null
like "$OUT" "uid=0(root) gid=0(root)" "enter --root runs a host binary as root inside"
run "$CTL" enter "$pam_id" --root -- /bin/sh -c 'readlink /proc/self/fd/0; cat /proc/1/comm; echo "$PATH $HOME"' < /dev/null
like "$OUT" "/dev/pts/" "on a fresh pty"
unlike "$OUT" "$caller_tty" "not the caller's terminal or input"
like "$OUT" "cocoon-init" "inside the session"
like "$OUT" "/usr/sbin:/usr/bin:/sbin:/bin /root" "with a fixed environment"
run "$CTL" enter "$shell_id" --root -- /usr/bin/id < /dev/null
like "$OUT" "the session's / is not root's alone" "--root refuses a session whose system paths its user can write"
unlike "$OUT" "uid=0" "and runs nothing"
run "$CTL" enter "$shell_id" -- stat -c %U / < /dev/null
is "$OUT" "ccsn2$T" "(cocoon-shell builds the tree as the user: the user could swap the loader)"
# Below a system path, a tmpfs others may write (01777 by default in
# service mode) is where the session's user could leave a file that a
# root shell, or the service's own modules, read. pam_cocoon refuses such
# a plan at login (enter --root would too: tests/unit/test_resolve.c).
printf '[user %s]\nprofile = default\ntmpfs = /usr/local/share\n' "ccsn3$T" |
	policy_write cocoon.d/ccsn3$T.conf
run "$CTL" run --user ccsn3$T -- /bin/sh -c 'touch /usr/local/share/x && echo WROTE'
is "$OUT" "WROTE" "(the control: in the plan's tree the user can write there)"
run ssh_as ccsn3$T 'echo LOGGED-IN'
unlike "$OUT" "LOGGED-IN" "a PAM login under a plan with a tmpfs others can write below a system path is refused"
if [ -n "$SYSLOG_PID" ]; then
	syslog_wait "$work/syslog" "tmpfs /usr/local/share: a tmpfs there"
	like "$(cat "$work/syslog")" "tmpfs /usr/local/share: a tmpfs there is writable by others" "with the reason"
else
	skip "no syslog capture"
fi
rm -f "$CONF_DIR/cocoon.d/ccsn3$T.conf"
run "$CTL" enter "$pam_id" --root -- id < /dev/null
like "$OUT" "absolute path" "--root refuses a relative command"
install -m 0755 /usr/bin/id "$work/id"
run "$CTL" enter "$pam_id" --root -- "$work/id" < /dev/null
like "$OUT" "uid=0(root)" "control: a root-owned copy runs"
chmod 0757 "$work/id"
run "$CTL" enter "$pam_id" --root -- "$work/id" < /dev/null
like "$OUT" "only root can write" "a binary others can write is refused"

# A session whose policy changed since it started runs under the old plan.
sessions_policy 'setenv = COCOON_SESSIONS_TEST 1'
run "$CTL" enter "$shell_id" -- id < /dev/null
like "$OUT" "refusing to enter with another confinement" "enter refuses when the plan changed"
sessions_policy

# --- stop
run "$CTL" stop "$pam_id"
is "$RC" 0 "stop ends the sshd session"
like "$OUT" "stopped session $pam_id (user ccsn1$T" "and says which"
for i in $(seq 100); do kill -0 "$ssh_pid" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$ssh_pid" 2>/dev/null
ok $? "the ssh client returns"
like "$(cat "$work/ssh.out")" "up" "(it had run)"
for i in $(seq 50); do [ "$(live ccsn1$T)" -eq 0 ] && break; sleep 0.1; done
is "$(live ccsn1$T)" 0 "no process of the user remains"
[ ! -e "$RECORDS/$pam_id" ]
ok $? "the record is gone"
if [ -n "$SYSLOG_PID" ]; then
	syslog_wait "$work/syslog" "event=end user=ccsn1$T"
	like "$(cat "$work/syslog")" "event=end user=ccsn1$T" "stop is audited"
	like "$(grep "session=$pam_id" "$work/syslog" | grep stopped)" 'result=stopped reason="cocoonctl stop"' \
		"as stopped by cocoonctl"
	syslog_wait "$work/syslog" "session=$pam_id result=stopped duration=" 10
	is "$(end_results "$pam_id")" "stopped stopped" \
		"pam_cocoon's own end record of the login says result=stopped too"
else
	skip "no syslog capture"; skip "no syslog capture"; skip "no syslog capture"
fi
run "$CTL" stop "$shell_id"
is "$RC" 0 "stop ends the cocoon-shell session"
for i in $(seq 100); do kill -0 "$su_pid" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$su_pid" 2>/dev/null
ok $? "su returns"
if [ -n "$SYSLOG_PID" ]; then
	syslog_wait "$work/syslog" "session=$shell_id result=stopped duration=" 10
	is "$(end_results "$shell_id")" "stopped stopped" \
		"cocoon-shell's own end record of the login says result=stopped too"
else
	skip "no syslog capture"
fi
is "$(ls -A "$RECORDS" | grep -cE "^\.($pam_id|$shell_id)\.stop")" 0 \
	"no mark of stop's is left: each login took its own"
run "$CTL" list
unlike "$OUT" " ccsn1$T " "no session is listed any more"
unlike "$OUT" " ccsn2$T " "  neither"

# Sessions that end by themselves, or never start, leave no record.
run ssh_as ccsn3$T 'cat /run/cocoon/id'
is "$RC" 0 "a short ssh session runs"
# sshd closes the PAM session just after the client has its status.
for i in $(seq 50); do [ -e "$RECORDS/$OUT" ] || break; sleep 0.1; done
[ -n "$OUT" ] && [ ! -e "$RECORDS/$OUT" ]
ok $? "its record is gone once it logged out"
run su - ccsn2$T -c 'cat /run/cocoon/id 2>/dev/null; echo "$COCOON_SESSION_ID"'
is "$(records_of ccsn2$T)" "" "a cocoon-shell session leaves none either"
"$CTL" run --user ccsn4$T -- /nonexistent-command > /dev/null 2>&1
is "$(records_of ccsn4$T)" "" "nor does a session that fails to start"

# A session without a pid namespace: listed and stoppable, not enterable.
"$CTL" run --user ccsn4$T -- sleep 60 > /dev/null 2>&1 &
run_pid=$!
BG_PIDS="$BG_PIDS $run_pid"
nopid_id=$(session_id_of ccsn4$T)
ok $? "a session without a pid namespace is recorded"
run "$CTL" list
like_re "$OUT" "^$nopid_id +ccsn4$T +shell .* running \(no pid namespace\)$" "and listed as such"
run "$CTL" enter "$nopid_id" -- id
like "$OUT" "has no pid namespace" "enter refuses it"
run "$CTL" stop "$nopid_id"
is "$RC" 0 "stop ends it"
for i in $(seq 50); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$run_pid" 2>/dev/null
ok $? "cocoonctl run returns"
wait "$run_pid" 2>/dev/null
is "$(ls -A "$RECORDS" | grep -c "^\.$nopid_id\.stop")" 0 \
	"and lets stop's mark go, as it writes no end record"

# --- stale records: the reused-pid control
sleep 60 &
unrelated=$!
BG_PIDS="$BG_PIDS $unrelated"
forge() { # forge ID PID: a well-formed record of a session that is gone
	{ echo v=1; echo "id=$1"; echo user=ccsn3$T; echo "uid=$(id -u ccsn3$T)"
	  echo "gid=$(id -g ccsn3$T)"; echo service=shell; echo started=1; echo boottime=1
	  echo rule=x; echo profile=default; echo plan=0123456789abcdef
	  echo "ns=pid ipc uts"; echo "pid=$2"; echo start=1; echo pidns=1; echo mntns=1
	} > "$RECORDS/$1"
	chmod 0600 "$RECORDS/$1"
}
forge deadbeef01 "$unrelated"
run "$CTL" stop deadbeef01
like "$OUT" "is another process now" "stop refuses a record whose pid is now another process"
run "$CTL" enter deadbeef01 -- id
like "$OUT" "is not running" "enter refuses it too"
kill -0 "$unrelated"
ok $? "control: the pid is live, so a pid-only stop would have killed an unrelated process"
sh -c 'exit 0' & dead=$!; wait $dead
forge deadbeef02 "$dead"
run "$CTL" list --verbose
like "$OUT" "removed the stale record deadbeef01" "list removes the record of a reused pid"
like "$OUT" "removed the stale record deadbeef02" "and that of a dead pid"
[ ! -e "$RECORDS/deadbeef01" ] && [ ! -e "$RECORDS/deadbeef02" ]
ok $? "both files are gone"

# --- a record prepared but never published (its writer killed between
# the two steps, a minute ago) is swept when a session ends, and so is a
# published one whose session is gone (killed with its service); one
# whose pid 1 lives (a session being set up) stays, and so does a fresh
# one of a dead pid 1 (a command that ended at once: its writer still
# publishes it, then removes it).
forge deadbeef04 "$dead"
forge deadbeef06 "$dead"
forge deadbeef09 "$dead"
mv "$RECORDS/deadbeef04" "$RECORDS/.deadbeef04.new"
touch -d '-2 minutes' "$RECORDS/.deadbeef04.new"
mv "$RECORDS/deadbeef09" "$RECORDS/.deadbeef09.new"
forge deadbeef05 "$unrelated"
sed -i -e "s/^start=.*/start=$(cut -d' ' -f22 "/proc/$unrelated/stat")/" \
	-e "s/^pidns=.*/pidns=$(stat -L -c %i "/proc/$unrelated/ns/pid")/" \
	-e "s/^mntns=.*/mntns=$(stat -L -c %i "/proc/$unrelated/ns/mnt")/" "$RECORDS/deadbeef05"
mv "$RECORDS/deadbeef05" "$RECORDS/.deadbeef05.new"
touch -d '-2 minutes' "$RECORDS/.deadbeef05.new"
# Empty: its writer killed before the first byte (a file size limit).
: > "$RECORDS/.deadbeef07.new"
touch -d '-2 minutes' "$RECORDS/.deadbeef07.new"
: > "$RECORDS/.deadbeef08.new"
run "$CTL" run --user ccsn1$T -- true
is "$RC" 0 "a session runs and ends"
[ ! -e "$RECORDS/.deadbeef04.new" ]
ok $? "its end sweeps the unpublished record of a dead pid 1"
[ ! -e "$RECORDS/deadbeef06" ]
ok $? "and the published record of a dead pid 1"
[ -e "$RECORDS/.deadbeef05.new" ]
ok $? "control: one whose pid 1 lives stays"
[ ! -e "$RECORDS/.deadbeef07.new" ]
ok $? "an empty unpublished record minutes old is swept"
[ -e "$RECORDS/.deadbeef08.new" ]
ok $? "control: a fresh one (being written) stays"
[ -e "$RECORDS/.deadbeef09.new" ]
ok $? "and a fresh one of a dead pid 1, whose writer publishes it yet"
rm -f "$RECORDS/.deadbeef05.new" "$RECORDS/.deadbeef08.new" "$RECORDS/.deadbeef09.new"

# --- forged records and a loosened directory
forge deadbeef03 "$unrelated"
chown ccsn3$T "$RECORDS/deadbeef03"
run "$CTL" list
like "$OUT" "deadbeef03 is not a regular file of root's" "a record not owned by root is refused"
run "$CTL" stop deadbeef03
like "$OUT" "no session has an id starting with" "and cannot be stopped"
rm -f "$RECORDS/deadbeef03"
chmod 0755 "$RECORDS"
run "$CTL" list
is "$RC" 1 "a record directory with the wrong mode is refused"
like "$OUT" "must be root's with mode 0700" "with the reason"
chmod 0700 "$RECORDS"
run "$CTL" list
is "$RC" 0 "control: with mode 0700 it is read"

done_testing
