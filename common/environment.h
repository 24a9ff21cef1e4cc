/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's environment: a short allow-list from the caller, the
 * login variables set afresh, then the plan's setenv/unsetenv. */
#ifndef COCOON_ENVIRONMENT_H
#define COCOON_ENVIRONMENT_H

#include "plan.h"

#define COCOON_USER_PATH "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"

/* A NULL-terminated environment for the session. caller_env: where the
 * allow-listed variables come from (may be NULL). shell: the value of
 * SHELL (the real shell, never cocoon-shell). */
char **session_environment(const struct plan *plan, char *const *caller_env,
			   const char *shell);
void strv_free(char **strv);

#endif
