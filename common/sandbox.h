/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine: execute a plan. Runs as root; builds the namespaces and the
 * new root, starts cocoon-init as pid 1, switches to the user and execs
 * the command. */
#ifndef COCOON_SANDBOX_H
#define COCOON_SANDBOX_H

#include <sys/resource.h>

#include "error.h"
#include "plan.h"

struct sandbox_request {
	const struct plan *plan;
	const char *path;    /* executable to run inside the sandbox */
	char *const *argv;   /* its argv (argv[0] may start with '-') */
	char *const *envp;   /* its complete environment */
	const char *init_path; /* cocoon-init on the host */
	/* When set (RLIM_NLIMITS entries), applied to the session process
	 * just before exec: the caller's own limits, which a setuid entry
	 * point replaced with known ones for its privileged work. */
	const struct rlimit *session_rlimits;
};

/* Build the sandbox, run the command in it and wait for it. On success
 * returns 0 with *status the command's exit status (128+N when killed by
 * signal N); nothing of the sandbox remains afterwards. On failure returns
 * -1 with err set and nothing half-built left behind. */
int sandbox_run(const struct sandbox_request *req, int *status,
		struct cc_error *err);

#endif
