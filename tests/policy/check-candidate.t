#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check [--as PATH] CANDIDATE: a file checked before it is
# installed, as Ansible's `validate:` runs it (exit 0 valid, 1 invalid, 2
# usage or unreadable, as visudo -c and sshd -t), read in the place of
# PATH beside the installed files; and edit checking its copy the same way.
. "$(dirname "$0")/../lib.sh"
# The candidate's directory: like Ansible's temporary copy, in a place
# the trust rule would refuse for a policy file (/tmp is world-writable).
W=$(mktemp -d /tmp/cocoon-cand.XXXXXX)
trap 'rm -rf "$W"; policy_reset; cleanup_users' EXIT

add_user cccand1$T || bail_out "useradd"
policy_reset
policy_write cocoon.conf <<'CONF'
[default]
profile = default
CONF
policy_write cocoon.d/40-base.conf <<CONF
[user cccand1$T]
profile = default
CONF
tree_sum() { (cd "$CONF_DIR" && find . -printf '%p %m %U\n' | sort && find . -type f -exec sha256sum {} + | sort) | sha256sum; }
before=$(tree_sum)

# --- valid
printf '[group cccandg%s]\nprofile = default\n' "$T" > "$W/good"
chmod 0600 "$W/good"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf" "$W/good"
is "$RC" 0 "a valid drop-in candidate: exit 0"
like "$OUT" "policy OK (3 files" "read with the main file and the installed drop-in"
run "$CTL" check "$W/good"
is "$RC" 1 "without --as it is a main file alone: no [default], exit 1"
like "$OUT" "$W/good: error: the policy has no [default] section" "said at the candidate"
printf '[default]\nprofile = default\n' > "$W/main"
run "$CTL" check "$W/main"
is "$RC" 0 "a valid main file without --as: exit 0"
like "$OUT" "policy OK (1 file" "read alone"

# --- invalid: errors at the candidate's own file:line
printf '[group cccandg%s]\nprofile = default\n\nprofile-typo = x\n' "$T" > "$W/bad"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf" "$W/bad"
is "$RC" 1 "an invalid candidate: exit 1"
like "$OUT" "$W/bad:4: error:" "the error at the candidate's file:line"

# --- a conflict with an installed neighbour
printf '# a second rule for one user\n[user cccand1%s]\nsandbox = none\n' "$T" > "$W/dup"
run "$CTL" check "$W/dup"
is "$RC" 1 "alone it lacks [default] only"
unlike "$OUT" "duplicate section" "and has no conflict by itself"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf" "$W/dup"
is "$RC" 1 "as a drop-in beside 40-base.conf: exit 1"
like "$OUT" "$W/dup:2: error: duplicate section [user cccand1$T] (first at $CONF_DIR/cocoon.d/40-base.conf:1)" \
	"the conflict at the candidate's line, naming the neighbour"
run "$CTL" check --as "$CONF_DIR/cocoon.d/40-base.conf" "$W/dup"
is "$RC" 0 "as the replacement of 40-base.conf itself: no conflict"

# --- as the main file: the drop-ins are read beside it
printf '[default]\nprofile = default\n[user cccand1%s]\nprofile = default\n' "$T" > "$W/main2"
run "$CTL" check --as "$CONF_DIR/cocoon.conf" "$W/main2"
is "$RC" 1 "as cocoon.conf, the drop-ins are read after it"
like "$OUT" "40-base.conf:1: error: duplicate section [user cccand1$T] (first at $W/main2:3)" \
	"the drop-in conflicts with the candidate's line"

# --- unreadable, and usage: exit 2
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf" "$W/missing"
is "$RC" 2 "a missing candidate: exit 2"
like "$OUT" "$W/missing: No such file or directory" "and why"
run "$CTL" check "$W"
is "$RC" 2 "a directory as candidate: exit 2"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.txt" "$W/good"
is "$RC" 2 "--as a name cocoon would not read: exit 2"
like "$OUT" "cocoon reads only the files named *.conf" "and why"
run "$CTL" check --as cocoon.d/50-lab.conf "$W/good"
is "$RC" 2 "--as a relative path: exit 2"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf"
is "$RC" 2 "--as without a candidate: exit 2"
run "$CTL" check "$W/good" "$W/main"
is "$RC" 2 "two candidates: exit 2"
run "$CTL" check --config "$CONF_DIR/cocoon.conf" "$W/good"
is "$RC" 2 "--config with a candidate: exit 2"
run "$CTL" check --bogus "$W/good"
is "$RC" 2 "an unknown option: exit 2"

# --- trust: the installed directory's, not the candidate's
run "$CTL" check --config "$W/main"
is "$RC" 1 "control: as a policy file the candidate's place (under /tmp) is refused"
like "$OUT" "refused (policy files and the directories above them" "by the trust rule"
chmod 0775 "$CONF_DIR/cocoon.d"
run "$CTL" check --as "$CONF_DIR/cocoon.d/50-lab.conf" "$W/good"
is "$RC" 1 "a group-writable cocoon.d: the candidate cannot be installed there, exit 1"
like "$OUT" "cocoon.d is writable by its group" "and why"
chmod 0755 "$CONF_DIR/cocoon.d"

is "$(tree_sum)" "$before" "the installed policy is untouched by every check"
[ ! -e "$CONF_DIR/cocoon.d/50-lab.conf" ]
ok $? "nothing was installed at the --as path"

# --- edit checks its copy the same way, with the installed drop-ins
ed=$W/editor
cat > "$ed" <<'EOF'
#!/bin/sh
printf '[user %s]\nsandbox = none\n' "$EDIT_USER" >> "$1"
EOF
chmod 0755 "$ed"
EDIT_USER=cccand1$T EDITOR=$ed run "$CTL" edit < <(echo x)
is "$RC" 1 "edit: a rule that a drop-in already has is not installed"
like "$OUT" "40-base.conf:1: error: duplicate section [user cccand1$T] (first at $CONF_DIR/cocoon.conf:3)" \
	"shown with the policy's own file:line"
is "$(cat "$CONF_DIR/cocoon.conf")" "[default]
profile = default" "cocoon.conf is unchanged"

done_testing
