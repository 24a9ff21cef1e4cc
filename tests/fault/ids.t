#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ids change only in credentials.c, always with its checks: a fault
# injected in the read-back after the switch to the user (the
# fault-injection build, common/util/fault.h) refuses the login, for
# cocoon-shell's unconfined path (sandbox = none) as for a sandboxed
# session of cocoonctl run, and nothing runs. The control: without the
# fault the same logins run, as the user.
COCOON_ROOT=$COCOON_ROOT/fault
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-ids-test.XXXXXX)
cleanup() { syslog_release; policy_reset; cleanup_users; rm -rf "$work"; }
trap cleanup EXIT

[ -x "$CTL" ] || { echo "1..0 # skip no fault-injection build (make check-build-fault)"; exit 0; }

U=ccids$T
add_user $U || { echo "Bail out! useradd"; exit 1; }
uid=$(id -u $U)
FAULT_NAME="reading the ids back"

log=$work/syslog
syslog_capture "$log" || log=""
printf '[default]\nsandbox = none\n' | policy_write cocoon.conf
run runuser -u $U -- "$SHELL_BIN" -c 'echo ran as $(id -u)'
is "$RC" 0 "sandbox = none, control: cocoon-shell starts the shell"
like "$OUT" "ran as $uid" "as the user"
run runuser -u $U -- env COCOON_FAULT="$FAULT_NAME" "$SHELL_BIN" -c 'echo ran as $(id -u)'
ok $([ "$RC" -ne 0 ]; echo $?) "sandbox = none, a fault in the read-back: cocoon-shell refuses"
refusal_logged "$log" "cannot switch to $U: fault injected at step" \
	"and logs where (the user sees the reference)"
unlike "$OUT" "ran as" "no shell ran, unconfined or not"

printf '[default]\nprofile = default\n' | policy_write cocoon.conf
run "$CTL" run --user $U -- /bin/sh -c 'echo ran as $(id -u)'
is "$RC" 0 "sandboxed, control: cocoonctl run runs the command"
like "$OUT" "ran as $uid" "as the user"
run env COCOON_FAULT="$FAULT_NAME" "$CTL" run --user $U -- /bin/sh -c 'echo ran as $(id -u)'
ok $([ "$RC" -ne 0 ]; echo $?) "sandboxed, a fault in the read-back: cocoonctl run refuses"
like_re "$OUT" "fault injected at step [0-9]+: $FAULT_NAME" "and says where"
unlike "$OUT" "ran as" "nothing ran"

done_testing
