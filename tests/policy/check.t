#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check: files, trust, drop-ins, exit codes, file:line errors.
. "$(dirname "$0")/../lib.sh"
trap 'policy_reset; cleanup_users' EXIT

policy_reset
run "$CTL" check
is "$RC" 0 "no policy at all: check passes"
like "$OUT" "no policy file: the embedded default applies" "and says the embedded default applies"

policy_write cocoon.conf < "$(dirname "$0")/../../conf/cocoon.conf"
run "$CTL" check
is "$RC" 0 "the shipped cocoon.conf passes"
like "$OUT" "policy OK (1 file" "one file read"

policy_write cocoon.conf <<'CONF'
[default]
profile = default

[user someone]
profile = nope
hostname = x y
CONF
run "$CTL" check
is "$RC" 1 "errors: check exits 1"
like "$OUT" "$CONF_DIR/cocoon.conf:5: error: unknown profile 'nope'" "unknown profile at file:line"
like "$OUT" "$CONF_DIR/cocoon.conf:6: error: 'hostname' takes NAME (got 2 words)" "every error is listed"

policy_write cocoon.conf <<'CONF'
[default]
profile = default
seccomp = none
[user no-such-user-here]
profile = default
CONF
run "$CTL" check
is "$RC" 0 "warnings alone: check exits 0"
like "$OUT" "cocoon.conf:4: warning: user 'no-such-user-here' is not known to NSS" "unknown user warned"
like "$OUT" "cocoon.conf:3: warning: seccomp = none" "seccomp = none warned"
like "$OUT" "cocoon.conf:1: warning: [default] weakens its profile: seccomp = none" "weakening warned"

# What pam_cocoon would refuse is reported by check.
policy_write cocoon.conf <<'CONF'
[default]
profile = default
bind = %h/etc /etc
[group ccshellonly]
profile = default
service = shell
bind = %h/etc /etc
CONF
run "$CTL" check
like "$OUT" "cocoon.conf:1: warning: pam_cocoon would refuse the sessions of [default]: " "check reports a plan pam_cocoon would refuse"
like "$OUT" "/etc" "naming the path"
unlike "$OUT" "sessions of [group ccshellonly]" "not for a rule that only cocoon-shell uses"
# Every reason service mode refuses a plan, in the module's own words.
policy_write cocoon.conf <<'CONF'
[default]
profile = default
unshare = net ipc uts
CONF
run "$CTL" check
like "$OUT" "cocoon.conf:1: warning: pam_cocoon would refuse the sessions of [default]: a PAM session needs a pid namespace" \
	"check says a plan without a pid namespace would be refused"

# Settings a rule carries but its sessions never use are warned; with
# the setting that uses them, no warning.
policy_write cocoon.conf <<'CONF'
[profile skel-unused]
home-skel = /etc/skel
[profile limits-unused]
sandbox = none
memory-max = 64M
[default]
profile = skel-unused
[group ccnosandbox]
profile = limits-unused
CONF
run "$CTL" check
like "$OUT" "cocoon.conf:6: warning: [default]: home-skel is used only with home = tmpfs (its home is bind)" \
	"home-skel without home = tmpfs is warned"
like "$OUT" "cocoon.conf:8: warning: [group ccnosandbox]: sandbox = none, so its session limits" \
	"limits under sandbox = none are warned"
policy_write cocoon.conf <<'CONF'
[profile skel-used]
home = tmpfs
home-skel = /etc/skel
[profile none-bare]
sandbox = none
[default]
profile = skel-used
[group ccnosandbox]
profile = none-bare
CONF
run "$CTL" check
unlike "$OUT" "home-skel is used only" "home-skel with home = tmpfs: no warning"
unlike "$OUT" "its session limits" "sandbox = none without limits: no such warning"

# A seccomp FILE is read and checked by check, not only at login.
printf 'mount\nnot_a_syscall\n' > "$CONF_DIR/extra.seccomp"
chmod 0644 "$CONF_DIR/extra.seccomp"
policy_write cocoon.conf <<CONF
[default]
profile = default
seccomp = $CONF_DIR/extra.seccomp
CONF
run "$CTL" check
is "$RC" 1 "a bad seccomp file fails check"
like "$OUT" "cocoon.conf:3: error:" "at the directive's line"
like "$OUT" "extra.seccomp:2" "naming the file's bad line"

# Trust: like sudoers, writable-by-others policy files are refused.
policy_write cocoon.conf <<'CONF'
[default]
profile = default
CONF
chmod 0664 "$CONF_DIR/cocoon.conf"
run "$CTL" check
is "$RC" 1 "a group-writable policy file is refused"
like "$OUT" "cocoon.conf is writable by its group (mode 0664)" "and the reason is given"
chmod 0644 "$CONF_DIR/cocoon.conf"
chmod 0757 "$CONF_DIR"
run "$CTL" check
is "$RC" 1 "a world-writable policy directory is refused"
like "$OUT" "$CONF_DIR is writable by others (mode 0757)" "naming the directory"
chmod 0755 "$CONF_DIR"
add_user ccchk1$T
chown ccchk1$T "$CONF_DIR/cocoon.conf"
run "$CTL" check
is "$RC" 1 "a policy file owned by a user is refused"
like "$OUT" "is owned by uid $(id -u ccchk1$T), not root" "naming the owner"
chown root "$CONF_DIR/cocoon.conf"

rm -f "$CONF_DIR/cocoon.conf"
ln -s /etc/hostname "$CONF_DIR/cocoon.conf"
run "$CTL" check
is "$RC" 1 "a symlinked policy file is not followed"
rm -f "$CONF_DIR/cocoon.conf"
mkdir "$CONF_DIR/cocoon.conf"
run "$CTL" check
is "$RC" 1 "a policy path that is a directory refuses (only ENOENT means no policy)"
rmdir "$CONF_DIR/cocoon.conf"

# An empty but world-writable cocoon.d is refused too.
policy_reset
install -d -m 0777 "$CONF_DIR/cocoon.d"
run "$CTL" check
is "$RC" 1 "a world-writable cocoon.d is refused even when empty"
like "$OUT" "cocoon.d is writable by others" "naming it"

# Drop-ins: read after cocoon.conf in C-locale order; they alone count as a policy.
policy_reset
policy_write cocoon.d/b.conf <<'CONF'
[default]
profile = default
CONF
policy_write cocoon.d/A.conf <<'CONF'
[user x]
profile = nope
CONF
policy_write cocoon.d/ignored.txt <<'CONF'
this is not read
CONF
run "$CTL" check
is "$RC" 1 "drop-ins are read without cocoon.conf"
like "$OUT" "cocoon.d/A.conf:2: error: unknown profile 'nope'" "A.conf is read"
unlike "$OUT" "ignored.txt" "only *.conf files are read"
unlike "$OUT" "embedded default applies" "drop-ins replace the embedded default"
rm "$CONF_DIR/cocoon.d/A.conf"
policy_write cocoon.d/a.conf <<'CONF'
[default]
profile = default
CONF
run "$CTL" check
like "$OUT" "cocoon.d/b.conf:1: error: duplicate section [default] (first at $CONF_DIR/cocoon.d/a.conf:1)" \
	"drop-ins are read in C-locale order"

policy_reset
policy_write draft.conf <<'CONF'
[profile p]
tmpfs = /x
CONF
run "$CTL" check --config "$CONF_DIR/draft.conf"
is "$RC" 1 "--config checks one file"
like "$OUT" "draft.conf: error: the policy has no [default] section" "a missing [default] is reported"
run "$CTL" check --config /nonexistent/cocoon.conf
is "$RC" 1 "a missing --config file is an error"
run "$CTL" check extra
is "$RC" 2 "stray operands are a usage error"
run "$CTL" frobnicate
is "$RC" 2 "unknown commands are a usage error"
run "$CTL" --version
like "$OUT" "cocoonctl $(cat "$(dirname "$0")/../../VERSION")" "--version reports the version"

# A [group] rule that confines over an unconfined [default]: a name
# service backend that is down drops groups without an error.
printf '[group users]\nprofile = default\n[default]\nsandbox = none\n' | policy_write cocoon.conf
run "$CTL" check
like "$OUT" "$CONF_DIR/cocoon.conf:3: warning: [default] leaves sessions unconfined while [group users] confines" \
	"an unconfined [default] under confining [group] rules is warned"
printf '[group users]\nprofile = default\n[default]\nservice = sshd\nprofile = default\n' |
	policy_write cocoon.conf
run "$CTL" check
like "$OUT" "warning: [default] does not cover every service while [group users] confines" \
	"so is a [default] for fewer services than the [group] rule"
printf '[group users]\nsandbox = none\n[default]\nprofile = default\n' | policy_write cocoon.conf
run "$CTL" check
unlike "$OUT" "while [group" "the other way round is not"
printf '[group users]\nservice = sshd\nprofile = default\n[default]\nservice = sshd su\nprofile = default\n' |
	policy_write cocoon.conf
run "$CTL" check
unlike "$OUT" "while [group" "nor a [default] covering the group rule's services"

done_testing
