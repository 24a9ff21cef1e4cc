// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl check: the policy's findings, or the deployment's with --pam. */
/* cocoonctl check: the policy's errors and warnings, or a candidate
 * file's before it is installed; with --pam, the host's (or an image's)
 * PAM stacks, login shells and jobs beside it. Exits as visudo -c and
 * sshd -t do: 0 valid, 1 errors, 2 a wrong command line or a candidate
 * that cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "deployment.h"
#include "options.h"
#include "util.h"

/* What check --pam looked at, on standard output after the findings. */
static void print_summary(const struct deployment_paths *paths,
			  const struct deployment_summary *s)
{
	printf("inspected: %zu PAM service files in %s; %s%s\n", s->stacks, paths->pam_dir,
	       *s->confining ? "pam_cocoon confines " : "no stack confines with pam_cocoon",
	       s->confining);
	printf("inspected: %zu accounts (root aside), %zu with cocoon-shell as login "
	       "shell, %zu confined\n", s->accounts, s->shell_accounts, s->confined);
	if (s->sshd_read)
		printf("inspected: sshd configuration %s (with the files it includes) and %s\n",
		       paths->sshd_config, paths->sshd_defaults);
	else
		printf("inspected: sshd configuration %s not read (not there, or no "
		       "cocoon-shell account and no sshd stack naming pam_cocoon)\n",
		       paths->sshd_config);
}

/* check --pam: the PAM stacks, login shells and what runs outside
 * sessions, on this host or on the system image under ROOT. */
static void check_deployment(const char *root, const char *sshd, const char *policy_file,
			     const struct policy *policy, struct diag_list *diags,
			     struct deployment_summary *summary)
{
	struct deployment_paths paths;
	deployment_paths_default(&paths);
	paths.policy_file = policy_file;
	/* Another sshd (a second instance, a copy under another name): its
	 * PAM service is its file name, as OpenSSH before 9.8 takes it. */
	if (sshd)
		paths.sshd = sshd;
	/* shell_path stays as /etc/shells and passwd spell it. */
	/* sshd is this host's program, given the image's config. */
	const char **fields[] = { &paths.pam_dir, &paths.shells, &paths.crontabs,
				  &paths.atjobs, &paths.linger, &paths.sshd_config,
				  &paths.sshd_defaults };
	enum { NFIELDS = ARRAY_SIZE(fields) };
	char *owned[NFIELDS] = { 0 };
	for (size_t i = 0; root && i < NFIELDS; i++)
		*fields[i] = owned[i] = xasprintf("%s%s", root, *fields[i]);
	paths.root = root;
	deployment_check(&paths, policy, diags, summary);
	print_summary(&paths, summary);
	for (size_t i = 0; i < NFIELDS; i++)
		free(owned[i]);
}

int cmd_check(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "cprSA");
	if (first < 0)
		return 2;
	/* One candidate at most, never with --config; --as only with one. */
	const char *candidate = first == argc - 1 ? argv[first] : NULL;
	if (first < argc - 1 || (candidate && o.config) || (o.as && !candidate) ||
	    ((o.root || o.sshd) && !o.pam)) {
		usage(stderr);
		return 2;
	}
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	if (candidate) {
		int rc = load_candidate_checked(candidate, o.as, &policy, &diags);
		if (rc < 0)
			return rc == -2 ? 2 : 1;
	} else if (load_checked(o.config, true, &policy, &diags) < 0) {
		return 1;
	}
	struct deployment_summary summary = { 0 };
	if (o.pam)
		/* A candidate is not yet the file any stack names: every
		 * stack's refusals count for it. */
		check_deployment(o.root, o.sshd,
				 candidate ? NULL : stack_policy_file(o.config ? o.config
									 : COCOON_POLICY_FILE),
				 diag_count(&diags, DIAG_ERROR) ? NULL : &policy, &diags, &summary);
	deployment_summary_free(&summary);
	print_diags(&diags);
	size_t errors = diag_count(&diags, DIAG_ERROR);
	size_t warnings = diag_count(&diags, DIAG_WARNING);
	if (policy.embedded_only)
		printf("no policy file: the embedded default applies\n");
	size_t sections = 0;
	for (size_t i = 0; i < policy.nsections; i++)
		sections += !policy.sections[i].embedded;
	if (!errors)
		printf("policy OK (%zu file%s, %zu section%s, %zu warning%s)\n",
		       policy.nfiles, policy.nfiles == 1 ? "" : "s",
		       sections, sections == 1 ? "" : "s",
		       warnings, warnings == 1 ? "" : "s");
	/* Names a name service could not be asked for: the policy may be
	 * right, but it was not all checked (cocoonctl(8), EXIT STATUS). */
	size_t unreachable = diags.unreachable;
	diag_free(&diags);
	policy_free(&policy);
	return errors ? 1 : unreachable ? EXIT_UNREACHABLE : 0;
}
