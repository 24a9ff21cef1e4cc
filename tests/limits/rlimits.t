#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rlimit-*: the plan's soft and hard limits reach the session through
# cocoonctl run, cocoon-shell and pam_cocoon in a real sshd; the user
# cannot raise them; a lower limit the caller or pam_limits set stays.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-limits-$T
work=$(mktemp -d /run/cocoon-limits-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

add_user ccl1$T
add_user ccl2$T
add_user ccl3$T
limits_policy "[profile capped]
profile = default
rlimit-nofile = 100 200
rlimit-fsize = 1M 2M
rlimit-core = 0
[user ccl1$T]
profile = capped
[user ccl3$T]
profile = capped"
host_hard=$(ulimit -Hn)

# ---- cocoonctl run ----
run "$CTL" run --user ccl1$T -- /bin/sh -c 'ulimit -Sn; ulimit -Hn; ulimit -c; ulimit -Sf'
is "$OUT" "100
200
0
2048" "cocoonctl run: soft and hard limits as the plan says (fsize in 512-byte blocks)"
run "$CTL" run --user ccl1$T -- /bin/bash -c 'ulimit -Hn 201 2>/dev/null && echo raised-hard || echo hard-refused; ulimit -Sn 200 && ulimit -Sn; ulimit -Sn 300 2>/dev/null && echo raised-soft || echo soft-refused'
is "$OUT" "hard-refused
200
soft-refused" "inside, soft goes up to hard and no further; hard cannot be raised"
run "$CTL" run --user ccl2$T -- /bin/bash -c "ulimit -Hn; ulimit -Sn $host_hard && echo raised"
is "$OUT" "$host_hard
raised" "control: without rlimit-nofile the host's limits hold and soft rises to hard"
run "$CTL" run --user ccl1$T -- /bin/sh -c 'head -c 3M /dev/zero > /tmp/big; echo "rc=$?"; stat -c %s /tmp/big'
like "$OUT" "1048576" "rlimit-fsize stops a file at the soft limit"
run "$CTL" run --user ccl2$T -- /bin/sh -c 'head -c 3M /dev/zero > /tmp/big; stat -c %s /tmp/big'
is "$OUT" "3145728" "control: without it the file is written whole"
run bash -c "ulimit -Sn 50; ulimit -Hn 150; exec $CTL run --user ccl1$T -- /bin/sh -c 'ulimit -Sn; ulimit -Hn'"
is "$OUT" "50
150" "lower limits of the caller are never raised"

# ---- cocoon-shell ----
run runuser -u ccl1$T -- "$SHELL_BIN" -c 'ulimit -Sn; ulimit -Hn'
is "$OUT" "100
200" "cocoon-shell: the plan's limits"
run runuser -u ccl1$T -- bash -c "ulimit -S -n 64; exec $SHELL_BIN -c 'ulimit -Sn; ulimit -Hn'"
is "$OUT" "64
200" "cocoon-shell: the caller's lower soft limit stays"
run runuser -u ccl2$T -- "$SHELL_BIN" -c 'ulimit -Hn'
isnt_limited=$([ "$OUT" != 200 ] && echo yes)
is "$isnt_limited" "yes" "control: cocoon-shell without rlimit-nofile leaves the hard limit"

# ---- pam_cocoon through sshd, after pam_limits ----
printf '%s soft nofile 50\n%s hard nofile 150\n' "ccl3$T" "ccl3$T" > "$work/limits.conf"
sshd_start "session required pam_limits.so conf=$work/limits.conf
session required $PAMDIR/pam_cocoon.so" || { echo "Bail out! sshd"; exit 1; }
sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" /etc/pam.d/$SSHD_SERVICE
sshd_allow ccl1$T
sshd_allow ccl2$T
sshd_allow ccl3$T
run ssh_as ccl1$T 'cat /proc/1/comm; ulimit -Sn; ulimit -Hn; ulimit -c; ulimit -Hn 300 2>/dev/null || echo refused'
is "$OUT" "cocoon-init
100
200
0
refused" "PAM: the shell in the sandbox gets the plan's limits and cannot raise them"
run ssh_as ccl2$T 'ulimit -Hn'
isnt_limited=$([ "$OUT" != 200 ] && echo yes)
is "$isnt_limited" "yes" "PAM control: without rlimit-nofile the hard limit is not the plan's"
run ssh_as ccl3$T 'ulimit -Sn; ulimit -Hn'
is "$OUT" "50
150" "PAM: what pam_limits set lower stays"

done_testing
