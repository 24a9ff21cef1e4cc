/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What pam_cocoon hands to pam_systemd for a session's scope, and whether
 * it was handed: no sd-bus here, so cocoonctl can ask it too. */
#ifndef COCOON_SYSTEMD_HANDOVER_H
#define COCOON_SYSTEMD_HANDOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

/* What pam_systemd applies to the scope it makes for a session: the PAM
 * data items it reads (pam_systemd(8)), each a decimal string. */
struct systemd_scope_item {
	const char *name; /* systemd.memory_max ... */
	unsigned long long value;
};

/* The items LIMITS sets (memory-max, pids-max, max-session-time), for
 * pam_cocoon's `return` line to hand over; returns how many (at most 3). */
size_t systemd_scope_items(const struct session_limits *limits,
			   struct systemd_scope_item items[3]);

/* Whether the item NAME reached pam_systemd (pam_cocoon: set as PAM data). */
typedef bool (*systemd_scope_handed_fn)(void *data, const char *name);

/* Under systemd, whether memory-max and pids-max of LIMITS were handed
 * over (HANDED) before pam_systemd: what systemd_scope_check asks first,
 * and all that explain can know of a stack it only reads. */
int systemd_scope_check_handed(const struct session_limits *limits,
			       systemd_scope_handed_fn handed, void *data,
			       struct cc_error *err);

#endif
