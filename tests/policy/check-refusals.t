#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check and edit report, as errors at the directive's
# file:line, what would refuse every login of a rule on this host: a
# missing bind source, a bind source of the user's reached through a
# symlink, a missing home-skel, a command or shell the sandbox lacks, a
# source with tokens of a [user] rule expanded for its account, and a
# plan pam_cocoon refuses on a service whose stack here runs it on this
# policy. Each is shown to predict a real refusal (cocoonctl run,
# cocoon-shell, a login through a real sshd). Last, the warning for a
# policy file other users can read.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-refusals-$T
SSHD_PORTS=${SSHD_PORTS:-42200-42299}
W=$(mktemp -d /run/cocoon-refusals.XXXXXX)
chmod 0755 "$W"
trap 'sshd_cleanup; rm -rf "$W"; policy_reset; cleanup_users' EXIT
add_user ccrf1$T || bail_out "useradd"
add_user ccrf2$T -s "$SHELL_BIN"
conf=$CONF_DIR/cocoon.conf
# user_policy LINE [DEFAULT-LINE]: cocoon.conf with LINE in ccrf1's rule
# (line 3) and DEFAULT-LINE in [default]'s (line 6).
user_policy() {
	printf '[user ccrf1%s]\nprofile = default\n%s\n[default]\nprofile = default\n%s\n' \
		"$T" "$1" "${2:-}" | policy_write cocoon.conf
}

# A clean policy: no error, no warning from the new checks.
policy_reset
policy_write cocoon.conf <<CONF
[user ccrf1$T]
profile = default
ro-bind = $W /data
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 0 "a policy whose sources exist passes"
like "$OUT" "policy OK (1 file, 2 sections" "and says so"
unlike "$OUT" "$conf:3:" "nothing said of its bind"

# A bind source missing on this host: every login of the rule fails.
policy_write cocoon.conf <<CONF
[profile lab$T]
profile = default
bind = $W/labdata /data
ro-bind-try = $W/optional /opt/x
[profile unused$T]
ro-bind = $W/unused
[user ccrf1$T]
profile = lab$T
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a missing bind source: check exits 1"
like "$OUT" "$conf:3: error: bind $W/labdata /data: the source $W/labdata: No such file or directory, so every login this bind applies to is refused" \
	"at the profile's line"
unlike "$OUT" "$conf:4:" "a -try bind of a missing source is not an error"
like "$OUT" "$conf:6: error: ro-bind $W/unused: the source $W/unused: No such file" \
	"a profile no rule uses is judged too"
is "$(printf '%s\n' "$OUT" | grep -c "$conf:3: error")" 1 "reported once"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
like "$OUT" "open_tree $W/labdata: No such file or directory" "for the reason check gave"
mkdir -m 0755 "$W/labdata" "$W/unused"
run "$CTL" check
is "$RC" 0 "once the source exists, check passes"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "and the login works"

# A source a non-root user can write is opened as the session's user,
# refusing symlinks: through a symlink it fails for every login; without
# one it works, and check warns.
mkdir -m 1777 "$W/shared"
ln -s shared "$W/link"
policy_write cocoon.conf <<CONF
[user ccrf1$T]
profile = default
bind = $W/link /data
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a user-writable source through a symlink: check exits 1"
like "$OUT" "$conf:3: error: bind $W/link /data: a non-root user can write the source $W/link, so the session opens it as its user refusing every symlink, and that fails" \
	"at file:line"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
like "$OUT" "refusing symlinks" "for the reason check gave"
sed -i "s|$W/link|$W/shared|" "$conf"
run "$CTL" check
is "$RC" 0 "the same source without the symlink passes"
like "$OUT" "$conf:3: warning: bind $W/shared /data: a non-root user can write the source" \
	"with a warning"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "and the login works"

# home = tmpfs with a skeleton that is not there.
policy_write cocoon.conf <<CONF
[user ccrf1$T]
profile = default
home = tmpfs
home-skel = $W/skel
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a missing home-skel: check exits 1"
like "$OUT" "$conf:4: error: home skeleton: $W/skel" "at the home-skel line"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
like "$OUT" "home skeleton" "for the reason check gave"

# command and shell: exec'd inside the sandbox, judged through its binds.
policy_write cocoon.conf <<CONF
[user ccrf2$T]
profile = default
command = $W/menu
[user ccrf1$T]
profile = default
shell = /usr/bin/nosuch$T
[group root]
profile = default
command = /etc/passwd
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a command or shell that is not there: check exits 1"
like "$OUT" "$conf:3: error: command $W/menu: the sandbox has nothing there (no bind covers it)" \
	"a command no bind brings in"
like "$OUT" "$conf:6: error: shell /usr/bin/nosuch$T: No such file or directory" \
	"a shell missing below a bind"
like "$OUT" "$conf:9: error: command /etc/passwd: not an executable file" \
	"a file without an execute bit"
printf '#!/bin/sh\necho MENU-RAN\n' > "$W/menu"
chmod 0755 "$W/menu"
run runuser -u ccrf2$T -- "$SHELL_BIN" -c true </dev/null
ok $((RC == 0)) "control: the kiosk login fails (exit $RC)"
unlike "$OUT" "MENU-RAN" "its command never ran"
sed -i "s|^command = $W/menu|ro-bind = $W/menu\ncommand = $W/menu|" "$conf"
run "$CTL" check
unlike "$OUT" "command $W/menu" "bound in, the command passes"
run runuser -u ccrf2$T -- "$SHELL_BIN" -c true </dev/null
like "$OUT" "MENU-RAN" "and the login runs it"
# A [user] rule's command with tokens: judged expanded for its account
# (a [group] or [default] rule's has no one account, and is not).
policy_write cocoon.conf <<CONF
[user ccrf2$T]
profile = default
ro-bind = $W/menu
command = $W/menu%U
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a [user] rule's command with tokens, missing once expanded: check exits 1"
uid2=$(id -u ccrf2$T)
like "$OUT" "$conf:4: error: command $W/menu$uid2: the sandbox has nothing there" \
	"at its line, expanded for the account"
run runuser -u ccrf2$T -- "$SHELL_BIN" -c true </dev/null
unlike "$OUT" "MENU-RAN" "control: its login runs no menu"
like "$OUT" "refused" "and is refused"

# edit refuses to install a policy check would refuse.
policy_write cocoon.conf <<CONF
[default]
profile = default
CONF
before=$(cat "$conf")
ed=$W/editor
printf '#!/bin/sh\nprintf "bind = %s/nothing%s /x\\n" >> "$1"\n' "$W" "$T" > "$ed"
chmod 0755 "$ed"
EDITOR=$ed run "$CTL" edit < <(echo x)
is "$RC" 1 "edit refuses a missing bind source"
like "$OUT" "$conf:3: error: bind $W/nothing$T /x: the source $W/nothing$T: No such file" \
	"at the policy's own file:line"
is "$(cat "$conf")" "$before" "the policy is unchanged"

# A source with tokens in a [user] rule: expanded for its account, by
# the engine's own expansion, and judged as a plain path.
policy_write cocoon.conf <<CONF
[user ccrf1$T]
profile = default
ro-bind = $W/%u-data /data
[group ccrf1$T]
profile = default
ro-bind = $W/%u-group /data
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 1 "a [user] rule's source with tokens, missing for its account: check exits 1"
like "$OUT" "$conf:3: error: ro-bind $W/ccrf1$T-data /data: the source $W/ccrf1$T-data ($W/%u-data for user ccrf1$T): No such file or directory, so every login this bind applies to is refused" \
	"expanded, at the bind's line"
unlike "$OUT" "$conf:6:" "a [group] rule's tokens are still judged at the login only"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
like "$OUT" "open_tree $W/ccrf1$T-data: No such file or directory" "for the reason check gave"
mkdir -m 0755 "$W/ccrf1$T-data"
run "$CTL" check
is "$RC" 0 "once the account's source exists, check passes"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "and the login works"

# A plan pam_cocoon refuses (a user namespace cannot hold the root
# service), on a service whose stack runs this build's module on this
# policy: an error of plain check and of edit, not only of check --pam.
bad="[user ccrf1$T]
profile = default
unshare = pid ipc uts user
[default]
profile = default"
printf '%s\n' "$bad" | policy_write cocoon.conf
run "$CTL" check
is "$RC" 0 "no stack here runs pam_cocoon on it: plain check passes"
like "$OUT" "$conf:1: warning: pam_cocoon would refuse the sessions of [user ccrf1$T]: a user namespace cannot hold a root service" \
	"with a warning saying why"
sshd_start "session required $PAMDIR/pam_cocoon.so" || bail_out "sshd"
sshd_allow ccrf1$T
sshd_allow ccrf2$T
line=$(grep -n "pam_cocoon.so" /etc/pam.d/$SSHD_SERVICE | cut -d: -f1)
run "$CTL" check
is "$RC" 1 "a stack runs this build's pam_cocoon on the policy: plain check exits 1"
like "$OUT" "$conf:1: error: [user ccrf1$T]: pam_cocoon refuses its sessions on service $SSHD_SERVICE (/etc/pam.d/$SSHD_SERVICE:$line runs it on this policy): a user namespace cannot hold a root service" \
	"at the rule's line, naming the service and its stack's line"
run ssh_as ccrf1$T 'echo LOGGED-IN'
unlike "$OUT" "LOGGED-IN" "control: the login through that service is refused (exit $RC)"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "control: outside PAM the plan runs"
cp "$conf" "$W/candidate.conf"
run "$CTL" check --as "$conf" "$W/candidate.conf"
is "$RC" 1 "check --as the policy file: the same error"
like "$OUT" "$W/candidate.conf:1: error: [user ccrf1$T]: pam_cocoon refuses its sessions on service $SSHD_SERVICE" \
	"at the candidate's line"
run "$CTL" check --config "$W/candidate.conf"
is "$RC" 0 "another file (--config): the stack does not read it"
like "$OUT" "warning: pam_cocoon would refuse" "only a warning"
# edit will not install it.
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
before=$(cat "$conf")
printf '#!/bin/sh\ncat %s > "$1"\n' "$W/candidate.conf" > "$ed"
EDITOR=$ed run "$CTL" edit < <(echo x)
is "$RC" 1 "edit refuses a plan pam_cocoon refuses on an enabled service"
like "$OUT" "$conf:1: error: [user ccrf1$T]: pam_cocoon refuses its sessions on service $SSHD_SERVICE" \
	"at the policy's own file:line"
is "$(cat "$conf")" "$before" "the policy is unchanged"
# Which stacks count: conf= naming another file, or another build's
# module (here a bare name, which libpam finds in the system's directory).
printf '%s\n' "$bad" | policy_write cocoon.conf
sed -i "${line}s|pam_cocoon.so\$|pam_cocoon.so conf=$W/candidate.conf|" /etc/pam.d/$SSHD_SERVICE
run "$CTL" check
is "$RC" 0 "a stack with conf= naming another file does not count"
run "$CTL" check --config "$W/candidate.conf"
is "$RC" 1 "but counts for that file"
like "$OUT" "$W/candidate.conf:1: error: [user ccrf1$T]: pam_cocoon refuses its sessions on service $SSHD_SERVICE" \
	"at its line"
sed -i "${line}s|.*|session required pam_cocoon.so|" /etc/pam.d/$SSHD_SERVICE
run "$CTL" check
is "$RC" 0 "a stack loading another build's module does not count"
sed -i "${line}s|.*|session required $PAMDIR/pam_cocoon.so mode=audit|" /etc/pam.d/$SSHD_SERVICE
run "$CTL" check
is "$RC" 0 "nor one left in mode=audit (it refuses nothing)"
# The clean policy passes, and its login works.
sed -i "${line}s|.*|session required $PAMDIR/pam_cocoon.so|" /etc/pam.d/$SSHD_SERVICE
printf '[user ccrf1$T]\nprofile = default\n[default]\nprofile = default\n' | policy_write cocoon.conf
run "$CTL" check
is "$RC" 0 "a plan pam_cocoon runs passes"
run ssh_as ccrf1$T 'echo LOGGED-IN'
like "$OUT" "LOGGED-IN" "and its login works"

# A source a non-root user can write, over a system path: pam_cocoon
# refuses it (its root service reads the session's /var), cocoonctl run
# and cocoon-shell take it. An error where a stack here runs pam_cocoon
# on the policy, a warning saying why elsewhere.
user_policy "bind = $W/shared /var/tmp"
run "$CTL" check
is "$RC" 1 "a user-writable source over /var, a stack runs pam_cocoon: check exits 1"
like "$OUT" "$conf:1: error: [user ccrf1$T]: pam_cocoon refuses its sessions on service $SSHD_SERVICE (/etc/pam.d/$SSHD_SERVICE:$line runs it on this policy): $conf:3: bind /var/tmp: /var comes from a source a non-root user can write" \
	"at the rule's line, naming the bind"
like "$OUT" "$conf:3: warning: bind $W/shared /var/tmp: a non-root user can write the source $W/shared, over /var, which pam_cocoon's root service process reads" \
	"and said at the bind"
run ssh_as ccrf1$T 'echo LOGGED-IN'
unlike "$OUT" "LOGGED-IN" "control: the login through pam_cocoon is refused (exit $RC)"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "control: outside PAM the plan runs"
sed -i "${line}s|.*|session required $PAMDIR/pam_cocoon.so mode=audit|" /etc/pam.d/$SSHD_SERVICE
run "$CTL" check
is "$RC" 0 "no stack enforces it here: check passes"
like "$OUT" "$conf:1: warning: pam_cocoon would refuse the sessions of [user ccrf1$T]: $conf:3: bind /var/tmp: /var comes from a source a non-root user can write" \
	"with a warning saying why"
sed -i "${line}s|.*|session required $PAMDIR/pam_cocoon.so|" /etc/pam.d/$SSHD_SERVICE

# A source a non-root user can write below a directory the account
# cannot pass: the engine opens it as the user and fails. A [user]
# rule's account is known: an error; for others, the warning says so.
mkdir -m 0700 "$W/private"
mkdir -m 1777 "$W/private/shared"
user_policy "bind = $W/private/shared /data" "bind-try = $W/private/shared /data"
run "$CTL" check
is "$RC" 1 "a source the [user] rule's account cannot reach: check exits 1"
like "$OUT" "$conf:3: error: bind $W/private/shared /data: a non-root user can write the source $W/private/shared, so the session opens it as user ccrf1$T refusing every symlink, and that fails (Permission denied): every login of the rule is refused" \
	"at the bind's line, as the account"
like "$OUT" "$conf:6: warning: bind-try $W/private/shared /data: a non-root user can write the source $W/private/shared: sessions open it as their user, refusing symlinks (one who cannot reach it is refused)" \
	"a [default] rule's users are not known: a warning"
unlike "$OUT" "$conf:6: error" "not an error"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
like "$OUT" "open $W/private/shared as ccrf1$T, refusing symlinks: Permission denied" \
	"for the reason check gave"
# With the account's groups, as the session has them, not root's: a
# directory that only a group of the account's lets it pass, and one
# that only group 0 does, which root's logins have as a supplementary
# group (su -, sudo -i; setpriv gives check the same list here).
add_group ccrfg$T && usermod -aG ccrfg$T ccrf1$T
chgrp ccrfg$T "$W/private" && chmod 0710 "$W/private"
run setpriv --groups 0 "$CTL" check
is "$RC" 0 "a directory only the account's group may pass: check passes"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "control: the login passes it too"
chgrp 0 "$W/private"
run setpriv --groups 0 "$CTL" check
is "$RC" 1 "a directory only group 0 may pass: check, run by root in group 0, exits 1"
like "$OUT" "$conf:3: error: bind $W/private/shared /data: a non-root user can write the source $W/private/shared, so the session opens it as user ccrf1$T refusing every symlink, and that fails (Permission denied)" \
	"as the account, without root's groups"
run "$CTL" run --user ccrf1$T -- /bin/true
ok $((RC == 0)) "control: the login is refused (exit $RC)"
chmod 0755 "$W/private"
run "$CTL" check
is "$RC" 0 "once the account can reach it, check passes"
run "$CTL" run --user ccrf1$T -- /bin/true
is "$RC" 0 "and the login works"

# A policy file or drop-in other users can read: sessions that see the
# host's /etc would show every user's rules (a warning at the file).
user_policy ""
printf '[user ccrf2%s]\nprofile = default\n' "$T" | policy_write cocoon.d/50-f.conf
run "$CTL" check
unlike "$OUT" "other users can read it" "0600 files (policy_write): nothing said"
chmod 0644 "$conf"
chmod 0640 "$CONF_DIR/cocoon.d/50-f.conf"
run "$CTL" check
is "$RC" 0 "readable files: check passes"
like "$OUT" "$conf: warning: other users can read it (mode 0644): a session that sees the host's files shows its user every rule here" \
	"the main file is warned, at the file"
like "$OUT" "$CONF_DIR/cocoon.d/50-f.conf: warning: other users can read it (mode 0640)" \
	"a drop-in its group can read too"
run runuser -u ccrf1$T -- cat "$conf"
like "$OUT" "ccrf1$T" "control: another user reads the rules"
cp "$conf" "$W/cand.conf"
chmod 0644 "$W/cand.conf"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-f.conf" "$W/cand.conf"
unlike "$OUT" "$W/cand.conf: warning: other users can read it" "a candidate not yet installed is not judged"
chmod 0600 "$conf" "$CONF_DIR/cocoon.d/50-f.conf"
run runuser -u ccrf1$T -- cat "$conf"
unlike "$OUT" "ccrf1$T]" "control: at 0600 it cannot"
run "$CTL" check
unlike "$OUT" "other users can read it" "and check says nothing"
done_testing
