#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every manual page renders without a warning, and every binary has one.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
for page in "$top"/man/*.[1-8]; do
	run groff -man -ww -z "$page"
	is "$OUT" "" "$(basename "$page") renders without warnings"
done
for want in cocoonctl.8 cocoon.conf.5 cocoon-shell.1 pam_cocoon.8 cocoon.7; do
	[ -f "$top/man/$want" ]; ok $? "man/$want exists"
done
# Every example policy shipped is valid, with the paths of the tree under
# test as make install writes them (check judges that the kiosk's
# program exists).
installed_paths() { sed "s|/usr/local/libexec/cocoon/|$COCOON_ROOT/usr/libexec/cocoon/|g"; }
for conf in "$top"/conf/cocoon.conf "$top"/conf/examples/*.conf; do
	policy_reset
	installed_paths < "$conf" | policy_write cocoon.conf
	run "$CTL" check
	is "$RC" 0 "$(basename "$conf") passes cocoonctl check"
done
# Every policy a manual page shows is valid as printed: the text between
# .nf/.fi or .EX/.EE after a comment line `.\" example-policy`, or
# `.\" example-rules` (rules and profiles, checked with [default] added),
# with groff's escapes undone.
examples=0
for page in "$top"/man/*.[1-8]; do
	while IFS= read -r -d '' example; do
		examples=$((examples + 1))
		policy_reset
		printf '%s' "$example" | installed_paths | policy_write cocoon.conf
		run "$CTL" check
		is "$RC" 0 "$(basename "$page"): example policy $examples passes cocoonctl check"
	done < <(/usr/bin/perl -ne '
		$on = $1 if /^\.\\" example-(policy|rules)/;
		if ($on && /^\.(nf|EX)/) { $in = 1; next }
		if ($in && /^\.(fi|EE)/) {
			print "\n[default]\nprofile = default\n" if $on eq "rules";
			print "\0"; $in = $on = 0; next
		}
		next unless $in;
		next if /^\.(RS|RE|PP)/;
		s/\\-/-/g; s/\\&//g; s/\\e/\\/g;
		print;' "$page")
done
[ "$examples" -ge 8 ]; ok $? "the pages show example policies ($examples found)"
policy_reset
done_testing
