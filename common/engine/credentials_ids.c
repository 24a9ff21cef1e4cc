// SPDX-License-Identifier: GPL-2.0-or-later
/* Switching every id to a user's, one way and checked, with libc alone. */
#include "credentials_ids.h"

#include <grp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <unistd.h>

enum ids_failure ids_switch(uid_t uid, gid_t gid, size_t ngroups, const gid_t *groups)
{
	if (setgroups(ngroups, groups) < 0)
		return IDS_SETGROUPS;
	if (setresgid(gid, gid, gid) < 0)
		return IDS_SETRESGID;
	if (setresuid(uid, uid, uid) < 0)
		return IDS_SETRESUID;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return IDS_DUMPABLE;
	return IDS_OK;
}

static bool in(gid_t g, const gid_t *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == g)
			return true;
	return false;
}

/* The kernel keeps the list sorted and GROUPS may hold duplicates:
 * compared as sets, both ways. */
static enum ids_failure same_groups(size_t ngroups, const gid_t *groups)
{
	int n = getgroups(0, NULL);
	if (n < 0 || n > 65536)
		return IDS_READ_BACK;
	gid_t *have = calloc((size_t)n + 1, sizeof(gid_t));
	if (!have)
		return IDS_READ_BACK;
	enum ids_failure rc = getgroups(n, have) == n ? IDS_OK : IDS_READ_BACK;
	for (int i = 0; rc == IDS_OK && i < n; i++)
		if (!in(have[i], groups, ngroups))
			rc = IDS_GROUPS_DIFFER;
	for (size_t j = 0; rc == IDS_OK && j < ngroups; j++)
		if (!in(groups[j], have, (size_t)n))
			rc = IDS_GROUPS_DIFFER;
	free(have);
	return rc;
}

enum ids_failure ids_check(uid_t uid, gid_t gid, size_t ngroups, const gid_t *groups)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return IDS_READ_BACK;
	if (ru != uid || eu != uid || su != uid || rg != gid || eg != gid || sg != gid ||
	    (uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid)
		return IDS_NOT_SWITCHED;
	enum ids_failure rc = same_groups(ngroups, groups);
	if (rc != IDS_OK)
		return rc;
	if (uid != 0 && (setuid(0) != -1 || setreuid((uid_t)-1, 0) != -1))
		return IDS_ROOT_REGAINED;
	if (gid != 0 && setgid(0) != -1)
		return IDS_GID0_REGAINED;
	return IDS_OK;
}
