/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sources of the passwd, group and initgroups databases, read from
 * nsswitch.conf as glibc 2.36 reads it. */
#ifndef COCOON_NSSWITCH_H
#define COCOON_NSSWITCH_H

#include <nss.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define NSSWITCH_PATH "/etc/nsswitch.conf"

enum nsswitch_db { NSSWITCH_PASSWD, NSSWITCH_GROUP, NSSWITCH_INITGROUPS };
enum nsswitch_action { NSSWITCH_CONTINUE, NSSWITCH_RETURN, NSSWITCH_MERGE };

/* One source of a database line: "sss [NOTFOUND=return]". */
struct nsswitch_source {
	char *name;
	/* The action after each status, indexed by nsswitch_status_index. */
	enum nsswitch_action action[4];
};

struct nsswitch_sources {
	struct nsswitch_source *items;
	size_t count;
	/* The initgroups line itself (false: group's sources stand in for
	 * it). glibc then honours [SUCCESS=return]; it does not for group's. */
	bool initgroups_line;
};

/* The sources of DB in the file at PATH (NSSWITCH_PATH). As glibc: a
 * database without a line gets "files" (initgroups: group's sources), a
 * missing or unreadable file is an empty one, a line that is not
 * "name: sources" or names another database is skipped, and the last
 * line of a database wins. A criterion glibc cannot parse ("[FOO=return]")
 * is an error here: glibc then drops the whole file's configuration. */
int nsswitch_read(const char *path, enum nsswitch_db db, struct nsswitch_sources *out,
		  struct cc_error *err);
/* STATUS (NSS_STATUS_TRYAGAIN .. NSS_STATUS_SUCCESS) as an index of action[]. */
size_t nsswitch_status_index(enum nss_status status);
enum nsswitch_action nsswitch_action_after(const struct nsswitch_source *src,
					   enum nss_status status);
void nsswitch_free(struct nsswitch_sources *sources);

#endif
