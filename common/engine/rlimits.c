// SPDX-License-Identifier: GPL-2.0-or-later
/* A session's resource limits, applied only ever to lower them. */
#include "rlimits.h"

#include <sys/resource.h>

#include "plan_values.h"

static rlim_t min_limit(rlim_t a, rlim_t b)
{
	return a < b ? a : b; /* RLIM_INFINITY is the largest value */
}

int rlimits_apply(const struct session_limits *limits, struct cc_error *err)
{
	for (int res = 0; res < RLIM_NLIMITS; res++) {
		const struct plan_rlimit *want = &limits->rlimit[res];
		struct rlimit cur;
		if (!want->set)
			continue;
		if (getrlimit(res, &cur) < 0)
			return cc_fail_errno(err, "getrlimit %s", rlimit_name(res));
		struct rlimit next = { .rlim_max = min_limit(want->hard, cur.rlim_max) };
		next.rlim_cur = min_limit(min_limit(want->soft, cur.rlim_cur), next.rlim_max);
		if (setrlimit(res, &next) < 0)
			return cc_fail_errno(err, "setting rlimit-%s", rlimit_name(res));
	}
	return 0;
}
