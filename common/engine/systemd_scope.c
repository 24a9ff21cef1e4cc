// SPDX-License-Identifier: GPL-2.0-or-later
/* systemd scopes over sd-bus: cpu-max on logind's, a shared sandbox's own. */
#include "systemd_scope.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

#include "cgroup.h"
#include "util.h"

/* libsystemd, loaded the first time a session needs systemd, not with
 * the module: pam_cocoon.so linked against it made every service that
 * loads the module map libsystemd and the five compression and crypto
 * libraries it needs, on every login, exempt and unconfined ones too,
 * and on hosts without systemd. Where a system call or page fault is
 * dear that was 3.8 ms of a pamtester login (tests/bench: issue #28).
 * Under sshd, or beside pam_systemd, it is mapped already and the
 * dlopen only counts a reference. Never unloaded: a thread of it may
 * outlive the call. */
static struct {
	bool loaded;
	__typeof__(sd_pid_get_unit) *pid_get_unit;
	__typeof__(sd_bus_open_system) *bus_open_system;
	__typeof__(sd_bus_call_method) *bus_call_method;
	__typeof__(sd_bus_message_new_method_call) *message_new_method_call;
	__typeof__(sd_bus_message_append) *message_append;
	__typeof__(sd_bus_message_open_container) *message_open_container;
	__typeof__(sd_bus_message_close_container) *message_close_container;
	__typeof__(sd_bus_call) *call;
	__typeof__(sd_bus_error_free) *error_free;
	__typeof__(sd_bus_message_unref) *message_unref;
	__typeof__(sd_bus_flush_close_unref) *flush_close_unref;
} sd;

static int load_symbol(void *lib, const char *name, void **fn, struct cc_error *err)
{
	*fn = dlsym(lib, name);
	if (!*fn)
		return cc_fail(err, "libsystemd.so.0 has no %s", name);
	return 0;
}

static int libsystemd_load(struct cc_error *err)
{
	if (sd.loaded)
		return 0;
	void *lib = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		return cc_fail(err, "cannot load libsystemd.so.0, which talks to systemd: %s",
			       why ? why : "unknown error");
	}
	const struct {
		const char *name;
		void **fn;
	} symbols[] = {
		{ "sd_pid_get_unit", (void **)&sd.pid_get_unit },
		{ "sd_bus_open_system", (void **)&sd.bus_open_system },
		{ "sd_bus_call_method", (void **)&sd.bus_call_method },
		{ "sd_bus_message_new_method_call", (void **)&sd.message_new_method_call },
		{ "sd_bus_message_append", (void **)&sd.message_append },
		{ "sd_bus_message_open_container", (void **)&sd.message_open_container },
		{ "sd_bus_message_close_container", (void **)&sd.message_close_container },
		{ "sd_bus_call", (void **)&sd.call },
		{ "sd_bus_error_free", (void **)&sd.error_free },
		{ "sd_bus_message_unref", (void **)&sd.message_unref },
		{ "sd_bus_flush_close_unref", (void **)&sd.flush_close_unref },
	};
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++)
		if (load_symbol(lib, symbols[i].name, symbols[i].fn, err) < 0)
			return -1;
	sd.loaded = true;
	return 0;
}

/* Ask systemd to hold the calling process's session scope (session-N.scope,
 * made by pam_systemd) to PERCENT of one CPU (CPUQuota=, for this boot
 * only), over the system bus. Fails when the process is in no such scope
 * or systemd refuses. */
static int systemd_scope_set_cpu_max(unsigned percent, struct cc_error *err)
{
	if (libsystemd_load(err) < 0)
		return -1;
	char *unit = NULL;
	int r = sd.pid_get_unit(0, &unit);
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
	r = sd.bus_open_system(&bus);
	if (r >= 0)
		/* CPUQuotaPerSecUSec: microseconds of CPU time a second. */
		r = sd.bus_call_method(bus, "org.freedesktop.systemd1",
				       "/org/freedesktop/systemd1",
				       "org.freedesktop.systemd1.Manager", "SetUnitProperties",
				       &e, NULL, "sba(sv)", unit, 1, 1, "CPUQuotaPerSecUSec",
				       "t", (uint64_t)percent * 10000);
	int rc = 0;
	if (r < 0)
		rc = cc_fail(err, "cpu-max: systemd did not set CPUQuota=%u%% on %s: %s",
			     percent, unit, e.message ? e.message : strerror(-r));
	sd.error_free(&e);
	sd.flush_close_unref(bus);
	free(unit);
	return rc;
}

int systemd_scope_check(const struct session_limits *limits, bool apply,
			systemd_scope_handed_fn handed, void *data, struct cc_error *err)
{
	if (!cgroup_under_systemd())
		return 0;
	if (limits->cpu_max_percent && apply &&
	    systemd_scope_set_cpu_max(limits->cpu_max_percent, err) < 0)
		return -1;
	if (systemd_scope_check_handed(limits, handed, data, err) < 0)
		return -1;
	/* Handed over is not applied: pam_systemd makes no scope for a caller
	 * already in a session, or may fail as an optional line. */
	struct session_limits in_force = *limits;
	if (!apply)
		in_force.cpu_max_percent = 0;
	if (cgroup_check_applied(&in_force, "/sys/fs/cgroup", "/proc/self/cgroup", err) < 0) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		return cc_fail(err, "%s (did pam_systemd make a scope for it?)", why);
	}
	return 0;
}

/* Whether the calling process's cgroup is UNIT (a line of
 * /proc/self/cgroup ending in "/UNIT"). */
static bool self_in_unit(const char *unit)
{
	char *text AUTOFREE = cgroup_self();
	size_t n = strlen(unit);
	for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);
		if (len > n && line[len - n - 1] == '/' && strcmp(line + len - n, unit) == 0)
			return true;
	}
	return false;
}

/* The properties of the shared sandbox's scope: where it lives, and the
 * plan's limits, which then bound every login of the sandbox. */
static int append_scope_properties(sd_bus_message *m, uid_t uid,
				   const struct session_limits *l)
{
	char slice[64];
	snprintf(slice, sizeof(slice), "user-%u.slice", (unsigned)uid);
	int r = sd.message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = sd.message_append(m, "(sv)(sv)(sv)(sv)", "Slice", "s", slice,
					  "Description", "s", "cocoon shared sandbox",
					  "CollectMode", "s", "inactive-or-failed",
					  "PIDs", "au", 1, (uint32_t)getpid());
	/* No escape into swap, as in cocoon's own cgroups (cgroup.c). */
	if (r >= 0 && l->memory_max)
		r = sd.message_append(m, "(sv)(sv)", "MemoryMax", "t",
					  (uint64_t)l->memory_max, "MemorySwapMax", "t",
					  (uint64_t)0);
	if (r >= 0 && l->pids_max)
		r = sd.message_append(m, "(sv)", "TasksMax", "t", (uint64_t)l->pids_max);
	if (r >= 0 && l->cpu_max_percent)
		r = sd.message_append(m, "(sv)", "CPUQuotaPerSecUSec", "t",
					  (uint64_t)l->cpu_max_percent * 10000);
	if (r >= 0)
		r = sd.message_close_container(m);
	if (r >= 0)
		r = sd.message_append(m, "a(sa(sv))", 0);
	return r;
}

#define SCOPE_WAIT_MS 10000

int systemd_scope_start(const char *unit, uid_t uid, const struct session_limits *limits,
			struct cc_error *err)
{
	if (libsystemd_load(err) < 0)
		return -1;
	sd_bus *bus = NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r = sd.bus_open_system(&bus);
	if (r >= 0)
		r = sd.message_new_method_call(bus, &m, "org.freedesktop.systemd1",
						   "/org/freedesktop/systemd1",
						   "org.freedesktop.systemd1.Manager",
						   "StartTransientUnit");
	if (r >= 0)
		r = sd.message_append(m, "ss", unit, "fail");
	if (r >= 0)
		r = append_scope_properties(m, uid, limits);
	if (r >= 0)
		r = sd.call(bus, m, 0, &e, &reply);
	int rc = 0;
	if (r < 0)
		rc = cc_fail(err, "systemd did not start %s: %s", unit,
			     e.message ? e.message : strerror(-r));
	sd.error_free(&e);
	sd.message_unref(reply);
	sd.message_unref(m);
	sd.flush_close_unref(bus);
	/* The job moves the process when it runs, after the answer. */
	for (int waited = 0; rc == 0 && !self_in_unit(unit); waited += 10) {
		if (waited >= SCOPE_WAIT_MS)
			rc = cc_fail(err, "systemd started %s, but the service is not in it "
				     "after %d s", unit, SCOPE_WAIT_MS / 1000);
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	/* systemd starts a scope without a limit whose controller it cannot
	 * enable: the kernel's files say what holds, or the login is refused. */
	if (rc == 0 && cgroup_check_applied(limits, "/sys/fs/cgroup", "/proc/self/cgroup", err) < 0)
		rc = cc_prefix(err, "%s", unit);
	return rc;
}
