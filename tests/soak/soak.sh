#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Soak: N guest sessions (shipped guest.conf) through a real sshd with
# pam_cocoon, C at a time, as users ccsk1..ccsk20: commands, sftp and scp
# mixed, every fifth session's client killed mid-way. Each session
# proves it saw its own sandbox (cocoon-init as its pid 1, a file in its
# private /tmp and no other session's). Afterwards the host must have
# exactly the processes, mounts, sshd descriptors, session cgroups and
# run-time records it had before. TAP output; with REPORT=FILE the
# numbers are also written there.
#   usage: soak.sh [N [C]]   (make soak: 200 20; soak.t: 30 10)
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-soak-$T
N=${1:-200}
C=${2:-20}
work=$(mktemp -d /run/cocoon-soak-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	local p
	syslog_release
	for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null; done
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

# The reasons of failed sessions, when /dev/log is free to capture.
syslog_capture "$work/syslog" || echo "# /dev/log is taken: failures come without pam_cocoon's reasons"
users=""
for u in $(seq 20); do add_user "ccsk$T$u"; users="$users ccsk$T$u"; done
guest_policy $users
# Up to C connections being set up at once, none dropped for it.
SSHD_EXTRA_CONFIG="MaxStartups 200" guest_sshd_start || { echo "Bail out! sshd"; exit 1; }
for u in $users; do sshd_allow "$u"; done
head -c 100000 /dev/urandom > "$work/payload"
chmod 0644 "$work/payload"
before=$(leftovers)

# One session's check: what it printed, against what its own sandbox
# shows. OWN prints pid 1's name, then the private /tmp's whole content
# after writing a file named for the session.
OWN='cat /proc/1/comm; echo $$ > /tmp/own-SESSION; ls /tmp'
want_own() { printf 'cocoon-init\nown-%s\n' "$1"; }

# session I: one of four kinds by I mod 5; a line "I KIND ok|FAIL why".
session() {
	local i=$1 user="ccsk$T$(($1 % 20 + 1))" out="$work/s$1" own=${OWN//SESSION/$1}
	case $(($1 % 5)) in
	0) # killed mid-way
		ssh_bg "$out" "$user" "$own; sleep 60"
		local k
		for k in $(seq 100); do grep -q "own-$i" "$out" 2>/dev/null && break; sleep 0.1; done
		kill -KILL "$CLIENT" 2>/dev/null; wait "$CLIENT" 2>/dev/null
		if [ "$(head -2 "$out")" = "$(want_own "$i")" ]; then echo "$i killed ok"
		else echo "$i killed FAIL $(head -c 200 "$out" | tr '\n' '|')"; fi ;;
	1) # sftp: put, ls, get back, all in one session
		printf 'put %s up\nls -l up\nget up %s\n' "$work/payload" "$out.back" |
			timeout 60 sftp -q -b - $(SSH_OPTS | sed 's/-p /-P /') "$user@127.0.0.1" > "$out" 2>&1
		if cmp -s "$work/payload" "$out.back"; then echo "$i sftp ok"
		else echo "$i sftp FAIL $(head -c 200 "$out" | tr '\n' '|')"; fi ;;
	2) # scp out of the sandbox
		timeout 60 scp -q $(SSH_OPTS | sed 's/-p /-P /') "$user@127.0.0.1:/proc/1/comm" "$out.comm" > "$out" 2>&1
		if [ "$(cat "$out.comm" 2>/dev/null)" = cocoon-init ]; then echo "$i scp ok"
		else echo "$i scp FAIL $(head -c 200 "$out" | tr '\n' '|')"; fi ;;
	*) # a command
		ssh_as "$user" "$own" > "$out" 2>&1
		if [ "$(cat "$out")" = "$(want_own "$i")" ]; then echo "$i command ok"
		else echo "$i command FAIL $(head -c 200 "$out" | tr '\n' '|')"; fi ;;
	esac
}

start=$(date +%s)
running=0
sessions=""
for i in $(seq 0 $((N - 1))); do
	if [ "$running" -ge "$C" ]; then
		wait -n
		running=$((running - 1))
	fi
	session "$i" >> "$work/results" &
	sessions="$sessions $!"
	running=$((running + 1))
done
# shellcheck disable=SC2086
wait $sessions
elapsed=$(($(date +%s) - start))

total=$(wc -l < "$work/results")
failed=$(grep -c FAIL "$work/results")
is "$total" "$N" "$N sessions ran, $C at a time, in ${elapsed}s"
is "$failed" 0 "none failed"
grep FAIL "$work/results" | head -5 | sed 's/^/#   /'
if [ "$failed" -ne 0 ]; then
	sort -u "$SSHD_DIR/sshd.log" | head -10 | sed 's/^/#   sshd: /'
	grep 'pam_cocoon' "$work/syslog" 2>/dev/null | grep -v 'event=\(start\|end\) ' |
		head -10 | sed 's/^/#   syslog: /'
fi
for kind in command sftp scp killed; do
	echo "# $kind: $(grep -c " $kind ok" "$work/results") ok"
done
after=$(settle_to "$before")
is "$after" "$before" "afterwards: processes, mounts, cgroups, records, sshd fds, inits as before"

if [ -n "${REPORT:-}" ]; then
	leaks=$([ "$after" = "$before" ] && echo none || echo "before: $before; after: $after")
	cat > "$REPORT" <<REPORT
# Soak: guest sessions through sshd and pam_cocoon

\`make soak\` (tests/soak/soak.sh $N $C), $(date -u '+%Y-%m-%d %H:%M UTC'),
$(nproc) CPUs, $(awk '/^MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo) RAM,
kernel $(uname -r), cgroup $([ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] && echo v2 || echo v1).

Policy: conf/examples/guest.conf (pids-max 256, memory-max 1G, tmpfs home,
private /tmp) for users ccsk1..ccsk20. Every fifth session's client is
killed mid-way; the others are commands, sftp (put, ls, get) and scp.

| sessions | at a time | failed | time | leaks |
|---|---|---|---|---|
| $total | $C | $failed | ${elapsed} s | $leaks |

By kind: $(for kind in command sftp scp killed; do printf '%s %s, ' "$kind" "$(grep -c " $kind ok" "$work/results")"; done | sed 's/, $//') (ok).

Compared before and after: live processes of the test (its users, the
installed tree, the test sshd), mounts in the host's namespace, session
cgroups left empty under cocoon/, session records, open descriptors of the sshd
listener, cocoon-init processes: $after.
REPORT
fi
done_testing
