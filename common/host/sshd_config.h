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
/* Debian's ssh.service runs `sshd -D $SSHD_OPTS` from this file. */
#define COCOON_SSHD_DEFAULTS "/etc/default/ssh"

struct sshd_settings {
	bool use_pam;
	/* What sshd does beside the login shell, in its own process. */
	bool tcp_forwarding, streamlocal_forwarding, agent_forwarding;
	bool x11_forwarding, tunnel, internal_sftp;
	bool forwarding_disabled;
};

/* The -o options of sshd's command line (Debian's SSHD_OPTS, from
 * /etc/default/ssh), as words: "-o", "AcceptEnv=X", ... */
struct sshd_options {
	char **words;
	size_t count, cap;
	char *file; /* where they were read, and the line */
	int line;
};
/* Read SSHD_OPTS from FILE (missing: none). */
void sshd_options_read(const char *file, struct sshd_options *out);
void sshd_options_free(struct sshd_options *o);

/* Run `SSHD -T -f CONFIG -C user=USER,... [OPTIONS]` and keep the
 * settings above. Fails with sshd's own first line of complaint when it
 * will not say. */
int sshd_settings_read(const char *sshd, const char *config, const char *user,
		       const struct sshd_options *options, struct sshd_settings *out,
		       struct cc_error *err);

/* The first pattern of the sshd pattern list LIST ("LANG,LC_*") that can
 * admit a variable the session's allow-list drops (caller frees); NULL
 * when every one stays within it. Negated patterns only take away. */
char *sshd_unsafe_env_pattern(const char *list);

/* Every line of CONFIG, and of the files it includes, that sets KEYWORD
 * (any case), whatever Match block it stands in: VISIT gets its value,
 * file and line. ROOT (may be NULL) prefixes the included paths (check
 * --root). */
void sshd_config_each(const char *config, const char *root, const char *keyword,
		      void (*visit)(const char *value, const char *file, int line,
				    void *data),
		      void *data);

#endif
