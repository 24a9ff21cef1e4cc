# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/fault, tests/exhaust and tests/soak: sessions under the
# shipped guest policy through a private sshd with pam_cocoon, and a
# snapshot of what sessions could leave behind on the host.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../sshd.sh"
GUEST_CONF=$(dirname "$0")/../../conf/examples/guest.conf

# guest_policy USER...: the shipped guest.conf, its [group cocoon-guest]
# rule given to each USER instead (no group to create and share).
guest_policy() {
	local u rules=""
	for u in "$@"; do rules="$rules[user $u]\nprofile = guest\n"; done
	policy_reset
	sed '/^\[group cocoon-guest\]/,/^$/d' "$GUEST_CONF" |
		{ cat; printf "\n$rules"; } | policy_write cocoon.conf
}

# guest_sshd_start: the test sshd with pam_cocoon in its session stack,
# the `return` line first (as pam_cocoon(8) says).
guest_sshd_start() {
	sshd_start "session required $PAMDIR/pam_cocoon.so" || return 1
	sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		"/etc/pam.d/$SSHD_SERVICE"
}

# Counting what a session may leave behind. Processes: live ones (this
# machine's pid 1 never reaps zombies) that are the test's own: running
# a program of the installed tree or of the test sshd, or owned by one of
# TEST_USERS (other engineers' tests run on this host at the same time).
live_processes() {
	local uids="" u
	for u in $TEST_USERS; do uids="$uids,$(id -u "$u")"; done
	ps -eo pid=,stat=,uid= | while read -r pid stat uid; do
		[ "${stat#Z}" = "$stat" ] || continue
		case ",$uids," in *",$uid,"*) echo "$pid"; continue ;; esac
		case "$(readlink "/proc/$pid/exe" 2>/dev/null)" in
		"$COCOON_ROOT"/*) echo "$pid" ;;
		"${SSHD_DIR:-/nonexistent}"/*) echo "$pid" ;;
		esac
	done | wc -l
}
mount_count() { wc -l < /proc/self/mountinfo; }
# Session cgroups left empty: a running session's is never empty, and
# other engineers' sessions come and go on this host meanwhile.
session_cgroups() {
	local d n=0
	for d in /sys/fs/cgroup/*/cocoon/*/ /sys/fs/cgroup/cocoon/*/; do
		[ -f "$d/cgroup.procs" ] && [ ! -s "$d/cgroup.procs" ] && n=$((n + 1))
	done
	echo "$n"
}
# Sessions' pid 1 of the installed tree under test (zombies aside): the
# cocoon-init program (service mode), or cocoonctl and cocoon-shell's own
# image named cocoon-init (run mode).
our_inits() {
	local p n=0 exe
	for p in $(pgrep -x cocoon-init); do
		exe=$(readlink "/proc/$p/exe" 2>/dev/null)
		case $exe in
		"$COCOON_ROOT/usr/libexec/cocoon/cocoon-init"|"$COCOON_ROOT/usr/sbin/cocoonctl"|"$COCOON_ROOT/usr/bin/cocoon-shell") ;;
		*) continue ;;
		esac
		ps -o stat= -p "$p" | grep -qv '^Z' && n=$((n + 1))
	done
	echo "$n"
}
# Records of the trees under test (the check tree's and the fault
# build's), and of an installed cocoon, if any.
run_records() {
	find "$COCOON_ROOT/run/cocoon" "$COCOON_ROOT/fault/run/cocoon" /run/cocoon \
		-mindepth 1 2>/dev/null | wc -l
}
sshd_fds() { ls "/proc/$SSHD_PID/fd" 2>/dev/null | wc -l; }
leftovers() { # one line: processes mounts cgroups records sshd-fds inits
	echo "procs=$(live_processes) mounts=$(mount_count) cgroups=$(session_cgroups)" \
		"records=$(run_records) sshd_fds=$(sshd_fds) inits=$(our_inits)"
}
# settle_to WANT: up to 10 s for leftovers to come back to WANT; prints
# what it found last.
settle_to() {
	local i now
	for i in $(seq 100); do
		now=$(leftovers)
		[ "$now" = "$1" ] && break
		sleep 0.1
	done
	echo "$now"
}
# ssh_bg OUT USER CMD: the real client in the background, its own pid in
# CLIENT (so that killing it is the client vanishing), output to OUT.
ssh_bg() {
	local out=$1 user=$2; shift 2
	# shellcheck disable=SC2046
	ssh $(SSH_OPTS) -l "$user" 127.0.0.1 "$@" > "$out" 2>&1 &
	CLIENT=$!
}
