/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sshd would do for one user, as `sshd -T` prints it, for
 * `cocoonctl check --pam`: sshd runs /bin/sh on the host with the user's
 * environment (~/.ssh/rc, /etc/ssh/sshrc, xauth) before a login shell such
 * as cocoon-shell starts, so where that environment comes from matters. */
#ifndef COCOON_SSHD_CONFIG_H
#define COCOON_SSHD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define COCOON_SSHD "/usr/sbin/sshd"
#define COCOON_SSHD_CONFIG "/etc/ssh/sshd_config"

struct sshd_settings {
	bool use_pam;
	char *permit_user_environment; /* "no", "yes" or a pattern list */
	char **accept_env;             /* AcceptEnv's patterns */
	size_t naccept_env, cap;
};

/* Run `SSHD -T -f CONFIG -C user=USER,...` and keep the settings above.
 * Fails with sshd's own first line of complaint when it will not say. */
int sshd_settings_read(const char *sshd, const char *config, const char *user,
		       struct sshd_settings *out, struct cc_error *err);
void sshd_settings_free(struct sshd_settings *s);

/* The first pattern of the sshd pattern list LIST ("LANG,LC_*") that can
 * admit a variable the session's allow-list drops (caller frees); NULL
 * when every one stays within it. Negated patterns only take away. */
char *sshd_unsafe_env_pattern(const char *list);

/* Where CONFIG, or a file it includes, first sets KEYWORD (any case),
 * with WORD among its values when WORD is not NULL: the file (caller
 * frees) and line. False when no line does (sshd's built-in default).
 * ROOT (may be NULL) prefixes the included paths (check --root). */
bool sshd_config_where(const char *config, const char *root, const char *keyword,
		       const char *word, char **file, int *line);

#endif
