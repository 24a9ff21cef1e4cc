/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cgroup of the session's own, for memory-max, pids-max and cpu-max:
 * cocoon/<session-id> under the root of a writable cgroup v2 hierarchy,
 * else under each cgroup v1 hierarchy of a controller it needs. Being
 * outside the service's cgroup, the session cannot use up the service's
 * limits (sshd's TasksMax, say). */
#ifndef COCOON_CGROUP_H
#define COCOON_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

struct cgroup;

/* Create the session's cgroup with the limits. *out is NULL when the
 * limits need none. ID names it (NULL: a random one). On failure nothing
 * is left. */
int cgroup_create(const struct session_limits *limits, const char *id,
		  struct cgroup **out, struct cc_error *err);
/* Move the calling process in; safe in a raw clone's child (no
 * allocation: the descriptors were opened by cgroup_create). Closes them
 * in this process afterwards. */
int cgroup_enter_self(struct cgroup *cg, struct cc_error *err);
/* Close this process's copies of the cgroup.procs descriptors: a root-
 * opened one lets whoever inherits it move processes in (cgroup v2 checks
 * the opener). Every process that holds them calls this, or enter. */
void cgroup_close_procs(struct cgroup *cg);
/* The calling process back to the cgroups it was in at cgroup_create
 * (only in the process that created it; idempotent). */
int cgroup_leave(struct cgroup *cg, struct cc_error *err);
/* In the creating process: leave, kill what is still inside, wait for
 * it to empty (briefly) and remove the cgroup. In any process: free.
 * NULL is fine. */
void cgroup_destroy(struct cgroup *cg);
/* Free CG, leaving the cgroup and what is in it (a shared sandbox's,
 * which its pid 1 ends). NULL is fine. */
void cgroup_release(struct cgroup *cg);
/* Remove the cgroups named ID that an ended session left, if empty (a
 * shared sandbox's: nobody waited for its end). */
void cgroup_remove_left(const char *id);
/* Send SIG to every process in the cgroup (its first hierarchy), each
 * checked to be inside once a pidfd holds it. NULL is fine. */
void cgroup_signal(const struct cgroup *cg, int sig);
/* Whether CG lists the session's processes, so that cgroup_signal
 * reaches them. NULL is fine (false). */
bool cgroup_holds(const struct cgroup *cg);
/* Move the calling process into the cgroups the session's pid 1 (PIDFD)
 * is in, where limits can bound it: those cgroup_create made, or, under
 * systemd, the logind session's scope (pam_cocoon). A hierarchy's root is
 * left alone. */
int cgroup_join_pidfd(int pidfd, struct cc_error *err);
/* The calling process's cgroups (its /proc/self/cgroup; NULL: unknown),
 * and the way back into them after cgroup_join_pidfd (NULL: stay). */
char *cgroup_self(void);
int cgroup_return(const char *origin, struct cc_error *err);
/* Whether the limits could be applied here; else -1 and why. */
int cgroup_check_available(const struct session_limits *limits,
			   struct cc_error *err);
/* The host runs systemd (which then owns the cgroup tree). */
bool cgroup_under_systemd(void);
/* Under systemd: whether the cgroup v2 hierarchy mounted at MOUNT bounds
 * the process whose cgroup file (PROC_CGROUP, /proc/self/cgroup) it reads
 * by the limits' memory-max and pids-max, on its own cgroup or an
 * ancestor's; -1 with what is missing otherwise (pam_systemd made no
 * scope, or made it without them). */
int cgroup_check_applied(const struct session_limits *limits, const char *mount,
			 const char *proc_cgroup, struct cc_error *err);

#endif
