# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/limits/*.t: a sandbox profile for sessions run through
# cocoonctl run, cocoon-shell and pam_cocoon, and process counting.
. "$(dirname "$0")/../lib.sh"
SHELL_BIN=$COCOON_ROOT/usr/bin/cocoon-shell
PAMDIR=$COCOON_ROOT/lib/security
SSHD_SERVICE=cocoon-test-sshd-limits

# limits_policy RULES: the embedded default profile for everyone, then
# RULES (sections naming the test's users).
limits_policy() {
	policy_reset
	printf '[default]\nprofile = default\n%s\n' "$1" | policy_write cocoon.conf
}

# live_procs USER: the user's processes that are not zombies (this
# machine's pid 1 never reaps).
live_procs() {
	ps -u "$1" -o stat= 2>/dev/null | grep -vc '^Z'
}

# wait_gone USER: up to 5 s for the user's live processes to end.
wait_gone() {
	local i
	for i in $(seq 50); do
		[ "$(live_procs "$1")" -eq 0 ] && return 0
		sleep 0.1
	done
	return 1
}
