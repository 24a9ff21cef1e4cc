#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-layers.sh BUILDDIR: common/ is in layers, each using only the ones
# below it (util, plan, policy, engine, host, session; CONTRIBUTING.md),
# except that the engine executes a plan whatever made it, so it never
# uses the policy. Fails, naming each case, where a file includes a header of a
# layer it may not use or an object calls a function or reads a variable
# that one defines.
set -u
BUILD=${1:?usage: check-layers.sh BUILDDIR}
cd "$(dirname "$0")/.."
LAYERS="util plan policy engine host session"
rank() { local i=1 l; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 0; }
# may_use LAYER OTHER: whether LAYER's files may use OTHER's.
may_use() {
	[ "$1" = engine ] && [ "$2" = policy ] && return 1
	[ "$(rank "$2")" -le "$(rank "$1")" ]
}
bad=0

# Headers: a bare include names one file of common/ (names are unique).
for f in common/*/*.[ch]; do
	own=$(basename "$(dirname "$f")")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		p=$(ls common/*/"$h" 2>/dev/null) || continue
		! may_use "$own" "$(basename "$(dirname "$p")")" || continue
		echo "check-layers: $f includes $p, a layer it may not use" >&2
		bad=1
	done
done

# Symbols: who defines what, then what each object takes from another.
# Only the objects of today's sources: a file moved to another layer
# leaves its old object behind in an existing build tree.
objects() { for c in common/*/*.c; do echo "$BUILD/${c%.c}.o"; done; }
defs=$(for o in $(objects); do
	l=$(basename "$(dirname "$o")")
	nm --defined-only -g "$o" | awk -v f="$l/$(basename "$o" .o)" 'NF == 3 { print $3, f }'
done)
for o in $(objects); do
	l=$(basename "$(dirname "$o")")
	for s in $(nm -u "$o" | awk '{ print $2 }'); do
		d=$(printf '%s\n' "$defs" | awk -v s="$s" '$1 == s { print $2; exit }')
		[ -n "$d" ] && ! may_use "$l" "${d%%/*}" || continue
		echo "check-layers: $l/$(basename "$o" .o) uses $s of $d, a layer it may not use" >&2
		bad=1
	done
done
[ $bad = 0 ] && echo "check-layers: every file of common/ uses only the layers it may"
exit $bad
