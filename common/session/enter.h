/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a command inside a live session (cocoonctl enter), for support.
 *
 * The caller (root, on the host) has found the session with
 * record_attach and holds a pidfd of its pid 1. Everything that reads a
 * host file (NSS, the policy, the seccomp filter, the --root binary)
 * happens before entering. The command gets a fresh pty whose master the
 * caller relays to its own standard descriptors: nothing of the
 * administrator's terminal, descriptors or environment reaches the
 * session, and the processes on the way in are not dumpable. */
#ifndef COCOON_ENTER_H
#define COCOON_ENTER_H

#include "error.h"
#include "plan.h"

struct enter_request {
	int pidfd;               /* the session's pid 1 */
	unsigned namespaces;     /* the session's (enum ns_flag) */
	const struct plan *plan; /* the current plan, with the session's hash */
	char *const *argv;       /* the command */
	/* --root: an O_PATH descriptor of the host binary to run as root
	 * (no seccomp, no switch); -1: argv runs as plan->who under the
	 * plan's seccomp filter, no_new_privs and Landlock wall. */
	int root_binary;
	const char *term;        /* the caller's TERM when sane, or NULL */
	const char *shell;       /* the session's shell, for SHELL */
};

/* Enter, run the command, relay its terminal, wait. Returns 0 with
 * *status the command's (128+N when killed by signal N), or -1 with err
 * set when it could not be started. */
int session_enter(const struct enter_request *req, int *status,
		  struct cc_error *err);

#endif
