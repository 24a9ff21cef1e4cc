// SPDX-License-Identifier: GPL-2.0-or-later
/* The whole policy checked for errors of its own, at file:line. */
/* Checked: a [default] section, rules naming a profile, every section merged. */
#include "resolve.h"

#include <string.h>

#include "util.h"

/* Where to report what is missing from the whole policy: the last file
 * an administrator wrote. */
static const char *policy_main_file(const struct policy *policy)
{
	for (size_t i = policy->nsections; i-- > 0;)
		if (!policy->sections[i].embedded)
			return policy->sections[i].file;
	return policy->nfiles ? policy->files[policy->nfiles - 1] : COCOON_EMBEDDED_NAME;
}

/* A bind of /run/user (or the user's directory there, or below it) shows
 * the session the sockets of the user's systemd manager and session bus,
 * which run outside any sandbox: systemd-run --user or busctl --user from
 * inside would run the user's commands on the host. A policy choice (a
 * desktop session may want the bus), said aloud. */
static void check_user_manager_exposed(const struct section *s, struct diag_list *diags)
{
	for (size_t k = 0; k < s->ndirs; k++) {
		const struct directive *d = &s->dirs[k];
		enum directive_id id = d->spec->id;
		if (id != D_BIND && id != D_RO_BIND && id != D_DEV_BIND && id != D_BIND_TRY &&
		    id != D_RO_BIND_TRY && id != D_DEV_BIND_TRY)
			continue;
		const char *src = d->words[0];
		/* The directory, what is below it, or what holds it (/run, /). */
		if (!path_is_under(src, "/run/user") && !path_is_under("/run/user", src) &&
		    !path_is_under(src, "/var/run/user") && !path_is_under("/var/run/user", src))
			continue;
		diag_add(diags, DIAG_WARNING, d->file, d->line, "%s = %s shows the session the "
			 "sockets of the user's systemd manager and session bus, which run "
			 "outside any sandbox: systemd-run --user and busctl --user from inside "
			 "would start commands on the host", d->spec->name, src);
	}
}

void policy_validate(const struct policy *policy, struct diag_list *diags)
{
	size_t defaults = 0;
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		char title[300];
		defaults += s->kind == SECTION_DEFAULT;
		if (s->kind == SECTION_USER && strcmp(s->name, "root") == 0)
			diag_add(diags, DIAG_ERROR, s->file, s->line,
				 "rules never apply to root: remove [user root]");
		if (s->kind != SECTION_PROFILE && !policy_section_find(s, D_PROFILE) &&
		    !policy_section_find(s, D_SANDBOX))
			diag_add(diags, DIAG_ERROR, s->file, s->line,
				 "%s names no profile (add 'profile = NAME', or "
				 "'sandbox = none' to leave it unconfined)",
				 policy_section_title(s, title, sizeof(title)));
		check_user_manager_exposed(s, diags);
		/* Merge every section, used or not, so each error surfaces. */
		struct plan plan;
		plan_init(&plan);
		rule_merge(policy, s, &plan, diags);
		plan_free(&plan);
	}
	if (defaults == 0)
		diag_add(diags, DIAG_ERROR, policy_main_file(policy), 0,
			 "the policy has no [default] section (write one; "
			 "'sandbox = none' there makes unconfined the explicit choice)");
}
