#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check --pam and sshd's ChrootDirectory: sshd enters the jail
# after pam_cocoon opened the session, inside the sandbox, and starts the
# shell from the jail's paths, which cocoon-launch does not cover. With
# pam_cocoon in sshd's stack, every ChrootDirectory but `none` is an
# error at its file and line, whatever Match block holds it. The same
# config under a stack without the module, and `none`, are the controls.
. "$(dirname "$0")/../lib.sh"
img=$(mktemp -d /run/cocoon-chrootcheck.XXXXXX)
cleanup() { rm -rf "$img"; policy_reset; }
trap cleanup EXIT

policy_reset
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
mkdir -p "$img/etc/pam.d" "$img/etc/ssh" "$img/var/spool/cron/crontabs" \
	"$img/var/lib/systemd/linger"
: > "$img/etc/shells"
cat > "$img/etc/ssh/sshd_config" <<'EOF2'
UsePAM yes
ChrootDirectory none
Match User jailed
	ChrootDirectory /srv/jail/%u
Match all
EOF2
# check_jail: the findings about ChrootDirectory, one a line.
check_jail() { "$CTL" check --pam --root "$img" 2>&1 | grep -F ChrootDirectory; }

printf 'session required pam_unix.so\n' > "$img/etc/pam.d/sshd"
is "$(check_jail)" "" "control: sshd's stack without pam_cocoon: no finding"

printf 'session required pam_cocoon.so return\nsession required pam_unix.so\nsession required pam_cocoon.so\n' \
	> "$img/etc/pam.d/sshd"
out=$(check_jail)
like "$out" "$img/etc/ssh/sshd_config:4: error: sshd: ChrootDirectory /srv/jail/%u while service sshd confines sessions with pam_cocoon.so" \
	"a jail in a Match block is an error at its file and line"
is "$(printf '%s\n' "$out" | grep -c ':2: ')" 0 "ChrootDirectory none is no finding"
run "$CTL" check --pam --root "$img"
is "$RC" 1 "check --pam exits 1"

sed -i 's|/srv/jail/%u|none|' "$img/etc/ssh/sshd_config"
is "$(check_jail)" "" "control: the same config with none: no finding"
done_testing
