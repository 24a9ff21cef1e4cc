/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which shell a login runs: the one rule every entry point (pam_cocoon,
 * cocoon-shell, cocoonctl enter and explain) takes its answer from. */
#ifndef COCOON_SHELLS_H
#define COCOON_SHELLS_H

#include <stdbool.h>

#include "error.h"
#include "plan.h"

/* The service name of cocoon-shell's logins. */
#define SHELL_SERVICE "shell"

/* The login shell as a path: LOGIN_SHELL (the passwd entry's) when it is
 * absolute, else /bin/sh, as login and sshd run it. */
const char *shell_login_path(const char *login_shell);

/* Whether a session of SERVICE, outside PAM, was started by cocoon-shell:
 * its logins resolve the policy for service `shell`. A PAM service may
 * carry any name, that one included, so pam_cocoon never asks. */
bool shell_service_is_cocoon_shell(const char *service);

/* The real shell of PLAN's login: the plan's `shell`; else the login
 * shell (cocoon-shell when BY_COCOON_SHELL, else the account's);
 * cocoon-shell stands for /bin/bash when it is executable on the host,
 * else /bin/sh. A real shell that is cocoon-shell would start it again
 * inside the sandbox: refused. The answer points into PLAN or static
 * storage. */
int shell_real(const struct plan *plan, bool by_cocoon_shell, const char **shell,
	       struct cc_error *err);

#endif
