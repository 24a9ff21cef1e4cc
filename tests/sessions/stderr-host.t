#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The end line goes only to a session's own logins and terminals. A session without a
# pid namespace of its own (unshare without pid) shares the host's, where
# its logins cannot be told from every other process: stop --message
# writes no stderr and no terminal there. What would have got the line:
# a host process, a child of init whose stderr is a pipe, owned by root,
# as every service's is (journald's stream under systemd), and a
# terminal of the host (script(1)'s, which keeps what reaches it).
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-stderr-host.XXXXXX)
BG_PIDS=""
cleanup() {
	kill -KILL $BG_PIDS 2>/dev/null; wait 2>/dev/null
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccsh1$T
policy_write cocoon.conf <<CONF
[profile nopid]
ro-bind = /usr
symlink = usr/bin /bin
symlink = usr/lib /lib
symlink = usr/lib64 /lib64
unshare = net ipc uts
[user ccsh1$T]
profile = nopid
[default]
sandbox = none
CONF

# The host process: orphaned, so that init (or the nearest subreaper)
# is its parent; its stderr a pipe to a reader that keeps what comes.
( setsid sh -c 'exec sleep 120' 2> >(exec cat > "$work/host") & echo $! > "$work/host.pid" )
host=$(cat "$work/host.pid")
BG_PIDS="$host"
for i in $(seq 50); do [ "$(ps -o ppid= -p "$host" | tr -d ' ')" != "" ] && break; sleep 0.1; done
parent=$(ps -o ppid= -p "$host" | tr -d ' ')
if [ "$parent" != 1 ]; then
	echo "1..0 # skip the orphan's parent is $parent, a subreaper, not init: it would not be looked at"
	exit 0
fi
ok 0 "a host process, child of init, with its stderr a pipe"

# A host terminal: script's pty, whose typescript keeps what is written.
script -qfc 'sleep 120' "$work/typescript" > /dev/null 2>&1 < /dev/null &
BG_PIDS="$BG_PIDS $!"
for i in $(seq 50); do [ -s "$work/typescript" ] || pgrep -f "^sleep 120$" -P "$(pgrep -n -x script)" >/dev/null && break; sleep 0.1; done

"$CTL" run --user ccsh1$T -- /bin/sleep 60 > "$work/run.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
id=""
for i in $(seq 100); do
	id=$("$CTL" list 2>/dev/null | awk -v u=ccsh1$T '$0 ~ u { print $1; exit }')
	[ -n "$id" ] && break
	sleep 0.1
done
[ -n "$id" ]; ok $? "the session without a pid namespace is listed ($id)"
run "$CTL" stop --message "host-$T" "$id"
is "$RC" 0 "stop --message ends it"
sleep 0.5
kill -KILL "$host" 2>/dev/null
for i in $(seq 30); do [ -e "$work/host" ] && ! fuser -s "$work/host" 2>/dev/null && break; sleep 0.1; done
got=$(cat "$work/host" 2>/dev/null)
is "$got" "" "the host process's stderr got nothing of the session"
grep -a "host-$T" "$work/typescript" | sed 's/^/# typescript: /'
grep -aq "host-$T" "$work/typescript"; ok $((! $?)) "nor did the host's terminal"

done_testing
