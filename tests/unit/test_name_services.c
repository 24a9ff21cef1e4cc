// SPDX-License-Identifier: GPL-2.0-or-later
/* The name-service endpoints: which directories name_service_open lets
 * the engine bind (owners, modes, symlinks, every component on the way),
 * where name_services_plan leaves one out, and that the plan's hash
 * ignores them. Made under a root-owned temporary directory in /run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "name_services.h"
#include "plan.h"
#include "plan_build.h"
#include "tap.h"
#include "util.h"

#define USER_UID 4242u
#define UID_MIN 1000u

static char top[] = "/run/cocoon-unit-nss.XXXXXX";

/* TOP/NAME made with MODE, owned by UID:GID. */
static char *make_dir(const char *name, mode_t mode, uid_t uid, gid_t gid)
{
	char *path = xasprintf("%s/%s", top, name);
	if (mkdir(path, 0700) < 0 || chown(path, uid, gid) < 0 || chmod(path, mode) < 0)
		tap_ok(false, "making %s: %s", path, strerror(errno));
	return path;
}

/* "bind" when the endpoint opens, else why it is skipped, or the error. */
static char *judge(const char *path, uid_t user)
{
	char why[512] = "";
	int fd = name_service_open(path, user, UID_MIN, why, sizeof(why));
	if (fd >= 0) {
		close(fd);
		return xstrdup("bind");
	}
	if (errno)
		return xasprintf("error %s", strerror(errno));
	/* The temporary directory's name changes: say it as TOP. */
	const char *rest = strncmp(why, top, strlen(top)) == 0 ? why + strlen(top) : why;
	return xasprintf("skip TOP%s", rest);
}

static void expect(const char *path, uid_t user, const char *want, const char *name)
{
	char *got = judge(path, user);
	tap_is_str(got, want, name);
	free(got);
}

static void test_open(void)
{
	char *good = make_dir("good", 0755, 0, 0);
	expect(good, USER_UID, "bind", "a root-owned 0755 directory is bound");
	char *daemon = make_dir("daemon", 0755, 101, 101);
	expect(daemon, USER_UID, "bind", "one of a system account (nslcd's) is bound");
	expect(daemon, 101, "skip TOP/daemon is owned by uid 101, neither root nor a "
	       "system account other than the session's user",
	       "but not in that account's own session");
	char *mine = make_dir("mine", 0755, USER_UID, USER_UID);
	expect(mine, USER_UID, "skip TOP/mine is owned by uid 4242, neither root nor a "
	       "system account other than the session's user", "a user's directory is not");
	char *other = make_dir("other", 0755, 5000, 5000);
	expect(other, USER_UID, "skip TOP/other is owned by uid 5000, neither root nor a "
	       "system account other than the session's user",
	       "nor another user's");
	char *open_dir = make_dir("world", 01777, 0, 0);
	expect(open_dir, USER_UID, "skip TOP/world is writable by others",
	       "a world-writable directory is not");
	char *rootgrp = make_dir("rootgrp", 0775, 0, 0);
	expect(rootgrp, USER_UID, "bind", "group-writable by root's group is (sssd's mc)");
	char *grp = make_dir("grp", 0775, 0, 50);
	expect(grp, USER_UID, "skip TOP/grp is writable by group 50",
	       "group-writable by another group is not");
	/* Below a directory others can write, the endpoint could be swapped. */
	char *under = xasprintf("%s/sub", open_dir);
	if (mkdir(under, 0755) < 0)
		tap_ok(false, "mkdir %s", under);
	expect(under, USER_UID, "skip TOP/world is writable by others",
	       "every directory on the way is judged");
	char *link = xasprintf("%s/link", top);
	if (symlink(good, link) < 0)
		tap_ok(false, "symlink %s", link);
	expect(link, USER_UID, "skip TOP/link is a symlink",
	       "a symlink at the endpoint is not followed");
	char *through = xasprintf("%s/link/x", top);
	expect(through, USER_UID, "skip TOP/link is a symlink",
	       "nor one on the way to it");
	char *file = xasprintf("%s/file", top);
	FILE *f = fopen(file, "w");
	if (f)
		fclose(f);
	expect(file, USER_UID, "skip TOP/file is not a directory", "a file is not");
	char *gone = xasprintf("%s/gone", top);
	expect(gone, USER_UID, "skip TOP/gone is gone", "a missing endpoint is skipped");
	expect("run/nscd", USER_UID, "error Invalid argument", "a relative path is an error");
	for (char **p = (char *[]){ good, daemon, mine, other, under, open_dir, rootgrp,
				    grp, NULL }; *p; p++)
		free(*p);
	unlink(link);
	unlink(file);
	free(link);
	free(through);
	free(file);
	free(gone);
}

static size_t count_endpoints(const struct plan *plan)
{
	size_t n = 0;
	for (size_t i = 0; i < plan->nops; i++)
		n += plan->ops[i].type == OP_NAME_SERVICE;
	return n;
}

static void test_plan(void)
{
	struct plan a, b;
	plan_init(&a);
	plan_add_op(&a, OP_TMPFS, NULL, "/run", "t.conf", 1);
	plan_hash(&a);
	char before[sizeof(a.hash)];
	memcpy(before, a.hash, sizeof(before));
	name_services_plan(&a, "t.conf", 2);
	size_t host = count_endpoints(&a);
	plan_hash(&a);
	tap_is_str(a.hash, before, "the hash leaves the host's endpoints out");
	for (size_t i = 0; i < a.nops; i++)
		if (a.ops[i].type == OP_NAME_SERVICE && access(a.ops[i].source, F_OK) != 0)
			tap_ok(false, "%s planned, and the host has none", a.ops[i].source);
	a.name_services = false;
	plan_hash(&a);
	tap_ok(strcmp(a.hash, before) != 0, "name-services = none is in the hash");

	/* A policy's own op at an endpoint's path wins; a bind the user can
	 * write over /run and /var takes every endpoint out. */
	plan_init(&b);
	plan_add_op(&b, OP_TMPFS, NULL, "/run/nscd", "t.conf", 1);
	name_services_plan(&b, "t.conf", 2);
	size_t nscd = 0;
	for (size_t i = 0; i < b.nops; i++)
		nscd += strcmp(b.ops[i].dest, "/run/nscd") == 0;
	tap_ok(nscd == 1, "an op of the policy at /run/nscd is not doubled");
	plan_free(&b);
	plan_init(&b);
	plan_add_op(&b, OP_BIND, "%h/run", "/run", "t.conf", 1);
	plan_add_op(&b, OP_BIND, "%h/var", "/var", "t.conf", 2);
	name_services_plan(&b, "t.conf", 3);
	tap_ok(count_endpoints(&b) == 0, "none inside binds the user can write (%zu on "
	       "this host otherwise)", host);
	plan_free(&b);
	plan_free(&a);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (chown)\n");
		return 0;
	}
	if (!mkdtemp(top) || chmod(top, 0755) < 0) {
		printf("Bail out! mkdtemp %s\n", top);
		return 1;
	}
	test_open();
	test_plan();
	char *cmd = xasprintf("rm -rf '%s'", top);
	if (system(cmd) != 0)
		tap_ok(false, "removing %s", top);
	free(cmd);
	return tap_done();
}
