#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon in su's session stack (the real /etc/pam.d/su, restored from
# a backup on exit): su USER -c CMD and su - USER run in the sandbox, the
# status comes back, and nothing is left afterwards.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
backup=$(mktemp /run/cocoon-pam-su.XXXXXX)
cp -p /etc/pam.d/su "$backup" || { echo "Bail out! backup of /etc/pam.d/su"; exit 1; }
trap 'cat "$backup" > /etc/pam.d/su; rm -f "$backup"; policy_reset; cleanup_users' EXIT

add_user ccsu1$T
policy_reset
{
	printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
	cat "$backup"
	printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
} > /etc/pam.d/su

inits_before=$(inits)
mounts=$(mount_count)

run su ccsu1$T -c 'cat /proc/1/comm; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'
is "$RC" 0 "su USER -c CMD succeeds"
like "$OUT" "cocoon-init" "in the sandbox's pid namespace"
like "$OUT" "NoNewPrivs:	1" "with no_new_privs"
like "$OUT" "Seccomp:	2" "and the filter"
run su - ccsu1$T -c 'shopt -q login_shell && echo login; pwd; cat /proc/1/comm'
is "$OUT" "login
/home/ccsu1$T
cocoon-init" "su - USER is a sandboxed login shell in the home"
run su ccsu1$T -c 'printf "<%s>" "$0" "$@"' zero 'a b' '$(id)'
is "$OUT" "<zero><a b><\$(id)>" "arguments pass unchanged through the launcher"
run su ccsu1$T -c 'exit 5'
is "$RC" 5 "the exit status comes back"
run su ccsu1$T -c 'sleep 100 & echo started'
is "$RC" 0 "a background process is left running at logout"
for i in $(seq 50); do ps -o stat= -u ccsu1$T | grep -vq '^Z' || break; sleep 0.1; done
is "$(ps -o stat= -u ccsu1$T | grep -vc '^Z')" "0" "and is gone with the session"
# The caller's keyring: a key root adds to its session keyring before su.
# keyctl(KEYCTL_JOIN_SESSION_KEYRING) gives this test a keyring of its own;
# add_key (248) puts a key in it; the target searches its session keyring
# (keyctl 250, KEYCTL_SEARCH 10, KEY_SPEC_SESSION_KEYRING -3).
keyring_probe() { # keyring_probe SU-STACK-FILE: prints found/not-found
	perl -e '
		syscall(250, 1, 0) >= 0 or die "join: $!";
		my ($t, $d, $p) = ("user", "cc-caller-secret", "s3cret");
		syscall(248, $t, $d, $p, length $p, -3) >= 0 or die "add_key: $!";
		exec "su", $ARGV[0], "-c", q{perl -e "my (\$t, \$d) = (q(user), q(cc-caller-secret)); print syscall(250, 10, -3, \$t, \$d, 0) >= 0 ? qq(found\n) : qq(not-found\n)"};' "ccsu1$T"
}
cp /etc/pam.d/su "$backup.cocoon"
cat "$backup" > /etc/pam.d/su
run keyring_probe
is "$OUT" "found" "control: without the module, su's target finds the caller's key"
cat "$backup.cocoon" > /etc/pam.d/su
rm -f "$backup.cocoon"
run keyring_probe
is "$OUT" "not-found" "with pam_cocoon, the session has a keyring of its own"
is "$(inits_back_to "$inits_before")" "$inits_before" "no cocoon-init is left"
is "$(mount_count)" "$mounts" "no mount is left on the host"

done_testing
