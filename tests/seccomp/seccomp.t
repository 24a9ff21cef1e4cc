#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The session's seccomp filter (common/engine/seccomp_filter.c), tried for real by
# seccomp-probe: first without the filter, where every operation must
# succeed or fail differently, then with it, where each must be refused.
# The first run shows that the second run's refusals come from the filter.
# Builds nothing: runs $COCOON_BUILD/tests/seccomp-probe when it exists.
probe=${COCOON_BUILD:-build}/tests/seccomp-probe
if [ ! -x "$probe" ]; then
	echo "1..0 # SKIP $probe not built"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi

out=$(mktemp) && count=$(mktemp) || exit 1
trap 'rm -f "$out" "$count"' EXIT

# Both runs in one TAP stream: renumber, drop each run's own plan line,
# and count a run that died or printed no plan as a failure.
n=0
for mode in --no-filter --filter; do
	"$probe" "$mode" >"$out" 2>&1
	rc=$?
	awk -v base="$n" -v countfile="$count" '
		/^ok [0-9]+/ { $2 += base; last = $2; print; next }
		/^not ok [0-9]+/ { $3 += base; last = $3; print; next }
		/^1\.\./ { planned = 1; next }
		{ print }
		END { print (last ? last : base), (planned ? 1 : 0) > countfile }
	' "$out"
	read -r n planned <"$count"
	if [ "$rc" != 0 ] || [ "$planned" != 1 ]; then
		n=$((n + 1))
		echo "not ok $n - seccomp-probe $mode exited with status $rc"
	fi
done
echo "1..$n"
