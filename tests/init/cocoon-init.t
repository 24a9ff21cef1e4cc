#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon-init on its own, as pid 1 of a pid namespace of unshare(1)'s:
# the arguments it takes (the engine's, and the older form a pam_cocoon.so
# left loaded by an upgrade passes), what it writes to the session process
# ('n' once it made the namespaces, 'e' and the error number when it could
# not), and that it ends when the service's descriptor does. A stand-in
# for the service's pidfd: a pipe whose writer, sleep, ends.
. "$(dirname "$0")/../lib.sh"
INIT=$COCOON_ROOT/usr/libexec/cocoon/cocoon-init
work=$(mktemp -d /run/cocoon-init-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# init_run SECONDS ARGS...: cocoon-init ARGS as pid 1, fd 3 a pipe that
# ends after SECONDS, fd 4 the file $work/said; its status in RC.
init_run() {
	local secs=$1
	shift
	: > "$work/said"
	unshare --pid --fork --kill-child -- "$INIT" "$@" 3< <(sleep "$secs") 4> "$work/said"
	RC=$?
	SAID=$(cat "$work/said")
}

init_run 1 hold 3 0 0 4
is "$RC" 0 "hold FD 0 0 READY: ends when the service's descriptor does"
is "$SAID" "n" "after writing 'n' to READY"

net=$((0x40000000)) # CLONE_NEWNET
init_run 1 hold 3 0 $net 4
is "$SAID" "n" "with a network namespace to make: 'n' once made"

# unshare(2) refuses CLONE_PARENT (0x8000) with EINVAL: the failure path.
init_run 1 hold 3 0 32768 4
is "$SAID" "e22" "a namespace it cannot make: 'e' and the error number (EINVAL)"
is "$RC" 0 "and it holds on (the service ends the session)"

init_run 1 hold 3 0 0 4 300,60 0123abcd
is "$RC$SAID" "0n" "with WARNINGS and ID (session-time-warnings): accepted"
init_run 1 hold 3 0 0 4 - -
is "$RC$SAID" "0n" "with no warning and no id: accepted"

# share-sandbox's LISTEN and LINGER: fd 5 is no socket here, which takes
# no login; it still ends when the service does.
init_run 1 hold 3 0 0 4 - 0123abcd 5 0
is "$RC$SAID" "0n" "with LISTEN and LINGER (share-sandbox): accepted"
# A linger without end (-1): it holds on past the service, until killed.
: > "$work/said"
timeout -s KILL 3 unshare --pid --fork --kill-child -- "$INIT" hold 3 0 0 4 - 0123abcd 5 -1 \
	3< <(sleep 1) 4> "$work/said"
is "$?$(cat "$work/said")" "137n" "with a linger without end (-1): it outlives the service"

init_run 1 hold 3
is "$RC" 0 "the older form, hold FD: accepted"
is "$SAID" "" "and nothing written (its caller made the namespaces)"
init_run 1 hold 3 5
is "$RC" 0 "the older form with a deadline: accepted"

for args in "hold 3 0 0" "hold 3 0 0 4 5" "hold x 0 0 4" "hold 3 0 0 3" \
	"hold 3 -1 0 4" "hold 3 0 0x10 4" "hold 3 0 0 99999" "keep 3 0 0 4" "" \
	"hold 3 0 0 4 x id" "hold 3 0 0 4 0 id" "hold 3 0 0 4 60,,1 id" \
	"hold 3 0 0 4 1,2,3,4,5,6,7,8,9 id" "hold 3 0 0 4 60 id extra" \
	"hold 3 0 0 4 - id 5" "hold 3 0 0 4 - id 3 0" "hold 3 0 0 4 - id 4 0" \
	"hold 3 0 0 4 - id x 0" "hold 3 0 0 4 - id 5 -2" "hold 3 0 0 4 - id 5 1x" \
	"hold 3 0 0 4 - id 5 0 extra"; do
	# shellcheck disable=SC2086 # the words are the arguments
	init_run 1 $args
	is "$RC" 127 "refused at once: '$args'"
done

"$INIT" hold 3 0 0 4 3< <(sleep 1) 4> "$work/said"
is "$?" 127 "refused when not pid 1"
is "$(cat "$work/said")" "" "and nothing written"

done_testing
