# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/limits/*.t: a sandbox profile for sessions run through
# cocoonctl run, cocoon-shell and pam_cocoon, and what they share with every test (tests/lib.sh).
. "$(dirname "$0")/../lib.sh"
SHELL_BIN=$COCOON_ROOT/usr/bin/cocoon-shell
SSHD_SERVICE=cocoon-test-sshd-limits

# limits_policy RULES: the embedded default profile for everyone, then
# RULES (sections naming the test's users).
limits_policy() {
	policy_reset
	printf '[default]\nprofile = default\n%s\n' "$1" | policy_write cocoon.conf
}

# live_procs USER: the user's processes that are not zombies (this
# machine's pid 1 never reaps).
