/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How cocoon is deployed on this host, for `cocoonctl check --pam`: the
 * PAM stacks that name pam_cocoon.so, the users whose login shell is
 * cocoon-shell, and what starts a confined user's processes outside any
 * session. Findings go to a diag_list, like the policy's. */
#ifndef COCOON_DEPLOYMENT_H
#define COCOON_DEPLOYMENT_H

#include "error.h"
#include "pam_stack.h"
#include "policy.h"

struct deployment_paths {
	const char *pam_dir;     /* /etc/pam.d */
	const char *shells;      /* /etc/shells */
	const char *crontabs;    /* /var/spool/cron/crontabs */
	const char *atjobs;      /* /var/spool/cron/atjobs */
	const char *linger;      /* /var/lib/systemd/linger */
	const char *shell_path;  /* the installed cocoon-shell */
	const char *sshd;        /* this host's sshd binary, run for -T */
	const char *sshd_config; /* the config it is given */
	const char *sshd_defaults; /* /etc/default/ssh: SSHD_OPTS */
	const char *root;        /* the image's root (check --root), or NULL */
	/* The policy checked, as a stack's conf= names it (under root): a
	 * stack whose pam_cocoon reads another file does not refuse by its
	 * rules. NULL: every stack counts. */
	const char *policy_file;
};


/* What deployment_check looked at, for check --pam's summary. */
struct deployment_summary {
	size_t stacks;         /* service files read under pam_dir */
	char *confining;       /* "sshd, su": the services whose stack confines */
	size_t accounts;       /* NSS accounts considered, root aside */
	size_t shell_accounts; /* of them, with cocoon-shell as login shell */
	size_t confined;       /* of them, confined (by shell or by the policy) */
	bool sshd_read;        /* sshd's configuration and defaults were read */
};

/* The paths of this host (the build's cocoon-shell, Debian's spools). */
void deployment_paths_default(struct deployment_paths *paths);

/* Check every PAM service file under paths->pam_dir, then the users: a
 * confined user is one whose login shell is cocoon-shell or whom POLICY
 * sandboxes on a service whose stack names pam_cocoon.so. For accounts
 * whose login shell is cocoon-shell, also what sshd runs before the
 * shell: nothing the user chose may reach its environment. */
void deployment_check(const struct deployment_paths *paths,
		      const struct policy *policy, struct diag_list *diags,
		      struct deployment_summary *summary);
/* Free what the summary holds. */
void deployment_summary_free(struct deployment_summary *summary);

#endif
