#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check warns of a bind that brings the host's log sockets into
# a session (/dev/log, journald's under /run/systemd/journal): its users
# could write lines that pass for any service's, cocoon's audit records
# among them. The default policy and a bind elsewhere are the control.
. "$(dirname "$0")/../lib.sh"
trap 'policy_reset' EXIT
policy_reset

policy_write cocoon.conf <<'CONF'
[profile p]
profile = default
ro-bind = /usr/share /usr/share
[default]
profile = p
CONF
run "$CTL" check
is "$RC" 0 "control: a bind elsewhere passes"
unlike "$OUT" "log socket" "control: and says nothing of log sockets"

for src in /run/systemd /run/systemd/journal/socket /dev; do
	kind=ro-bind
	[ "$src" = /dev ] && kind=dev-bind
	printf '[profile p]\nprofile = default\n%s = %s /mnt/x\n[default]\nprofile = p\n' \
		"$kind" "$src" | policy_write cocoon.conf
	run "$CTL" check
	like "$OUT" "cocoon.conf:4: warning: [default]: the bind of $src gives the session the host's log socket" \
		"$kind $src is warned, at the rule's line"
done

done_testing
