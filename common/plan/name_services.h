/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host's name-service daemons as the session reaches them: the
 * directories their clients (glibc's NSS modules) connect to or read,
 * planned as OP_NAME_SERVICE ops and opened safely for the bind. */
#ifndef COCOON_NAME_SERVICES_H
#define COCOON_NAME_SERVICES_H

#include <stddef.h>
#include <sys/types.h>

#include "plan.h"

/* Append an OP_NAME_SERVICE for each known endpoint the host has now
 * (name-services = auto), said to come from FILE:LINE. An endpoint is
 * left out where the plan already puts something at its path, or where
 * its path lies in a bind whose source a non-root user can write. */
void name_services_plan(struct plan *plan, const char *file, int line);

/* Open the endpoint PATH (O_PATH) for a bind: one component at a time
 * from /, never following a symlink, every directory on the way and the
 * endpoint itself owned by root or a system account (uid below UID_MIN)
 * other than USER, and writable by nobody else (a group-writable one
 * only by root's group). The descriptor is what gets bound, so nothing
 * can swap the path between the check and the mount. -1 with errno 0
 * and WHY when the endpoint is to be skipped (gone, a symlink, not a
 * directory, owned or writable by others); -1 with errno on an error. */
int name_service_open(const char *path, uid_t user, uid_t uid_min, char *why,
		      size_t len);

#endif
