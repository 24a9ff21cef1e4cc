#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl explain tells the truth: for each verdict, its answer for a
# service (verdict, result, reason) is the audit record that a real login
# through the same service logs: pamtester through a PAM service of the
# test's own for pam_cocoon, a real sshd whose stack has no pam_cocoon for
# a cocoon-shell account. And explain --all lists who can log in.
. "$(dirname "$0")/../lib.sh"
SVC=cocoon-test-explain-$T
SSHD_SERVICE=cocoon-test-explain-ssh-$T
SSHD_PORTS=${SSHD_PORTS:-44000-44999}
work=$(mktemp -d /run/cocoon-explain-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	syslog_release
	sshd_cleanup
	rm -f "/etc/pam.d/$SVC"
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

# The comparisons read the audit records: a receiver of its own at /dev/log.
syslog_capture "$work/syslog" || { echo "1..0 # skip /dev/log exists already"; exit 0; }

add_user cctr1$T
add_user cctr2$T -s "$SHELL_BIN"
add_user cctrsys$T -r -s /usr/sbin/nologin
policy_reset

log_lines() { wc -l < "$work/syslog"; }
log_since() { sleep 0.3; tail -n "+$(($1 + 1))" "$work/syslog"; }
# The result and reason of an audit record line, unquoted.
record_answer() {
	perl -ne 'next unless /event=(start|refuse) /;
		my ($r) = / result=(\S+)/;
		my ($why) = / reason=("(?:[^"\\]|\\.)*"|\S+)/;
		$why //= ""; $why =~ s/^"(.*)"$/$1/; $why =~ s/\\(.)/$1/g;
		print "result=$r reason=$why"; exit'
}
# explain --json's verdict, result and reason.
json_answer() {
	perl -MJSON::PP -0e 'my $j = decode_json(<STDIN>);
		print "$j->{verdict} result=", $j->{result} // "", " reason=", $j->{reason} // ""'
}
# service ARGS: the test's service, pam_cocoon's session line with ARGS.
service() {
	printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required %s/pam_cocoon.so %s\n' \
		"$PAMDIR" "$1" > "/etc/pam.d/$SVC"
}
# truth NAME USER VERDICT: explain's answer for USER through $SVC, then a
# real login through it; the verdict is VERDICT, result and reason the log's.
truth() {
	local answer m logged
	answer=$("$CTL" explain --json --service "$SVC" "$2" | json_answer)
	m=$(log_lines)
	pamtester "$SVC" "$2" open_session close_session >/dev/null 2>&1
	logged=$(log_since "$m" | grep "user=$2 " | grep "service=$SVC " | record_answer)
	is "${answer%% *}" "$3" "$1: explain says $3"
	[ -n "$logged" ]; ok $? "$1: the login logged a record ($logged)"
	is "${answer#* }" "$logged" "$1: explain's result and reason are the record's"
}

# exempt=: the policy is not read. The old explain ignored the line and
# answered with the policy's plan: the control shows that answer differs.
service "exempt=cctr1$T"
truth "exempt=" cctr1$T exempt
service ""
run "$CTL" explain --json --service "$SVC" cctr1$T
like "$(printf '%s' "$OUT" | json_answer)" "sandboxed result=sandboxed" \
	"control: without exempt= on the line the same policy sandboxes, which is not what the exempt login logged"

# sandboxed, by the embedded default.
truth "sandboxed" cctr1$T sandboxed

# no rule: a system account, which [default] does not cover.
service ""
truth "no rule" cctrsys$T unconfined

# sandbox = none.
printf '[default]\nsandbox = none\n' | policy_write none.conf
service "conf=$CONF_DIR/none.conf"
truth "sandbox = none" cctr1$T unconfined

# mode=audit: judged, let in unconfined.
service "mode=audit"
truth "mode=audit" cctr1$T audit

# refused: a policy whose rule cannot be built.
printf '[default]\nprofile = missing\n' | policy_write broken.conf
service "conf=$CONF_DIR/broken.conf"
truth "a broken policy" cctr1$T refused
run "$CTL" explain --service "$SVC" cctr1$T
is "$RC" 1 "a refused login: explain exits 1"
like "$OUT" "pam layer:   service $SVC, pam_cocoon at /etc/pam.d/$SVC:3 (required): refused" \
	"and names the pam_cocoon line that refuses"

# A control that does not fail the session: pam_cocoon refuses and logs
# it, libpam opens the session anyway, on the host. explain says so; the
# required line above (refused, and pamtester fails) is the control.
control_service() { # CONTROL ARGS
	printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required pam_permit.so\nsession %s %s/pam_cocoon.so %s\n' \
		"$1" "$PAMDIR" "$2" > "/etc/pam.d/$SVC"
}
pamtester "$SVC" cctr1$T open_session close_session >/dev/null 2>&1
ok $((! $?)) "control: the required line's refusal fails the real login"
for control in optional '[success=ok default=ignore]'; do
	control_service "$control" "conf=$CONF_DIR/broken.conf"
	answer=$("$CTL" explain --json --service "$SVC" cctr1$T | json_answer)
	m=$(log_lines)
	pamtester "$SVC" cctr1$T open_session close_session >/dev/null 2>&1
	ok $? "'$control': the real login opens though pam_cocoon refuses"
	logged=$(log_since "$m" | grep "user=cctr1$T " | grep "service=$SVC " | record_answer)
	like "$logged" "result=refused" "'$control': the record says refused"
	like "$answer" "unconfined result=refused reason=pam_cocoon refuses (" \
		"'$control': explain says unconfined, with the record's result"
	like "$answer" "control '$control' lets libpam open the session anyway" \
		"'$control': and names the control"
done
control_service '[success=ok default=die]' "conf=$CONF_DIR/broken.conf"
answer=$("$CTL" explain --json --service "$SVC" cctr1$T | json_answer)
pamtester "$SVC" cctr1$T open_session close_session >/dev/null 2>&1
ok $((! $?)) "[default=die]: the real login fails"
is "${answer%% *}" refused "[default=die]: explain says refused"

# refused: a forced command for an account whose login shell /etc/shells
# lists (su -s would run another shell).
printf '[default]\nprofile = default\ncommand = /bin/true\n' | policy_write forced.conf
service "conf=$CONF_DIR/forced.conf"
truth "a forced command with a listed login shell" cctr1$T refused

# A line pam_cocoon rejects refuses everyone but root.
service "no-such-argument"
truth "bad module arguments" cctr1$T refused

# A cocoon-shell account through a real sshd whose stack has no
# pam_cocoon line: the PAM layer does nothing, cocoon-shell sandboxes.
if sshd_start; then
	sshd_allow cctr2$T
	run "$CTL" explain --service "$SSHD_SERVICE" cctr2$T
	like "$OUT" "pam layer:   read /etc/pam.d/$SSHD_SERVICE: no pam_cocoon session line" \
		"cocoon-shell on sshd: explain reads sshd's own stack"
	like "$OUT" "shell layer: cocoon-shell, service shell: sandboxed" "and the cocoon-shell layer"
	answer=$("$CTL" explain --json --service "$SSHD_SERVICE" cctr2$T | json_answer)
	m=$(log_lines)
	run ssh_as cctr2$T 'cat /proc/1/comm'
	like "$OUT" "cocoon-init" "the real login through sshd is sandboxed"
	syslog_wait "$work/syslog" "user=cctr2$T " || true
	logged=$(log_since "$m" | grep "cocoon-shell" | grep "user=cctr2$T " | record_answer)
	is "${answer%% *}" "sandboxed" "cocoon-shell on sshd: explain says sandboxed"
	is "${answer#* }" "$logged" "cocoon-shell on sshd: result and reason are the record's"
	sshd_stop
else
	skip "no private sshd"; skip "no private sshd"; skip "no private sshd"
	skip "no private sshd"; skip "no private sshd"
fi

# explain --all: only accounts that can log in; --system: all.
policy_reset
run "$CTL" explain --all
like_re "$OUT" "cctr1$T +[0-9]+  sandboxed" "--all lists a person's account"
printf '%s\n' "$OUT" | grep -q "^cctrsys$T "; ok $((! $?)) "--all leaves out a nologin system account"
run "$CTL" explain --all --system
like_re "$OUT" "cctrsys$T +[0-9]+  refused: no rule" "--system lists it"

done_testing
