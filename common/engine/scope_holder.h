/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A process left in logind's session scope while a login of a shared
 * sandbox runs elsewhere under systemd (cocoon.conf(5), Shared
 * sandboxes). */
#ifndef COCOON_SCOPE_HOLDER_H
#define COCOON_SCOPE_HOLDER_H

#include "error.h"

/* Start the holder in the calling process's cgroup: nobody's child the
 * caller could wait for, in a session of its own, holding no descriptor
 * but a pidfd of the caller, whose end ends it. Returns a pidfd of the
 * holder (close-on-exec), or -1 with ERR set. */
int scope_holder_start(struct cc_error *err);

/* Kill the holder and close its pidfd (-1: nothing; sets *PIDFD to -1). */
void scope_holder_end(int *pidfd);

#endif
