#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# share-sandbox and linger in the policy: check's errors at file:line,
# sandbox = none's warning, and what explain shows (text, JSON, hash).
# Joining a shared sandbox is the engine's, tested with it.
. "$(dirname "$0")/../lib.sh"
trap 'policy_reset; cleanup_users' EXIT

add_user cspa1$T

policy_reset
printf '[default]\nprofile = default\n[user %s]\nprofile = default\n' "cspa1$T" |
	policy_write cocoon.conf
run "$CTL" explain cspa1$T
is "$RC" 0 "explain without share-sandbox"
unlike "$OUT" "share-sandbox" "no share-sandbox line when it is off"
unlike "$OUT" "linger" "nor a linger line"
hash_off=$(printf '%s\n' "$OUT" | sed -n 's/^plan hash: *//p')

policy_write cocoon.conf <<CONF
[default]
profile = default
[profile lab]
profile = default
share-sandbox = yes
linger = 30m
[user cspa1$T]
profile = lab
CONF
run "$CTL" check
is "$RC" 0 "share-sandbox and linger in a profile: check passes"
run "$CTL" explain cspa1$T
is "$RC" 0 "explain with share-sandbox"
like "$OUT" "namespaces:  mount pid ipc uts
share-sandbox: yes
linger:      1800s
" "explain: share-sandbox: yes, linger in seconds, after the namespaces"
hash_30m=$(printf '%s\n' "$OUT" | sed -n 's/^plan hash: *//p')
ok "$([ -n "$hash_30m" ] && [ "$hash_30m" != "$hash_off" ]; echo $?)" \
	"the plan hash changes with share-sandbox"
run "$CTL" explain --json cspa1$T
json=$(printf '%s' "$OUT" | perl -MJSON::PP -0e 'my $j = decode_json(<STDIN>);
	print(($j->{share_sandbox} ? "true" : "false"), " $j->{linger}")')
is "$json" "true 1800s" "--json: share_sandbox true, linger 1800s"

sed -i 's/^linger = 30m$/linger = yes/' "$CONF_DIR/cocoon.conf"
run "$CTL" explain cspa1$T
like "$OUT" "linger:      yes" "linger = yes"
hash_yes=$(printf '%s\n' "$OUT" | sed -n 's/^plan hash: *//p')
ok "$([ "$hash_yes" != "$hash_30m" ]; echo $?)" "the plan hash changes with linger"

# Each error at the line that says it; check exits 1.
policy_write cocoon.conf <<CONF
[default]
profile = default
[user cspa1$T]
profile = default
linger = 1h
[profile nopid]
profile = default
unshare = ipc uts
share-sandbox = yes
[profile words]
share-sandbox = sometimes
linger = forever
CONF
run "$CTL" check
is "$RC" 1 "errors: check exits 1"
like "$OUT" "$CONF_DIR/cocoon.conf:5: error: linger needs share-sandbox = yes" \
	"linger without share-sandbox, at the linger line"
like "$OUT" "$CONF_DIR/cocoon.conf:9: error: 'share-sandbox' needs a pid namespace (unshare = pid ...)" \
	"share-sandbox without a pid namespace, at its line"
like "$OUT" "$CONF_DIR/cocoon.conf:11: error: 'sometimes' is not yes or no" \
	"a bad share-sandbox word"
like "$OUT" "$CONF_DIR/cocoon.conf:12: error: linger takes no, yes or a duration (like 30m or 8h), not 'forever'" \
	"a bad linger word"

# sandbox = none: nothing to share; a warning, not an error.
policy_write cocoon.conf <<CONF
[default]
profile = default
[user cspa1$T]
sandbox = none
share-sandbox = yes
linger = 1d
CONF
run "$CTL" check
is "$RC" 0 "sandbox = none with share-sandbox: no error"
like "$OUT" "$CONF_DIR/cocoon.conf:3: warning: [user cspa1$T]: sandbox = none, so share-sandbox and linger do not apply" \
	"check warns that they do not apply"
run "$CTL" explain cspa1$T
like "$OUT" "sandbox:     no (sandbox = none)" "explain: not sandboxed"
unlike "$OUT" "share-sandbox:" "and no share-sandbox line"

done_testing
