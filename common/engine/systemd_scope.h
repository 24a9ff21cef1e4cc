/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The logind session's scope, under systemd: what pam_systemd made for
 * the service process, and a limit it has no PAM item for. */
#ifndef COCOON_SYSTEMD_SCOPE_H
#define COCOON_SYSTEMD_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "systemd_handover.h"

/* Under systemd, the limits a PAM session is held to: memory-max and
 * pids-max must have been handed over (HANDED), cpu-max is asked of
 * systemd on the scope (when APPLY: mode=audit applies nothing), and the
 * session's cgroup must show them all. Nothing to check elsewhere. */
int systemd_scope_check(const struct session_limits *limits, bool apply,
			systemd_scope_handed_fn handed, void *data, struct cc_error *err);

/* A shared sandbox's scope: a transient UNIT (cocoon-ID.scope) in UID's
 * slice (user-UID.slice), made over the system bus with the calling
 * process in it and LIMITS' memory-max, pids-max and cpu-max on it;
 * returns once the process is there. The scope is systemd's: it ends,
 * and goes, when its last process does. */
int systemd_scope_start(const char *unit, uid_t uid, const struct session_limits *limits,
			struct cc_error *err);

#endif
