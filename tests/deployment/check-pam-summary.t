#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check --pam: the summary of what it inspected (stacks,
# accounts, sshd's configuration), a stack left in mode=audit, and a rule
# whose plan pam_cocoon refuses on a service whose stack names it, an
# error there (a warning for plain check), shown to predict a real
# refusal through pamtester.
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-sum-$T
img=$(mktemp -d /run/cocoon-summary.XXXXXX)
trap 'rm -f "/etc/pam.d/$SERVICE"; rm -rf "$img"; policy_reset; cleanup_users' EXIT
add_user ccsum1$T || bail_out "useradd"
conf=$CONF_DIR/cocoon.conf
pam=$img/etc/pam.d
mkdir -p "$pam" "$img/etc/ssh"
M=pam_cocoon.so
printf 'session required %s return\nsession required %s mode=audit\n' $M $M > "$pam/trial"
printf 'session required %s return\nsession required %s mode=audit mode=enforce\n' \
	$M $M > "$pam/enforced"
printf 'session required pam_unix.so\n' > "$pam/plain"

# A rule with a seccomp filter and no-new-privs = no, which cocoon-shell
# runs and pam_cocoon refuses, on a service whose stack names the module.
policy_reset
policy_write cocoon.conf <<CONF
[user ccsum1$T]
profile = default
service = enforced $SERVICE
no-new-privs = no
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 0 "plain check: the stacks unknown, only a warning"
like "$OUT" "$conf:1: warning: pam_cocoon would refuse the sessions of [user ccsum1$T]" "said as one"

run "$CTL" check --pam --root "$img"
is "$RC" 1 "check --pam: an error"
like "$OUT" "$conf:1: error: [user ccsum1$T]: pam_cocoon refuses its sessions on service enforced ($pam/enforced names the module): a PAM session with a seccomp filter needs 'no-new-privs = yes'" \
	"at the rule's line, naming the service"
like "$OUT" "$pam/trial:2: warning: service trial: pam_cocoon.so is left in mode=audit" \
	"a stack left in mode=audit is flagged at its line"
unlike "$OUT" "service enforced: pam_cocoon.so is left in mode=audit" \
	"not one where a later mode=enforce holds"
like "$OUT" "inspected: 3 PAM service files in $pam; pam_cocoon confines enforced, trial" \
	"the summary names the stacks read and those that confine"
like_re "$OUT" "inspected: [0-9]+ accounts \(root aside\), [0-9]+ with cocoon-shell as login shell, [0-9]+ confined" \
	"the accounts considered"
like "$OUT" "inspected: sshd configuration $img/etc/ssh/sshd_config not read" \
	"and that no sshd configuration was read"

# Control: pam_cocoon itself refuses that session.
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required $PAMDIR/pam_cocoon.so
PAM
run pamtester "$SERVICE" ccsum1$T open_session close_session
ok $((RC == 0)) "control: pamtester's session is refused (exit $RC)"
sed -i '/^no-new-privs = no$/d' "$conf"
run "$CTL" check --pam --root "$img"
unlike "$OUT" "[user ccsum1$T]: pam_cocoon refuses" "with no_new_privs, no error"
run pamtester "$SERVICE" ccsum1$T open_session close_session
is "$RC" 0 "and pamtester's session opens"

# A stack whose pam_cocoon reads another policy file (conf=), or one
# left in mode=audit, does not refuse by this policy's rules; the same
# stack reading this policy does. pamtester on the conf= stack is the
# control: the other policy lets the session in. (No host stack runs
# the module on this policy meanwhile: plain check's error would stop
# check --pam's.)
rm -f "/etc/pam.d/$SERVICE"
sed -i "s/^service = enforced .*/&\nno-new-privs = no/; s/^service = enforced /service = elsewhere trial here /" "$conf"
other=$img/other.conf
printf '[default]\nprofile = default\n' > "$other" && chmod 0600 "$other"
printf 'session required %s return\nsession required %s conf=%s\n' $M $M "$other" > "$pam/elsewhere"
printf 'session required %s return\nsession required %s conf=%s\n' $M $M "$conf" > "$pam/here"
run "$CTL" check --pam --root "$img"
is "$RC" 1 "check --pam: an error"
like "$OUT" "[user ccsum1$T]: pam_cocoon refuses its sessions on service here" "on the stack whose conf= names this policy"
unlike "$OUT" "refuses its sessions on service elsewhere" "not on the stack whose conf= names another file"
unlike "$OUT" "refuses its sessions on service trial" "nor on the one left in mode=audit"
sed -i "s/^service = elsewhere trial here /service = elsewhere trial /" "$conf"
run "$CTL" check --pam --root "$img"
unlike "$OUT" "pam_cocoon refuses its sessions" "without that stack, no refusal is predicted"
printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required %s return\nsession required %s conf=%s\n' \
	"$PAMDIR/pam_cocoon.so" "$PAMDIR/pam_cocoon.so" "$other" > "/etc/pam.d/$SERVICE"
run pamtester "$SERVICE" ccsum1$T open_session close_session
is "$RC" 0 "control: through a stack with that conf=, the session opens"
sed -i '/^no-new-privs = no$/d' "$conf"

# sshd's stack names the module: its configuration is read, and said.
printf 'session required %s return\nsession required %s\n' $M $M > "$pam/sshd"
printf 'UsePAM yes\n' > "$img/etc/ssh/sshd_config"
run "$CTL" check --pam --root "$img"
like "$OUT" "inspected: sshd configuration $img/etc/ssh/sshd_config (with the files it includes) and $img/etc/default/ssh" \
	"the sshd configuration read is named"
done_testing
