#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A failure injected at each setup step (the fault-injection build of
# make check-build-fault, common/util/fault.h), for cocoonctl run and for a
# PAM session (pamtester): every one refuses the session with a message
# naming the step and leaves no process, mount, cgroup, cocoon-init or
# run-time record. The control: past the last step the same session
# runs. And the ordinary binaries have no trace of fault injection.
ORDINARY_ROOT=$COCOON_ROOT
COCOON_ROOT=$COCOON_ROOT/fault
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-sshd-fault-$T
work=$(mktemp -d /run/cocoon-fault-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	syslog_release
	rm -f "/etc/pam.d/$SERVICE"
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

[ -x "$CTL" ] || { echo "1..0 # skip no fault-injection build (make check-build-fault)"; exit 0; }

for f in "$ORDINARY_ROOT/usr/sbin/cocoonctl" "$ORDINARY_ROOT/usr/bin/cocoon-shell" \
	 "$ORDINARY_ROOT/lib/security/pam_cocoon.so"; do
	ok $(! grep -q COCOON_FAULT "$f"; echo $?) "the ordinary $(basename "$f") has no fault injection"
done
ok $(grep -q COCOON_FAULT "$CTL"; echo $?) "control: the fault build's cocoonctl has it"

add_user ccft5$T
LOGGED=yes
syslog_capture "$work/syslog" || LOGGED=""
# The guest policy (tmpfs home, private tmp, cgroup limits): the most steps.
guest_policy ccft5$T
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so
PAM
before=$(leftovers)

# inject NAME COMMAND...: COMMAND with a fault at steps 1, 2, ... until
# it runs through; each failure checked. NAME prefixes the test names.
inject() {
	local name=$1 step=0 failures=0 bad=""
	shift
	while [ "$step" -lt 80 ]; do
		step=$((step + 1))
		local mark
		mark=$(cat "$work/syslog" 2>/dev/null | wc -l)
		OUT=$(COCOON_FAULT=$step "$@" 2>&1)
		RC=$?
		local said
		said=$(printf '%s\n' "$OUT"; sleep 0.2; tail -n "+$((mark + 1))" "$work/syslog" 2>/dev/null)
		# Without syslog, pam_cocoon's refusals are known by status alone.
		case "$said" in
		*"fault injected at step $step"*) ;;
		*) [ -z "$LOGGED" ] && [ "$RC" -ne 0 ] || break ;;
		esac
		failures=$((failures + 1))
		[ "$RC" -ne 0 ] || bad="$bad step $step: succeeded;"
		local now
		now=$(settle_to "$before")
		[ "$now" = "$before" ] || bad="$bad step $step: left $now;"
		echo "# $name, $(printf '%s\n' "$said" | grep -o "fault injected at step $step: [^\"]*" | head -1)"
	done
	ok $([ "$failures" -ge 5 ]; echo $?) "$name: a fault at each of $failures steps refused the session"
	is "$bad" "" "$name: and each left nothing (processes, mounts, cgroups, records, inits)"
	is "$RC" 0 "$name control: past the last step ($step) it runs"
	[ "$RC" = 0 ] || printf '%s\n' "$OUT" | sed 's/^/# said: /'
}

inject "cocoonctl run" "$CTL" run --user ccft5$T -- /bin/true
[ -n "$LOGGED" ] || echo "# /dev/log is taken: PAM failures are told by status, not by message"
inject "pam_cocoon" pamtester "$SERVICE" ccft5$T open_session close_session

done_testing
