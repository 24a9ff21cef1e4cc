/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Switching every id to a user's, one way, and proving it: with the C
 * library alone, so that cocoon-init (linked against musl, without
 * libcap) changes ids through the same code as credentials.c, which
 * wraps it with the capability work and the messages. */
#ifndef COCOON_CREDENTIALS_IDS_H
#define COCOON_CREDENTIALS_IDS_H

#include <stddef.h>
#include <sys/types.h>

/* What failed; errno is kept where a call failed. */
enum ids_failure {
	IDS_OK,
	IDS_SETGROUPS,
	IDS_SETRESGID,
	IDS_SETRESUID,
	IDS_DUMPABLE,      /* PR_SET_DUMPABLE after the change */
	IDS_READ_BACK,     /* getresuid, getresgid or getgroups failed */
	IDS_NOT_SWITCHED,  /* an id read back is not the one asked for */
	IDS_GROUPS_DIFFER, /* the supplementary groups read back differ */
	IDS_ROOT_REGAINED, /* setuid(0) or setreuid(-1, 0) succeeded */
	IDS_GID0_REGAINED, /* setgid(0) succeeded */
};

/* setgroups(GROUPS), setresgid(GID), setresuid(UID), then not dumpable:
 * a credential change sets dumpable from fs.suid_dumpable, which an
 * administrator may have set to 1, while this process still holds the
 * caller's memory. Unchecked until ids_check. */
enum ids_failure ids_switch(uid_t uid, gid_t gid, size_t ngroups, const gid_t *groups);

/* The ids read back (real, effective, saved and fs ids, the groups as a
 * set), and root and gid 0 checked out of reach: what makes a switch
 * one-way. */
enum ids_failure ids_check(uid_t uid, gid_t gid, size_t ngroups, const gid_t *groups);

#endif
