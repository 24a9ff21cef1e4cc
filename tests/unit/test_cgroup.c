// SPDX-License-Identifier: GPL-2.0-or-later
/* cgroup_check_applied: the limits pam_systemd was handed (and cpu-max,
 * which systemd is asked for) must be in force
 * on the session's cgroup or an ancestor's, read from a fake hierarchy. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "tap.h"
#include "util.h"

static char root[] = "/tmp/cocoon-test-cgroup.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s%s", root, rel);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

static void dir(const char *rel)
{
	char *path = xasprintf("%s%s", root, rel);
	mkdir(path, 0755);
	free(path);
}

int main(void)
{
	if (!mkdtemp(root))
		return 1;
	dir("/cg");
	dir("/cg/user.slice");
	dir("/cg/user.slice/session-4.scope");
	put("/cg/user.slice/pids.max", "max\n");
	put("/cg/user.slice/session-4.scope/memory.max", "1073741824\n");
	put("/cg/user.slice/session-4.scope/pids.max", "256\n");
	put("/self-cgroup", "0::/user.slice/session-4.scope\n");
	char *mount = xasprintf("%s/cg", root), *self = xasprintf("%s/self-cgroup", root);

	struct session_limits l = { 0 };
	struct cc_error err;
	l.memory_max = 1073741824;
	l.pids_max = 256;
	tap_ok(cgroup_check_applied(&l, mount, self, &err) == 0,
	       "limits in force on the session's scope pass");
	l.pids_max = 100;
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 &&
	       strstr(err.msg, "pids-max 100 is not in force") &&
	       strstr(err.msg, "allows 256"), "a looser scope fails, saying what it allows");
	put("/cg/user.slice/pids.max", "50\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) == 0,
	       "a tighter ancestor bounds the session too");
	l.memory_max = 1024;
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 &&
	       strstr(err.msg, "memory-max 1024"), "memory-max is checked as well");
	l.memory_max = 1073741824;
	l.pids_max = 50;
	l.cpu_max_percent = 20;
	put("/cg/user.slice/session-4.scope/cpu.max", "max 100000\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 &&
	       strstr(err.msg, "cpu-max 20% is not in force") && strstr(err.msg, "up to max"),
	       "cpu-max unset on the scope fails");
	put("/cg/user.slice/session-4.scope/cpu.max", "20000 100000\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) == 0,
	       "cpu.max at the quota systemd writes for CPUQuota=20%% passes");
	put("/cg/user.slice/session-4.scope/cpu.max", "50000 100000\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 && strstr(err.msg, "allows 50%"),
	       "a looser quota fails, saying what it allows");
	l.cpu_max_percent = 0;
	put("/self-cgroup", "0::/user.slice\n");
	l.memory_max = 0;
	l.pids_max = 50;
	tap_ok(cgroup_check_applied(&l, mount, self, &err) == 0, "an unset limit is not checked");
	put("/self-cgroup", "0::/\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 && strstr(err.msg, "up to max"),
	       "no scope at all (pam_systemd made none): refused");
	put("/self-cgroup", "1:name=systemd:/\n");
	tap_ok(cgroup_check_applied(&l, mount, self, &err) < 0 &&
	       strstr(err.msg, "no cgroup v2 membership"), "no v2 membership: refused");

	char *cmd = xasprintf("rm -rf '%s'", root);
	if (system(cmd) != 0)
		perror("cleanup");
	free(cmd);
	free(mount);
	free(self);
	return tap_done();
}
