/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's environment: a short allow-list from the caller, the
 * login variables set afresh, then the plan's setenv/unsetenv. The same
 * allow-list cuts a PAM session's environment (pam_cocoon). */
#ifndef COCOON_ENVIRONMENT_H
#define COCOON_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define COCOON_USER_PATH "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"

/* Whether the variable NAME (N bytes, not terminated there) is on the
 * allow-list of what a login carries in. */
bool environment_name_allowed(const char *name, size_t n);
/* Whether the "NAME=VALUE" ENTRY passes: an allowed name, and for the
 * locale variables and TZ a value that names no file of the user's. */
bool environment_entry_allowed(const char *entry);

/* A NULL-terminated environment for the session. caller_env: where the
 * allow-listed variables come from (may be NULL). shell: the value of
 * SHELL (the real shell, never cocoon-shell). */
char **environment_for_session(const struct plan *plan, char *const *caller_env,
			       const char *shell);
/* What turns an environment kept outside the process (PAM's: CURRENT,
 * "NAME=VALUE" entries) into the session's, as edits in order: "NAME"
 * removes, "NAME=VALUE" sets. First the cut (every name under CLEAR,
 * else those the allow-list refuses), then PLAN's setenv and unsetenv
 * (PLAN NULL: the cut alone), then COCOON_SESSION_ID (SESSION_ID NULL:
 * not set). Free with environment_free. */
char **environment_edits(const struct plan *plan, char *const *current, bool clear,
			 const char *session_id);
void environment_free(char **strv);

#endif
