/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resource limits of a session: `rlimit-NAME = SOFT [HARD]` parsed, and
 * applied so that they only ever lower what the process already has. */
#ifndef COCOON_RLIMITS_H
#define COCOON_RLIMITS_H

#include <stddef.h>

#include "error.h"
#include "plan.h"

/* The RLIMIT_* number of NAME ("nproc", the directive's name without
 * "rlimit-"), or -1. */
int rlimit_by_name(const char *name);
/* "nproc" for RLIMIT_NPROC; NULL for a limit cocoon does not set. */
const char *rlimit_name(int resource);
/* SOFT [HARD] (one word sets both) for RESOURCE: counts, sizes with
 * K/M/G/T or durations by resource, or `unlimited`; soft <= hard. */
int rlimit_parse(int resource, char *const *words, size_t count,
		 struct plan_rlimit *out, struct cc_error *err);
/* "unlimited" or the number, into buf. */
void rlimit_format(rlim_t value, char *buf, size_t size);
/* Lower this process's limits to the plan's: each of soft and hard
 * becomes min(plan, current), soft <= hard. Never raises one, so what
 * pam_limits or the caller set stays when it is lower. */
int rlimits_apply(const struct session_limits *limits, struct cc_error *err);

#endif
