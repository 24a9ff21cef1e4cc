/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who a session is for: resolved through NSS once, before any sandbox is
 * built, so nothing privileged looks users up afterwards. */
#ifndef COCOON_IDENTITY_H
#define COCOON_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

struct identity {
	char *user;
	uid_t uid;
	gid_t gid;
	char *group; /* primary group name (the gid as text when unnamed) */
	char *home;
	char *login_shell; /* the passwd entry's shell */
	gid_t *groups;     /* supplementary groups, primary included */
	char **group_names;
	size_t ngroups;
};

/* Look USER up (name or numeric uid) with NSS, groups included. */
int identity_lookup(const char *user, struct identity *who,
		    struct cc_error *err);
/* Same for a uid (cocoon-shell's real uid). */
int identity_lookup_uid(uid_t uid, struct identity *who, struct cc_error *err);
bool identity_in_group(const struct identity *who, const char *group);
void identity_copy(struct identity *dst, const struct identity *src);
void identity_free(struct identity *who);

/* UID_MIN from login.defs (1000 when absent). */
uid_t login_defs_uid_min(const char *login_defs_path);

#endif
