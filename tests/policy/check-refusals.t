#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check and edit report, as errors at the directive's
# file:line, what would refuse every login of a rule on this host: a
# missing bind source, a bind source of the user's reached through a
# symlink, a missing home-skel, a command or shell the sandbox lacks.
# Each is shown to predict a real refusal (cocoonctl run, cocoon-shell).
. "$(dirname "$0")/../lib.sh"
W=$(mktemp -d /run/cocoon-refusals.XXXXXX)
chmod 0755 "$W"
trap 'rm -rf "$W"; policy_reset; cleanup_users' EXIT
add_user ccrf1$T || bail_out "useradd"
add_user ccrf2$T -s "$SHELL_BIN"
conf=$CONF_DIR/cocoon.conf

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
done_testing
