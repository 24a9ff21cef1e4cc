// SPDX-License-Identifier: GPL-2.0-or-later
/* The cpu-max of the logind session's scope, under systemd. */
#include "systemd_scope.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

#include "cgroup.h"
#include "util.h"

int systemd_scope_set_cpu_max(unsigned percent, struct cc_error *err)
{
	char *unit = NULL;
	int r = sd_pid_get_unit(0, &unit);
	if (r < 0 || !unit || !str_starts_with(unit, "session-") ||
	    strlen(unit) < 6 || strcmp(unit + strlen(unit) - 6, ".scope") != 0) {
		int rc = cc_fail(err, "cpu-max: the service is in no logind session scope "
				 "(%s): pam_systemd must open its session before "
				 "pam_cocoon's last line", unit ? unit : "none");
		free(unit);
		return rc;
	}
	sd_bus *bus = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	r = sd_bus_open_system(&bus);
	if (r >= 0)
		/* CPUQuotaPerSecUSec: microseconds of CPU time a second. */
		r = sd_bus_call_method(bus, "org.freedesktop.systemd1",
				       "/org/freedesktop/systemd1",
				       "org.freedesktop.systemd1.Manager", "SetUnitProperties",
				       &e, NULL, "sba(sv)", unit, 1, 1, "CPUQuotaPerSecUSec",
				       "t", (uint64_t)percent * 10000);
	int rc = 0;
	if (r < 0)
		rc = cc_fail(err, "cpu-max: systemd did not set CPUQuota=%u%% on %s: %s",
			     percent, unit, e.message ? e.message : strerror(-r));
	sd_bus_error_free(&e);
	sd_bus_flush_close_unref(bus);
	free(unit);
	return rc;
}

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

int systemd_scope_check(const struct session_limits *limits, bool apply,
			systemd_scope_handed_fn handed, void *data, struct cc_error *err)
{
	if (!cgroup_under_systemd())
		return 0;
	if (limits->cpu_max_percent && apply &&
	    systemd_scope_set_cpu_max(limits->cpu_max_percent, err) < 0)
		return -1;
	struct systemd_scope_item items[3];
	size_t n = systemd_scope_items(limits, items);
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].name, "systemd.runtime_max_sec") != 0 &&
		    !handed(data, items[i].name))
			return cc_fail(err, "%s is not set: 'session required "
				       "pam_cocoon.so return' must come before "
				       "pam_systemd", items[i].name);
	/* Handed over is not applied: pam_systemd makes no scope for a caller
	 * already in a session, or may fail as an optional line. */
	struct session_limits in_force = *limits;
	if (!apply)
		in_force.cpu_max_percent = 0;
	return cgroup_check_applied(&in_force, "/sys/fs/cgroup", "/proc/self/cgroup", err);
}
