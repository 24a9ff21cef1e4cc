#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every manual page renders without a warning, and every binary has one.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
for page in "$top"/man/*.[1-8]; do
	run groff -man -ww -z "$page"
	is "$OUT" "" "$(basename "$page") renders without warnings"
done
for want in cocoonctl.8 cocoon.conf.5 cocoon-shell.1 pam_cocoon.8; do
	[ -f "$top/man/$want" ]; ok $? "man/$want exists"
done
# Every example policy shipped is valid.
for conf in "$top"/conf/cocoon.conf "$top"/conf/examples/*.conf; do
	policy_reset
	cp "$conf" "$CONF_DIR/cocoon.conf"
	run "$CTL" check
	is "$RC" 0 "$(basename "$conf") passes cocoonctl check"
done
policy_reset
done_testing
