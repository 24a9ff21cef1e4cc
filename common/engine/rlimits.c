// SPDX-License-Identifier: GPL-2.0-or-later
/* A session's resource limits, set one checked way by every entry point. */
#include "rlimits.h"

#include "plan_values.h"

static rlim_t min_limit(rlim_t a, rlim_t b)
{
	return a < b ? a : b; /* RLIM_INFINITY is the largest value */
}

int rlimits_apply(const struct rlimit *caller, const struct session_limits *limits,
		  struct cc_error *err)
{
	for (int r = 0; caller && r < RLIM_NLIMITS; r++)
		if (setrlimit(r, &caller[r]) < 0)
			return cc_fail_errno(err, "restoring resource limit %d", r);
	for (int res = 0; limits && res < RLIM_NLIMITS; res++) {
		const struct plan_rlimit *want = &limits->rlimit[res];
		struct rlimit cur;
		if (!want->set)
			continue;
		if (getrlimit(res, &cur) < 0)
			return cc_fail_errno(err, "getrlimit %s", plan_rlimit_name(res));
		struct rlimit next = { .rlim_max = min_limit(want->hard, cur.rlim_max) };
		next.rlim_cur = min_limit(min_limit(want->soft, cur.rlim_cur), next.rlim_max);
		if (setrlimit(res, &next) < 0)
			return cc_fail_errno(err, "setting rlimit-%s", plan_rlimit_name(res));
	}
	return 0;
}
