#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl over the whole policy: explain --all over the NSS users, edit
# with a check before an atomic install, and the bash completion as
# installed.
. "$(dirname "$0")/../lib.sh"
img=$(mktemp -d /run/cocoon-edit.XXXXXX)
trap 'rm -rf "$img"; policy_reset; cleanup_users' EXIT

add_user cced1$T || { echo "Bail out! useradd"; exit 1; }
add_user cced2$T
add_user cced3$T
policy_reset
policy_write cocoon.conf <<CONF
[user cced1$T]
profile = default
[user cced2$T]
sandbox = none
[default]
profile = default
CONF

# --- explain --all
run "$CTL" explain --all
is "$RC" 0 "explain --all exits 0"
like_re "$OUT" "cced1$T +[0-9]+  sandboxed by \[user cced1$T\] at $CONF_DIR/cocoon.conf:1, profile default, plan [0-9a-f]{16}" \
	"a user rule, with its place, profile and plan hash"
like_re "$OUT" "cced2$T +[0-9]+  unconfined: sandbox = none, by \[user cced2$T\]" "sandbox = none is said"
like_re "$OUT" "cced3$T +[0-9]+  sandboxed by \[default\]" "everyone else: [default]"
# Without --service, what cocoon-shell does: it refuses root.
like_re "$OUT" "root +0  refused: refusing to run for root \(root is never sandboxed\)" \
	"root is never sandboxed"
# Only accounts that can log in: daemon's login shell is nologin.
printf '%s\n' "$OUT" | grep -q '^daemon '; ok $((! $?)) "a nologin system account is left out"
run "$CTL" explain --all --system
is "$RC" 0 "explain --all --system exits 0"
like_re "$OUT" "daemon .*only \[user\] rules match" "--system lists system accounts, explained"
run "$CTL" explain --system cced1$T
is "$RC" 2 "--system goes with --all"
run "$CTL" explain --all cced1$T
is "$RC" 2 "--all takes no user"

# --- edit
ed=$img/editor
cat > "$ed" <<'EOF'
#!/bin/sh
# A scripted editor: $EDIT_ACTION says what to do to the copy in $1.
case "$EDIT_ACTION" in
append) printf '[group ccedg]\nprofile = default\n' >> "$1" ;;
break) printf '[group ccedg]\nprofile = nope\n' >> "$1" ;;
fail) exit 3 ;;
esac
EOF
chmod 0755 "$ed"
before=$(cat "$CONF_DIR/cocoon.conf")
EDIT_ACTION=none EDITOR=$ed run "$CTL" edit
is "$RC" 0 "edit without changes exits 0"
like "$OUT" "no changes" "and says so"
EDIT_ACTION=fail EDITOR=$ed run "$CTL" edit
is "$RC" 1 "an editor that fails leaves the policy alone"
is "$(cat "$CONF_DIR/cocoon.conf")" "$before" "unchanged"
EDIT_ACTION=break EDITOR=$ed run "$CTL" edit < <(echo x)
is "$RC" 1 "an edit with errors is not installed"
like "$OUT" "$CONF_DIR/cocoon.conf:8: error: unknown profile 'nope'" \
	"the errors are shown at the policy's own file:line"
is "$(cat "$CONF_DIR/cocoon.conf")" "$before" "the policy is unchanged"
EDIT_ACTION=append EDITOR=$ed run "$CTL" edit
is "$RC" 0 "a good edit is installed"
like "$(cat "$CONF_DIR/cocoon.conf")" "[group ccedg]
profile = default" "with the new text"
is "$(stat -c '%U %a' "$CONF_DIR/cocoon.conf")" "root 600" "root-owned, 0600"
is "$(ls -A "$CONF_DIR" | grep -c '\.edit\.\|\.new\.')" 0 "no temporary copy is left"
run "$CTL" check
is "$RC" 0 "and it passes check"
exec 9>"$CONF_DIR/.cocoon.conf.lock"
flock 9
EDIT_ACTION=append EDITOR=$ed run "$CTL" edit
is "$RC" 1 "a second editor is refused while the lock is held"
like "$OUT" "another cocoonctl edit holds it" "and told why"
exec 9>&-
rm -f "$CONF_DIR/.cocoon.conf.lock"
chmod 0777 "$img"
EDIT_ACTION=append EDITOR=$ed run "$CTL" edit --config "$img/x.conf"
is "$RC" 1 "a policy in a directory others can write is not edited"
like "$OUT" "refused" "with the trust rule's message"

# --- bash completion, as installed
comp=$COCOON_ROOT/usr/share/bash-completion/completions/cocoonctl
complete_line() {
	bash -c '. /usr/share/bash-completion/bash_completion; . "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}; _cocoonctl; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
is "$(complete_line cocoonctl ex)" "explain" "completion: commands"
is "$(complete_line cocoonctl check --)" "--config --as --pam --root --sshd" "completion: check's options"
like "$(complete_line cocoonctl explain cced)" "cced1$T" "completion: explain completes user names"

done_testing
