// SPDX-License-Identifier: GPL-2.0-or-later
/* The cpu-max of the logind session's scope, under systemd. */
#include "systemd_scope.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

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
