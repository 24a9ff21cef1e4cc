#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl explain: the matched rule, the rules that lost, the plan, as
# text, JSON and a bubblewrap command line; NSS groups; refusals.
# (tests/policy/explain-truth.t compares its verdicts with real logins.)
. "$(dirname "$0")/../lib.sh"
# A PAM service whose session stack confines with pam_cocoon: --service
# answers for the service's own stack.
SVC=cocoon-test-explain-$T
trap 'rm -f "/etc/pam.d/$SVC"; policy_reset; cleanup_users' EXIT
printf 'session required %s/pam_cocoon.so\n' "$PAMDIR" > "/etc/pam.d/$SVC"

add_group ccexg1$T
add_group ccexg2$T
add_user ccex1$T -G ccexg1$T,ccexg2$T
add_user ccexsys$T -r -m
uid=$(id -u ccex1$T)

policy_reset
run "$CTL" explain ccex1$T
is "$RC" 0 "explain on the embedded default"
like "$OUT" "rule:        [default] at <embedded default>:1" "the embedded [default] rule matches"
like "$OUT" "bind /home/ccex1$T" "the home is bound"
like "$OUT" "dir /run/user/$uid mode=0700" "%U expands"
embedded_hash=$(printf '%s\n' "$OUT" | sed -n 's/^plan hash: *//p')

policy_write cocoon.conf < "$(dirname "$0")/../../conf/cocoon.conf"
run "$CTL" explain ccex1$T
shipped_hash=$(printf '%s\n' "$OUT" | sed -n 's/^plan hash: *//p')
is "$shipped_hash" "$embedded_hash" "the shipped cocoon.conf gives the embedded default's plan"
[ -n "$embedded_hash" ]; ok $? "the plan has a hash"
like "$OUT" "landlock     best-effort, scope abstract-unix signal" "the default asks for both scopes"
# What this kernel raises, as the kernel itself says (ABI from
# landlock_create_ruleset's version query, through perl's syscall).
abi=$(perl -e 'my $v = syscall(444, 0, 0, 1); print $v < 0 ? 0 : $v')
case $abi in
0|1) want="no Landlock wall" ;;
2|3|4|5) want="Landlock ABI $abi: the file-system wall; the scope (abstract-unix signal) needs ABI 6" ;;
*) want="Landlock ABI $abi: the file-system wall and the scope (abstract-unix signal)" ;;
esac
like "$OUT" "this kernel: $want" "explain says which Landlock walls this kernel raises (ABI $abi)"
printf '[default]\nprofile = default\nlandlock-scope = none\n' | policy_write cocoon.conf
run "$CTL" explain ccex1$T
like "$OUT" "landlock     best-effort, scope none" "landlock-scope = none shows"
[ "$abi" -ge 2 ] && like "$OUT" "the file-system wall (no scope asked for)" "and the kernel line follows it" ||
	skip "no Landlock on this kernel"

policy_write cocoon.conf <<CONF
[default]
profile = default

[group ccexg2$T]
profile = default
unshare = pid ipc uts net

[group ccexg1$T]
profile = default
hostname = g1
unshare = pid ipc uts

[user ccex1$T]
profile = default
service = $SVC
CONF
run "$CTL" explain ccex1$T
like "$OUT" "rule:        [group ccexg2$T] at $CONF_DIR/cocoon.conf:4" \
	"the first matching group in file order wins (supplementary groups from NSS)"
like "$OUT" "lost:        [user ccex1$T] at $CONF_DIR/cocoon.conf:13: its service list excludes this service" \
	"the user rule for another service lost"
like "$OUT" "lost:        [group ccexg1$T] at $CONF_DIR/cocoon.conf:8: an earlier [group] rule matched first" \
	"the later group lost"
like "$OUT" "namespaces:  mount pid net ipc uts" "the winning rule's namespaces"
run "$CTL" explain --service $SVC ccex1$T
like "$OUT" "rule:        [user ccex1$T] at $CONF_DIR/cocoon.conf:13" "--service selects the user rule"
like "$OUT" "pam layer:   service $SVC, pam_cocoon at /etc/pam.d/$SVC:1 (required): sandboxed" \
	"through the service's own pam_cocoon line"

run "$CTL" explain --json ccex1$T
is "$RC" 0 "--json"
json_user=$(printf '%s' "$OUT" | perl -MJSON::PP -0e 'my $j = decode_json(<STDIN>); print "$j->{user} $j->{sandbox} $j->{namespaces} ", scalar @{$j->{operations}}')
like "$json_user" "ccex1$T 1 pid net ipc uts " "--json is valid JSON with the plan"

run "$CTL" explain --bwrap ccex1$T
like "$OUT" "bwrap --ro-bind /usr /usr --ro-bind /etc /etc --symlink usr/bin /bin" "--bwrap prints a bubblewrap command"
like "$OUT" "--unshare-pid --unshare-net --unshare-ipc --unshare-uts" "with the namespaces"
# Session limits have no bwrap option: comment lines before the command.
policy_write limits.conf <<CONF
[user ccex1$T]
profile = default
max-session-time = 1h
rlimit-nofile = 512
[default]
profile = default
CONF
run "$CTL" explain --config "$CONF_DIR/limits.conf" --bwrap ccex1$T
is "$RC" 0 "--bwrap with session limits prints the command"
like "$OUT" "# max-session-time 3600s: no bwrap equivalent; use timeout(1) or systemd-run
" "a limit as a comment line"
like "$OUT" "# rlimit-nofile 512 512: no bwrap equivalent; use prlimit(1)" "each limit"
like_re "$OUT" "systemd-run
bwrap --ro-bind /usr /usr .* --die-with-parent -- " "then the bwrap command"
rm -f "$CONF_DIR/limits.conf"

run "$CTL" explain --service $SVC ccex1$T
like "$OUT" "what it does itself (internal-sftp, port forwarding) gets the namespaces only" \
	"explain --service says what a PAM service's own work gets"
run "$CTL" explain --service $SVC "$(id -u ccex1$T)"
like "$OUT" "user:        ccex1$T (uid $(id -u ccex1$T)" "a numeric uid names the user"

run "$CTL" explain ccexsys$T
like "$OUT" "sandbox:     no (not covered by the policy)" "a system account is not matched by [default]"
like "$OUT" "system accounts (uid below UID_MIN) match only [user] rules" "and explain says why"
# Without --service, what cocoon-shell does, and cocoon-shell refuses a
# login no rule covers (it used to be shown as a plan that was not one).
is "$RC" 1 "cocoon-shell refuses an account no rule covers"
like "$OUT" "verdict:     refused" "explain says refused"
like "$OUT" "reason:      no rule of the policy covers ccexsys$T for service shell" "with cocoon-shell's reason"

run "$CTL" explain root
is "$RC" 1 "root is refused"
like "$OUT" "root is never sandboxed" "with the reason"
run "$CTL" explain no-such-user-cc
is "$RC" 1 "an unknown user is an error"
like "$OUT" "unknown user 'no-such-user-cc'" "naming the user"

chown root /home/ccex1$T
run "$CTL" explain ccex1$T
is "$RC" 1 "a home the user does not own refuses"
like "$OUT" "home directory /home/ccex1$T is owned by uid 0, not by ccex1$T" "with the reason"
chown ccex1$T /home/ccex1$T

policy_write cocoon.conf <<'CONF'
[default]
profile = default
[user nobody-cc]
profile = missing
CONF
run "$CTL" explain ccex1$T
is "$RC" 1 "a policy with an error yields no plan"
like "$OUT" "cocoon.conf:4: unknown profile 'missing'" "and the error is given"

policy_write cocoon.conf <<'CONF'
[default]
sandbox = none
CONF
run "$CTL" explain ccex1$T
like "$OUT" "sandbox:     no (sandbox = none)" "sandbox = none is shown as a choice"

done_testing
