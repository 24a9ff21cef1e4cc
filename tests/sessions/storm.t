#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A storm of short sessions: 100 concurrent `cocoonctl run` of commands
# that end at once, five rounds, and not one refused for its bookkeeping
# (a session's record being written, published, swept and removed while
# its command has already ended, and the other sessions sweep). Each
# ends with its command's own status. Control: a live session started
# before the storm is still listed, by the same record, after it; and no
# record of the test's user is left.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-storm-test.XXXXXX)
chmod 0755 "$work"
BG=""
trap 'kill -KILL $BG 2>/dev/null; wait $BG 2>/dev/null; cleanup_users; rm -rf "$work"' EXIT

user=ccrc1$T
add_user "$user" || bail_out "useradd $user"
# The README's bubblewrap example (bwrap-readme.conf) without its binds
# of /etc files, which other tests' useradd replaces meanwhile; 100
# sessions of one user at once get pty-max 8 each, within the default
# pty-max-user (1024).
{
	echo '[profile storm]'
	echo 'ro-bind = /usr /usr'
	for d in lib lib64 bin sbin; do echo "symlink = usr/$d /$d"; done
	printf '%s\n' 'proc = /proc' 'dev = /dev' 'dir = /tmp' 'unshare = pid net' \
		'name-services = none' 'pty-max = 8' '[default]' 'profile = storm'
} > "$work/storm.conf"
chmod 0644 "$work/storm.conf"
ctl_run() { "$CTL" run --config "$work/storm.conf" --user "$user" -- "$@"; }

# The records of the test's user, as their files' names; with "all",
# those still being written too.
user_records() {
	local dir=$COCOON_ROOT/run/cocoon
	# shellcheck disable=SC2086
	grep -lx "user=$user" "$dir"/* ${1:+"$dir"/.[0-9a-f]*} 2>/dev/null |
		sed 's|.*/||' | sort
}

"$CTL" run --config "$work/storm.conf" --user "$user" -- /bin/sleep 60 &
BG=$!
for i in $(seq 100); do
	[ -n "$(user_records)" ] && break
	sleep 0.1
done
live=$(user_records)
is "$(printf '%s\n' "$live" | grep -c .)" 1 "control: the long session is recorded"

rounds=5 per=100 failed=0
for r in $(seq "$rounds"); do
	pids=""
	for i in $(seq "$per"); do
		# Every other one ends with a status of its own.
		want=$(( i % 2 ? 0 : 7 ))
		( ctl_run /bin/sh -c "exit $want" > "$work/out.$r.$i" 2>&1
		  echo "status=$? want=$want" >> "$work/out.$r.$i" ) &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
done
for f in "$work"/out.*; do
	grep -qx 'status=0 want=0\|status=7 want=7' "$f" && continue
	failed=$((failed + 1))
	cat "$f" >> "$work/failures"
done
is "$failed" 0 "$((rounds * per)) concurrent short sessions: none refused, each with its status"
# What the failures said, ids blanked, most frequent first.
if [ "$failed" -ne 0 ]; then
	grep -v '^status=' "$work/failures" | sed 's/[0-9a-f]\{32\}/ID/g' | sort |
		uniq -c | sort -rn | head -5 | sed 's/^/# /'
fi

is "$(user_records)" "$live" "the long session keeps its record through the storm"
run "$CTL" list
like "$OUT" "${live:-no record}" "and cocoonctl list shows it"
kill -TERM $BG
wait $BG
is "$(user_records all)" "" "no record of the user is left, published or not"
done_testing
