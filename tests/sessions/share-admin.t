#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The administration of shared sandboxes (share-sandbox) through sshd
# with pam_cocoon: cocoonctl list shows a shared sandbox once, with its
# logins attached and its linger, its joined logins under it; stop, named
# by the sandbox's id or a login's, ends it whole; enter works in it; the
# audit records say share=created, joined and left with the sandbox's id,
# and the sandbox's own end, by its linger or its max-session-time, has a
# record of its pid 1's (share=ended) and takes its slot's files with it.
# Also: a plan change gives the next login a sandbox of its own (an edit
# of the seccomp FILE too), max-session-time ends every login of a
# shared sandbox and the sandbox though it lingers, and screen started in
# one login is seen from another.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-shad-$T
TMPDIR_T=$(mktemp -d /run/cocoon-share-admin-test.XXXXXX)
LOG=$TMPDIR_T/syslog
CLIENTS=""
LING=csad1$T FOREVER=csad2$T EXPIRE=csad3$T CHANGE=csad4$T ALONE=csad5$T SHORT=csad6$T
# Sandboxes that linger outlive their users' processes: a run killed half
# way would leave them to the next (a user made again gets the same uid).
stop_ours() {
	local id
	for id in $("$CTL" list 2>/dev/null | awk -v us=" $LING $FOREVER $EXPIRE $CHANGE $ALONE $SHORT " \
			'index(us, " " $2 " ") && $NF !~ /^joined/ { print $1 }'); do
		"$CTL" stop "$id" >/dev/null 2>&1
	done
}
cleanup() {
	local c
	for c in $CLIENTS; do kill "$c" 2>/dev/null; done
	stop_ours
	syslog_release
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$TMPDIR_T"
}
trap cleanup EXIT

share_sandbox_or_skip

stop_ours
for u in $LING $FOREVER $EXPIRE $CHANGE $ALONE $SHORT; do add_user "$u" -s /bin/bash; done
write_policy() { # write_policy [EXTRA LINE FOR $CHANGE]
	limits_policy "[user $LING]
profile = default
share-sandbox = yes
linger = 30s
pids-max = 300
[user $FOREVER]
profile = default
share-sandbox = yes
linger = yes
[user $EXPIRE]
profile = default
share-sandbox = yes
linger = yes
max-session-time = 6s
[user $CHANGE]
profile = default
share-sandbox = yes
${1:-}
[user $ALONE]
profile = default
[user $SHORT]
profile = default
share-sandbox = yes
linger = 2s"
}
write_policy
run "$CTL" check
is "$RC" 0 "the policy passes check"; [ "$RC" = 0 ] || printf "%s\n" "$OUT" | sed "s/^/# /"
syslog_capture "$LOG" || LOG=""
guest_sshd_start || bail_out "sshd did not start"
for u in $LING $FOREVER $EXPIRE $CHANGE $ALONE $SHORT; do sshd_allow "$u"; done

pidns='stat -L -c %i /proc/self/ns/pid'
# bg NAME USER CMD: a login in the background until killed; its output
# in $TMPDIR_T/NAME, its client's pid in CLIENT; waits for a first line.
bg() {
	local i
	ssh_bg "$TMPDIR_T/$1" "$2" "$3"
	CLIENTS="$CLIENTS $CLIENT"
	for i in $(seq 100); do grep -q . "$TMPDIR_T/$1" 2>/dev/null && break; sleep 0.1; done
}
end_client() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
rows() { "$CTL" list 2>/dev/null | awk -v u="$1" '$2 == u'; } # USER's rows
# state ID: the STATE column of ID's row
state() { "$CTL" list 2>/dev/null | awk -v id="$1" '$1 == id { for (i = 8; i <= NF; i++) printf "%s%s", $i, (i < NF ? " " : ""); print "" }'; }
cgroup_of() { ls -d /sys/fs/cgroup/*/cocoon/"$1" /sys/fs/cgroup/cocoon/"$1" 2>/dev/null | wc -l; }
records_of() { grep -lx "user=$1" "$COCOON_ROOT"/run/cocoon/* 2>/dev/null | wc -l; }
json_share() { # json_share USER: "ENTRIES STATE LOGINS ENDS_IN JOINED" of USER's entries
	"$CTL" list --json | perl -MJSON::PP -0e 'my @e = grep { $_->{user} eq $ARGV[0] }
		@{decode_json(<STDIN>)}; my $s = @e ? $e[0]{share} : undef;
		printf "%d %s %s %s %d\n", scalar @e, $s ? $s->{state} : "-",
			$s && defined $s->{logins} ? $s->{logins} : "null",
			$s && defined $s->{ends_in} ? $s->{ends_in} : "null",
			$s ? scalar @{$s->{joined}} : -1' "$1"
}

# ---- list: one sandbox, two logins attached
bg a "$LING" "$pidns; sleep 4301"
A=$CLIENT
sleep 0.5
bg b "$LING" "$pidns; sleep 4302"
B=$CLIENT
ns_a=$(head -1 "$TMPDIR_T/a")
ok $([ -n "$ns_a" ] && [ "$ns_a" = "$(head -1 "$TMPDIR_T/b")" ]; echo $?) \
	"two logins share one sandbox ($ns_a)"
R=$(rows "$LING")
is "$(printf '%s\n' "$R" | grep -c .)" 2 "list: two rows for the user"
SBX=$(printf '%s\n' "$R" | awk '/shared, 2 logins$/ { print $1 }')
JOINED=$(printf '%s\n' "$R" | awk '/ joined / { print $1 }')
ok $([ -n "$SBX" ]; echo $?) "list: the sandbox's row says 'shared, 2 logins'"
like "$(state "$JOINED")" "joined ${SBX:0:8}" "list: the second login is listed as joined to it"
ok $(printf '%s\n' "$R" | head -1 | grep -q "^$SBX "; echo $?) "and comes right under it"
is "$(json_share "$LING")" "1 attached 2 null 1" \
	"list --json: one entry, share.state attached, 2 logins, its joined login nested"
# The control: an unshared session's row is as it always was.
bg c "$ALONE" "sleep 4303"
C=$CLIENT
for i in $(seq 50); do [ -n "$(rows "$ALONE")" ] && break; sleep 0.1; done
like_re "$(rows "$ALONE")" " running$" "control: an unshared session's state is 'running'"
is "$("$CTL" list --json | perl -MJSON::PP -0e 'my @e = grep { $_->{user} eq $ARGV[0] }
	@{decode_json(<STDIN>)}; print join(",", map { exists $_->{share} ? "share" : "none" } @e)' "$ALONE")" \
	"none" "control: and its JSON entry has no share"
end_client "$C"

# ---- enter, by the sandbox's id and by a login's
run "$CTL" enter "$SBX" -- /usr/bin/stat -L -c %i /proc/self/ns/pid
is "$OUT" "$ns_a" "enter by the sandbox's id runs in its pid namespace"
run "$CTL" enter "$JOINED" -- /usr/bin/stat -L -c %i /proc/self/ns/pid
is "$OUT" "$ns_a" "enter by a joined login's id: the same sandbox"

# ---- screen: started in one login, seen from a concurrent one
bg s "$LING" "screen -dmS w sleep 4304; echo started \$?; sleep 4305"
S=$CLIENT
SC=$(ssh_as "$LING" "screen -ls 2>&1")
like "$(cat "$TMPDIR_T/s")" "started 0" "screen -dmS w starts in a login"
like "$SC" ".w" "screen -ls from a second concurrent login shows it"
[ "${SC#*.w}" != "$SC" ] || printf '%s\n' "$SC" | sed 's/^/# /'
end_client "$S"

# ---- audit: created, joined, left
if [ -n "$LOG" ]; then
	syslog_wait "$LOG" "session=$JOINED"
	like "$(grep -F "event=start" "$LOG" | grep -F "session=$SBX ")" \
		"sandbox=$SBX share=created" "audit: the first login's start record says share=created"
	like "$(grep -F "event=start" "$LOG" | grep -F "session=$JOINED ")" \
		"sandbox=$SBX share=joined" "audit: the second's says share=joined, with the sandbox's id"
	unlike "$(grep -F "event=start" "$LOG" | grep -F "user=$ALONE ")" "share=" \
		"audit control: an unshared login's record has no share field"
else
	skip "/dev/log is taken: syslog not captured"; skip "no syslog"; skip "no syslog"
fi

# ---- both logins end: the sandbox lingers, list says for how long
end_client "$A"
end_client "$B"
for i in $(seq 50); do [ "$(rows "$LING" | grep -c .)" = 1 ] && break; sleep 0.1; done
like_re "$(state "$SBX")" "^shared, lingering, ends in ([0-9]|[12][0-9]|30)s$" \
	"list: with no login attached it is 'shared, lingering, ends in Ns' (N <= 30)"
is "$(rows "$LING" | grep -c .)" 1 "list: the joined login's row went with its login"
is "$(json_share "$LING" | cut -d' ' -f1-3)" "1 lingering 0" "list --json: lingering, 0 logins"
ok $([ "$(live_procs "$LING")" -gt 0 ]; echo $?) "the sandbox's processes live on (screen, sleep)"
if [ -n "$LOG" ]; then
	syslog_wait "$LOG" "event=end" 
	syslog_wait "$LOG" "session=$JOINED result=ended" 10
	like "$(grep -F "event=end" "$LOG" | grep -F "session=$JOINED ")" "sandbox=$SBX share=left" \
		"audit: a login's end record says share=left, with the sandbox's id"
else
	skip "no syslog"
fi

# ---- stop by the sandbox's id ends it whole
ok $([ "$(cgroup_of "$SBX")" -gt 0 ]; echo $?) "the lingering sandbox has its cgroup (pids-max)"
run "$CTL" stop "$SBX"
is "$RC" 0 "stop SANDBOX-ID exits 0"
like "$OUT" "stopped shared sandbox $SBX" "and says it stopped the shared sandbox"
wait_gone "$LING"
is "$(live_procs "$LING")" 0 "no process of the user is left"
is "$(records_of "$LING")" 0 "no record of the sandbox is left"
for i in $(seq 50); do [ "$(cgroup_of "$SBX")" = 0 ] && break; sleep 0.1; done
is "$(cgroup_of "$SBX")" 0 "nor its cgroup"
is "$(rows "$LING" | grep -c .)" 0 "list shows nothing of it"
N=$(ssh_as "$LING" "$pidns; screen -ls 2>&1")
ok $([ -n "$(printf '%s\n' "$N" | head -1)" ] && [ "$(printf '%s\n' "$N" | head -1)" != "$ns_a" ]; echo $?) \
	"a next login gets a new sandbox"
unlike "$N" ".w" "without the stopped one's screen"
stop_ours # that login's sandbox lingers: the next two logins make their own
wait_gone "$LING"

# ---- stop by a joined login's id ends every login of it
bg a2 "$LING" "$pidns; sleep 4306"
A=$CLIENT
sleep 0.5
bg b2 "$LING" "$pidns; sleep 4307"
B=$CLIENT
J2=$(rows "$LING" | awk '/ joined / { print $1 }')
S2=$(rows "$LING" | awk '/ shared, / { print $1 }')
run "$CTL" stop "$J2"
like "$OUT" "stopped shared sandbox $S2 (user $LING" "stop JOINED-ID stops the sandbox it joined"
like "$OUT" "and its 1 joined login" "with its joined login's record"
for c in $A $B; do
	for i in $(seq 100); do kill -0 "$c" 2>/dev/null || break; sleep 0.1; done
done
ok $(! kill -0 "$A" 2>/dev/null && ! kill -0 "$B" 2>/dev/null; echo $?) "both logins' connections ended"
end_client "$A"; end_client "$B"
wait_gone "$LING"
is "$(live_procs "$LING")" 0 "no process of the user is left"
is "$(records_of "$LING")" 0 "no record of either login is left"
if [ -n "$LOG" ]; then
	syslog_wait "$LOG" "cocoonctl stop" 
	like "$(grep -F "result=stopped" "$LOG" | grep -F "session=$S2 ")" "sandbox=$S2" \
		"audit: stop's end record names the sandbox"
	is "$(grep -cE "sandbox=($SBX|$S2) share=ended" "$LOG")" 0 \
		"audit control: a stopped sandbox has stop's record, and none of its pid 1's"
	# Each login's own end record says stop ended it (no reason: that
	# is stop's record's), not result=ended.
	for id in $S2 $J2; do syslog_wait "$LOG" "session=$id result=stopped duration=" 10; done
	like "$(grep -F "session=$S2 result=stopped duration=" "$LOG")" "sandbox=$S2 share=left" \
		"audit: the first login's own end record says result=stopped, share=left"
	like "$(grep -F "session=$J2 result=stopped duration=" "$LOG")" "sandbox=$S2 share=left" \
		"audit: and the joined login's too"
	is "$(grep -F "event=end" "$LOG" | grep -cE "session=($S2|$J2) result=ended")" 0 \
		"audit: no end record of either login says result=ended"
else
	skip "no syslog"; skip "no syslog"; skip "no syslog"; skip "no syslog"; skip "no syslog"
fi
is "$(ls -A "$COCOON_ROOT/run/cocoon" | grep -cE "^\.($SBX|$S2|$J2)\.stop")" 0 \
	"no mark of stop's is left: the logins took theirs, a lingering sandbox got none"

# ---- linger = yes: no end
ssh_as "$FOREVER" "nohup sleep 4308 >/dev/null 2>&1 </dev/null &" >/dev/null 2>&1
F=$(rows "$FOREVER" | awk '{ print $1 }')
for i in $(seq 50); do [ "$(state "$F")" = "shared, lingering, no end" ] && break; sleep 0.1; done
is "$(state "$F")" "shared, lingering, no end" "list: linger = yes says 'lingering, no end'"
is "$(json_share "$FOREVER" | cut -d' ' -f1-4)" "1 lingering 0 null" "list --json: ends_in null"
run "$CTL" stop "$F"
wait_gone "$FOREVER"
is "$(live_procs "$FOREVER")" 0 "stop ends a sandbox that lingers with no end"

# ---- a linger's end: the sandbox's own record, and its slot's files go
slot_files() { ls -A "$COCOON_ROOT/run/cocoon" 2>/dev/null | grep -c "^\.share-$(id -u "$SHORT")-"; }
run ssh_as "$SHORT" "ls /proc/self/fd >/dev/null && echo own-fds; ls /proc/1/fd >/dev/null 2>&1 && echo pid1-fds; nohup sleep 4312 >/dev/null 2>&1 </dev/null &"
like "$OUT" "own-fds" "control: a login lists its own descriptors"
unlike "$OUT" "pid1-fds" "but not pid 1's, which holds the log socket of the sandbox's end record"
SH=$(rows "$SHORT" | awk '{ print $1 }')
is "$(slot_files)" 2 "control: while the sandbox lives, its slot's lock and socket are there"
for i in $(seq 100); do [ "$(live_procs "$SHORT")" = 0 ] && break; sleep 0.1; done
is "$(live_procs "$SHORT")" 0 "the sandbox ends with its linger (2s)"
if [ -n "$LOG" ] && [ -n "$SH" ]; then
	syslog_wait "$LOG" "sandbox=$SH share=ended" 10
	sleep 0.5 # a second one would come at once
	is "$(grep -cF "sandbox=$SH share=ended" "$LOG")" 1 "audit: the linger's end has one record"
	like_re "$(grep -F "sandbox=$SH share=ended" "$LOG")" \
		"event=end user=$SHORT uid=[0-9]+ service=$SSHD_SERVICE rule=.* plan=[0-9a-f]+ ns=[a-z,]+ session=$SH result=ended reason=linger duration=[0-9]+ sandbox=$SH share=ended$" \
		"its fields: the user, plan and sandbox, result=ended reason=linger, share=ended"
else
	skip "no syslog"; skip "no syslog"
fi
"$CTL" list >/dev/null 2>&1 # sweeps its record, now stale
is "$(slot_files)" 0 "once its record is gone, so are its slot's lock and socket"

# ---- a plan change: the next login gets a sandbox of its own
bg p "$CHANGE" "$pidns; hostname; sleep 4309"
P=$CLIENT
write_policy "hostname = csad-x"
run ssh_as "$CHANGE" "$pidns; hostname"
is "$RC" 0 "after a plan change the next login is not refused"
ok $([ "$(printf '%s\n' "$OUT" | head -1)" != "$(head -1 "$TMPDIR_T/p")" ]; echo $?) \
	"it gets a pid namespace of its own ($(head -1 "$TMPDIR_T/p"), $(printf '%s\n' "$OUT" | head -1))"
like "$OUT" "csad-x" "under the new plan"
ok $(kill -0 "$P"; echo $?) "the first login goes on in its own sandbox"
is "$(rows "$CHANGE" | grep -c 'shared, 1 login$')" 1 "list: the old plan's sandbox, one login attached"
end_client "$P"
wait_gone "$CHANGE"

# ---- the seccomp FILE's text is the plan's: after an edit, the next
# login gets a sandbox of its own, under the new rules (the old rules
# were the joiners' for as long as the sandbox lived)
SF=$COCOON_ROOT/etc/cocoon/share-admin-$T.seccomp
write_policy "seccomp = $SF"
printf 'acct\n' > "$SF"
bg f "$CHANGE" "$pidns; sleep 4313"
F1=$CLIENT
run ssh_as "$CHANGE" "$pidns; mkdir ~/sf-dir 2>&1 && echo made; rmdir ~/sf-dir"
F_NS=$(grep -x '[0-9][0-9]*' "$TMPDIR_T/f" | head -1)
ok $([ -n "$F_NS" ] && [ "$(printf '%s\n' "$OUT" | head -1)" = "$F_NS" ]; echo $?) \
	"control: with the file unchanged, the next login joins ($F_NS)"
like "$OUT" "made" "and the file's rules allow mkdir"
printf 'acct\nmkdir\nmkdirat\n' > "$SF"
run ssh_as "$CHANGE" "$pidns; mkdir ~/sf-dir 2>&1 && echo made; rmdir ~/sf-dir 2>/dev/null"
NEW_NS=$(printf '%s\n' "$OUT" | head -1 | grep -x '[0-9][0-9]*')
ok $([ -n "$NEW_NS" ] && [ "$NEW_NS" != "$F_NS" ]; echo $?) \
	"after the file's edit the next login does not join ($(printf '%s\n' "$OUT" | head -1))"
like "$OUT" "Operation not permitted" "its filter has the new rules: mkdir refused"
unlike "$OUT" "made" "and nothing made"
end_client "$F1"
wait_gone "$CHANGE"
write_policy

# ---- max-session-time ends every login of a shared sandbox, and the
# sandbox itself though it lingers with no end (linger = yes)
start=$(date +%s)
run ssh_as "$EXPIRE" "nohup sleep 4314 >/dev/null 2>&1 </dev/null &"
wait_process "$EXPIRE" -fx 'sleep 4314'
ok $(pgrep -u "$EXPIRE" -fx 'sleep 4314' >/dev/null; echo $?) "a job outlives its login (linger = yes)"
bg e1 "$EXPIRE" "$pidns; sleep 4310"
E1=$CLIENT
bg e2 "$EXPIRE" "$pidns; sleep 4311"
E2=$CLIENT
is "$(rows "$EXPIRE" | grep -c .)" 3 "the lingering sandbox and two logins in it, with max-session-time = 6s"
for c in $E1 $E2; do
	for i in $(seq 200); do kill -0 "$c" 2>/dev/null || break; sleep 0.1; done
done
took=$(($(date +%s) - start))
ok $(! kill -0 "$E1" 2>/dev/null && ! kill -0 "$E2" 2>/dev/null; echo $?) \
	"both logins ended when it expired (after ${took}s)"
end_client "$E1"; end_client "$E2"
wait_gone "$EXPIRE"
is "$(live_procs "$EXPIRE")" 0 "nothing of it is left, the lingering job included"
if [ -n "$LOG" ]; then
	# Both logins' end records, the one that joined included, say why.
	for i in $(seq 50); do
		[ "$(grep -F "user=$EXPIRE " "$LOG" | grep -c 'event=end .*result=expired')" -ge 3 ] && break
		sleep 0.1
	done
	is "$(grep -F "user=$EXPIRE " "$LOG" | grep -c 'event=end .*result=expired .*share=left')" 2 \
		"the end records of both logins, the joined one's too, say result=expired"
	is "$(grep -F "user=$EXPIRE " "$LOG" | grep -c 'event=end .*result=expired reason=max-session-time .*share=ended$')" 1 \
		"and the sandbox's own end record, once, says result=expired reason=max-session-time"
else
	skip "no syslog"; skip "no syslog"
fi

done_testing
