/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resource limits of a session, applied so that they only ever lower
 * what the process already has. */
#ifndef COCOON_RLIMITS_H
#define COCOON_RLIMITS_H

#include <stddef.h>

#include "error.h"
#include "plan.h"

/* Lower this process's limits to the plan's: each of soft and hard
 * becomes min(plan, current), soft <= hard. Never raises one, so what
 * pam_limits or the caller set stays when it is lower. */
int rlimits_apply(const struct session_limits *limits, struct cc_error *err);

#endif
