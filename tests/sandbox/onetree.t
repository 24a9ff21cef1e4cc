#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One tree for one plan: the embedded default built by cocoon-shell,
# by `cocoonctl run` and by pam_cocoon (pamtester, a pam_exec hook after
# the module's last line reads the session's tree as the service sees
# it). Compared: every mount (mount point, per-mount options, file system
# type, source, its options but the owner and mode of a tmpfs, and the
# path inside its file system) and the entries of the root tmpfs (type,
# path, a link's target). Run mode's two entry points build the same
# tree; pam_cocoon's differs only where pam_cocoon(8) says it must (ONE
# TREE): what /run/cocoon holds beside the session's description, the
# launcher over the login shell and /bin/sh, the host's login records.
. "$(dirname "$0")/../lib.sh"
U=ccone1$T
SERVICE=cocoon-test-onetree-$T
TREE=/etc/cocoon-test-onetree-$T.sh
HOOK=/etc/cocoon-test-onetree-hook-$T.sh
W=$(mktemp -d /run/cocoon-onetree-test.XXXXXX)
chmod 0755 "$W"
trap 'rm -f "/etc/pam.d/$SERVICE" "$TREE" "$HOOK"; policy_reset; cleanup_users; rm -rf "$W"' EXIT
add_user $U -s /bin/bash || bail_out "useradd $U"
policy_reset
printf '[default]\nprofile = default\n' | policy_write cocoon.conf

# The tree as the session sees it, under /etc so that every mode can
# run it (the embedded default binds the host's /etc).
cat > "$TREE" <<'SH'
#!/bin/sh
awk '{
	split($0, halves, " - "); split(halves[2], fs, " ");
	opts = "," fs[3]; gsub(/,(uid|gid|mode)=[0-9]+/, "", opts);
	print "mount", $5, $6, fs[1], fs[2], substr(opts, 2), "at", $4
}' /proc/self/mountinfo | sort
find / -xdev -printf 'entry %y %p %l\n' | sort
SH
chmod 0755 "$TREE"
printf '#!/bin/sh\n%s > /home/%s/pam.tree 2>&1\n' "$TREE" "$U" > "$HOOK"
chmod 0755 "$HOOK"

run runuser -u $U -- "$SHELL_BIN" -c "$TREE"
is "$RC" 0 "cocoon-shell: the session ran"
printf '%s\n' "$OUT" > "$W/shell"
run "$CTL" run --user $U -- "$TREE"
is "$RC" 0 "cocoonctl run: the session ran"
printf '%s\n' "$OUT" > "$W/run"
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required $PAMDIR/pam_cocoon.so
session optional pam_exec.so type=open_session $HOOK
PAM
run pamtester "$SERVICE" $U open_session close_session
is "$RC" 0 "pam_cocoon: the session opened and closed"
cp /home/$U/pam.tree "$W/pam" 2>/dev/null

like "$(cat "$W/run")" "mount / rw,nosuid,nodev" "the tree was read (the root tmpfs)"
like "$(cat "$W/run")" "entry l /var/run ../run" "run mode has /var/run, as pam_cocoon always had"
is "$(diff "$W/shell" "$W/run")" "" "cocoon-shell and cocoonctl run build the same tree"

# What pam_cocoon adds, and only that: the launcher's tmpfs and what it
# holds, the launcher bound over the login shell and /bin/sh (by their
# real paths), the host's utmp and wtmp, btmp and lastlog with the
# /var/log made for them.
shell_real=$(readlink -f /bin/bash) sh_real=$(readlink -f /bin/sh)
pam_only="^(mount (/run/cocoon/.*|$shell_real|$sh_real|/run/utmp|/var/log/(wtmp|btmp|lastlog)) |entry [a-z] /var/log(/(wtmp|btmp|lastlog))? )"
added=$(grep -E "$pam_only" "$W/pam")
like "$(cat "$W/pam")" "mount /run/cocoon ro,nosuid,nodev" "pam_cocoon has /run/cocoon"
like "$(cat "$W/run")" "mount /run/cocoon ro,nosuid,nodev" "and run mode too (cocoonctl why)"
like "$added" "mount /run/cocoon/shell ro,nosuid,nodev" "pam_cocoon binds the real shell in it"
like "$added" "mount $shell_real ro,nosuid,nodev" "and covers the login shell with the launcher"
like "$added" "mount $sh_real ro,nosuid,nodev" "and /bin/sh"
is "$(grep -Ev "$pam_only" "$W/pam" | diff - "$W/run")" "" \
	"pam_cocoon builds the same tree otherwise"
is "$(grep -Ec "$pam_only" "$W/run")" 0 "and none of its additions is in run mode's"

done_testing
