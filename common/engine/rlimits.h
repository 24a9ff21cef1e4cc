/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resource limits of a session, applied so that they only ever lower
 * what the process already has. */
#ifndef COCOON_RLIMITS_H
#define COCOON_RLIMITS_H

#include <stddef.h>
#include <sys/resource.h>

#include "error.h"
#include "plan.h"

/* The session's limits, the one way every entry point sets them, each
 * change checked. CALLER (RLIM_NLIMITS of them, or NULL): the caller's
 * own given back, where a setuid entry point raised its limits for the
 * privileged setup. Then LIMITS (or NULL): lowered to the plan's, each
 * of soft and hard becoming min(plan, current), soft <= hard; never
 * raised, so what pam_limits or the caller set stays when it is lower. */
int rlimits_apply(const struct rlimit *caller, const struct session_limits *limits,
		  struct cc_error *err);

#endif
