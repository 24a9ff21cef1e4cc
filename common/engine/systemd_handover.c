// SPDX-License-Identifier: GPL-2.0-or-later
/* The limits pam_cocoon hands to pam_systemd, and the check they were. */
#include <string.h>

#include "cgroup.h"
#include "systemd_handover.h"
#include "util.h"

size_t systemd_scope_items(const struct session_limits *limits,
			   struct systemd_scope_item items[3])
{
	const struct systemd_scope_item all[] = {
		{ "systemd.memory_max", limits->memory_max },
		{ "systemd.tasks_max", limits->pids_max },
		{ "systemd.runtime_max_sec", limits->max_session_time },
	};
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i].value)
			items[n++] = all[i];
	return n;
}

int systemd_scope_check_handed(const struct session_limits *limits,
			       systemd_scope_handed_fn handed, void *data,
			       struct cc_error *err)
{
	if (!cgroup_under_systemd())
		return 0;
	struct systemd_scope_item items[3];
	size_t n = systemd_scope_items(limits, items);
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].name, "systemd.runtime_max_sec") != 0 &&
		    !handed(data, items[i].name))
			return cc_fail(err, "%s is not set: 'session required "
				       "pam_cocoon.so return' must come before "
				       "pam_systemd", items[i].name);
	return 0;
}
