/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The logind session's scope, under systemd: what pam_systemd made for
 * the service process, and a limit it has no PAM item for. */
#ifndef COCOON_SYSTEMD_SCOPE_H
#define COCOON_SYSTEMD_SCOPE_H

#include "error.h"

/* Ask systemd to hold the calling process's session scope (session-N.scope,
 * made by pam_systemd) to PERCENT of one CPU (CPUQuota=, for this boot
 * only), over the system bus. Fails when the process is in no such scope
 * or systemd refuses. */
int systemd_scope_set_cpu_max(unsigned percent, struct cc_error *err);

#endif
