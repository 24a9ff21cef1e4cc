#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every manual page renders without a warning, at 80 columns too, with the
# paths of make install and of the .debs, and every binary has one.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The pages are templates (@BINDIR@...): made here with each set of paths,
# since a longer path can widen a table.
for paths in "PREFIX=/usr/local" "PREFIX=/usr LIBEXECDIR=/usr/libexec"; do
	rm -rf "$work/doc"
	# shellcheck disable=SC2086 # the words of $paths are make's arguments
	run make -s -C "$top" BUILDDIR="$work" $paths docs
	is "$RC" 0 "the pages are made with $paths" || printf '%s\n' "$OUT" | sed 's/^/# /'
	for page in "$work"/doc/man/*.[1-8]; do
		run groff -man -ww -z "$page"
		is "$OUT" "" "$(basename "$page") ($paths) renders without warnings"
		if command -v man >/dev/null; then
			OUT=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
			is "$OUT" "" "$(basename "$page") ($paths) fits 80 columns"
		else
			skip "$(basename "$page") at 80 columns: no man(1) on this host (man-db)"
		fi
	done
done
for want in cocoonctl.8 cocoon.conf.5 cocoon-shell.1 pam_cocoon.8 cocoon.7; do
	[ -f "$top/man/$want" ]; ok $? "man/$want exists"
done
# Every example policy shipped is valid, as installed (with the paths of
# the tree make check installs).
examples_dir=$COCOON_ROOT/usr/share/doc/cocoon/examples
for conf in "$top"/conf/cocoon.conf "$examples_dir"/*.conf; do
	policy_reset
	policy_write cocoon.conf < "$conf"
	run "$CTL" check
	is "$RC" 0 "$(basename "$conf") passes cocoonctl check"
done
# Every policy a manual page shows is valid as printed: the text between
# .nf/.fi or .EX/.EE after a comment line `.\" example-policy`, or
# `.\" example-rules` (rules and profiles, checked with [default] added),
# with groff's escapes undone.
examples=0
for page in "$COCOON_ROOT"/usr/share/man/man[1-8]/*.[1-8]; do
	while IFS= read -r -d '' example; do
		examples=$((examples + 1))
		policy_reset
		printf '%s' "$example" | policy_write cocoon.conf
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
