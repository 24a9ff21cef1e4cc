// SPDX-License-Identifier: GPL-2.0-or-later
/* The only place ids change: the build's identity, then the user's. */
/* The session process's credentials: the user's file-system identity
 * while the new root is built, then the one-way switch to the user. */
#include "credentials.h"
#include "credentials_ids.h"
#include "fault.h"
#include "util.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* setfsuid/setfsgid report no errors: they return the previous value. An
 * invalid id (-1) changes nothing and returns the current one, which is
 * how the change is checked. */
static int set_fs_ids(uid_t uid, gid_t gid, struct cc_error *err)
{
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid)
		return cc_fail(err, "setfsuid/setfsgid %u/%u did not take effect",
			       (unsigned)uid, (unsigned)gid);
	return 0;
}

/* Setting the groups of an identity whose groups were left for later
 * would drop them all: a slip in the caller, refused. */
static int groups_known(const struct identity *who, struct cc_error *err)
{
	if (who->groups_later)
		return cc_fail(err, "the groups of %s were not looked up", who->user);
	return 0;
}

int creds_build_begin(const struct identity *who, struct cc_error *err)
{
	if (groups_known(who, err) < 0)
		return -1;
	/* Root's own supplementary groups are of no use to the build (root
	 * passes permission checks through its capabilities), so the user's
	 * stay for the whole build rather than being swapped around each
	 * open. */
	if (setgroups(who->ngroups, who->groups) < 0)
		return cc_fail_errno(err, "setgroups for %s", who->user);
	return creds_fs_user(who, err);
}

int creds_fs_user(const struct identity *who, struct cc_error *err)
{
	return set_fs_ids(who->uid, who->gid, err);
}

int creds_fs_root(struct cc_error *err)
{
	return set_fs_ids(0, 0, err);
}

int creds_open_as_user(const struct identity *who, struct creds_saved *saved,
		       struct cc_error *err)
{
	saved->groups = NULL;
	saved->ngroups = getgroups(0, NULL);
	if (saved->ngroups < 0)
		return cc_fail_errno(err, "getgroups");
	saved->groups = xcalloc((size_t)saved->ngroups + 1, sizeof(gid_t));
	saved->ngroups = getgroups(saved->ngroups, saved->groups);
	if (saved->ngroups < 0) {
		free(saved->groups);
		saved->groups = NULL;
		return cc_fail_errno(err, "getgroups");
	}
	if (creds_build_begin(who, err) == 0)
		return 0;
	/* Never judged on at ids half changed: root's are back or nothing. */
	struct cc_error back;
	if (creds_open_as_root(saved, &back) < 0) {
		fprintf(stderr, "cocoon: %s\n", back.msg);
		abort();
	}
	return -1;
}

int creds_open_as_root(struct creds_saved *saved, struct cc_error *err)
{
	int rc = creds_fs_root(err);
	if (rc == 0 && saved->groups && setgroups((size_t)saved->ngroups, saved->groups) < 0)
		rc = cc_fail_errno(err, "setgroups back to the caller's");
	free(saved->groups);
	saved->groups = NULL;
	return rc;
}

int creds_drop_bounding(struct cc_error *err)
{
	/* cap_max_bits() is the kernel's count, probed by libcap at load. */
	int max = (int)cap_max_bits();
	for (int c = 0; c < max; c++)
		if (cap_drop_bound((cap_value_t)c) < 0)
			return cc_fail_errno(err, "dropping capability %d from the "
					     "bounding set", c);
	return 0;
}

int creds_drop_all(struct cc_error *err)
{
	cap_t none = cap_init();
	if (!none)
		return cc_fail_errno(err, "cap_init");
	int rc = 0;
	cap_t got = NULL;
	if (cap_set_proc(none) < 0)
		rc = cc_fail_errno(err, "emptying the capability sets");
	else if (!(got = cap_get_proc()))
		rc = cc_fail_errno(err, "reading the capability sets");
	else if (cap_compare(got, none) != 0)
		rc = cc_fail(err, "capabilities remain after emptying the sets");
	cap_free(got);
	cap_free(none);
	return rc;
}

/* The ids read back, and root checked out of reach: what makes a switch
 * to the user one-way (credentials_ids.c). */
static int check_switched(const struct identity *who, struct cc_error *err)
{
	if (FAULT("reading the ids back", err) < 0)
		return -1;
	switch (ids_check(who->uid, who->gid, who->ngroups, who->groups)) {
	case IDS_OK:
		return 0;
	case IDS_NOT_SWITCHED:
		return cc_fail(err, "the ids are not %u/%u after the switch", (unsigned)who->uid,
			       (unsigned)who->gid);
	case IDS_GROUPS_DIFFER:
		return cc_fail(err, "the supplementary groups are not %s's", who->user);
	case IDS_ROOT_REGAINED:
		return cc_fail(err, "root could be regained after the switch to %s", who->user);
	case IDS_GID0_REGAINED:
		return cc_fail(err, "gid 0 could be regained after the switch to %s", who->user);
	default:
		return cc_fail_errno(err, "reading the ids back");
	}
}

static int switch_ids(const struct identity *who, struct cc_error *err)
{
	if (groups_known(who, err) < 0)
		return -1;
	switch (ids_switch(who->uid, who->gid, who->ngroups, who->groups)) {
	case IDS_OK:
		return 0;
	case IDS_SETGROUPS:
		return cc_fail_errno(err, "setgroups for %s", who->user);
	case IDS_SETRESGID:
		return cc_fail_errno(err, "setresgid %u", (unsigned)who->gid);
	case IDS_SETRESUID:
		return cc_fail_errno(err, "setresuid %u", (unsigned)who->uid);
	default:
		return cc_fail_errno(err, "PR_SET_DUMPABLE");
	}
}

int creds_switch_user(const struct identity *who, struct cc_error *err)
{
	if (switch_ids(who, err) < 0)
		return -1;
	return check_switched(who, err);
}

int creds_become_user(const struct identity *who, struct cc_error *err)
{
	/* Dropping from the bounding set needs CAP_SETPCAP: before setresuid. */
	/* One prctl; libcap's cap_reset_ambient() first tests each
	 * capability, forty-odd system calls. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return cc_fail_errno(err, "clearing the ambient capabilities");
	if (creds_drop_bounding(err) < 0 || switch_ids(who, err) < 0)
		return -1;
	/* setresuid to a non-zero uid empties the permitted and effective
	 * sets but keeps the inheritable one; a uid 0 session keeps all
	 * three. Empty them all, then check. */
	if (creds_drop_all(err) < 0)
		return -1;
	return check_switched(who, err);
}

/* Safe in a vfork child (sandbox_service.c's helper): raw system calls,
 * as glibc's wrappers may signal every thread of the parent they know,
 * and errors as numbers, as strerror may load a locale's catalogue. */
static int take_root_failed(struct cc_error *err, const char *what)
{
	return cc_fail_number(err, errno, "%s", what);
}

int creds_take_root(struct cc_error *err)
{
	if (syscall(SYS_setresgid, 0, 0, 0) < 0)
		return take_root_failed(err, "setresgid 0");
	if (syscall(SYS_setresuid, 0, 0, 0) < 0)
		return take_root_failed(err, "setresuid 0");
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return take_root_failed(err, "reading the ids back");
	if (ru || eu || su || rg || eg || sg)
		return cc_fail(err, "the ids are not 0/0 after taking root");
	return 0;
}
