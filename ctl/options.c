// SPDX-License-Identifier: GPL-2.0-or-later
/* The helpers more than one cocoonctl subcommand uses (options.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "host_checks.h"
#include "options.h"
#include "resolve.h"
#include "util.h"

int parse_options(int argc, char **argv, struct options *o, const char *allowed)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "service", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "bwrap", no_argument, NULL, 'b' },
		{ "pam", no_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "sshd", required_argument, NULL, 'S' },
		{ "all", no_argument, NULL, 'a' },
		{ "system", no_argument, NULL, 'y' },
		{ "as", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == '?' || !strchr(allowed, c)) {
			if (c != '?')
				fprintf(stderr, "cocoonctl %s: option %s does not apply\n",
					argv[0], argv[optind - 1]);
			usage(stderr);
			return -1;
		}
		switch (c) {
		case 'c': o->config = optarg; break;
		case 's': o->service = optarg; break;
		case 'u': o->user = optarg; break;
		case 'j': o->json = true; break;
		case 'b': o->bwrap = true; break;
		case 'p': o->pam = true; break;
		case 'r': o->root = optarg; break;
		case 'S': o->sshd = optarg; break;
		case 'a': o->all = true; break;
		case 'y': o->system = true; break;
		case 'A': o->as = optarg; break;
		}
	}
	if (o->json && o->bwrap) {
		fprintf(stderr, "cocoonctl: --json and --bwrap exclude each other\n");
		return -1;
	}
	return optind;
}

void print_diags(const struct diag_list *diags)
{
	for (size_t i = 0; i < diags->count; i++) {
		const struct diag *d = &diags->items[i];
		const char *level = d->level == DIAG_ERROR ? "error" : "warning";
		if (d->file && d->line > 0)
			fprintf(stderr, "%s:%d: %s: %s\n", d->file, d->line, level, d->msg);
		else if (d->file)
			fprintf(stderr, "%s: %s: %s\n", d->file, level, d->msg);
		else
			fprintf(stderr, "%s: %s\n", level, d->msg);
	}
}

const char *stack_policy_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return path;
	char *dir AUTOFREE = xstrndup(path, (size_t)(slash - path));
	char *real AUTOFREE = realpath(*dir ? dir : "/", NULL);
	char *dropins AUTOFREE = realpath(COCOON_DROPIN_DIR, NULL);
	bool dropin = strcmp(dir, COCOON_DROPIN_DIR) == 0 ||
		      (real && dropins && strcmp(real, dropins) == 0);
	return dropin ? COCOON_POLICY_FILE : path;
}

/* What every load adds to the policy's own syntax errors; with NAMES,
 * the host's judgement of the policy at PATH, this host's PAM stacks
 * that run pam_cocoon on it read, and of its files' modes (CANDIDATE, a
 * copy not yet installed, aside). */
static void collect_findings(struct policy *policy, bool names, const char *path,
			     const char *candidate, struct diag_list *diags)
{
	for (size_t i = 0; i < policy->diags.count; i++) {
		const struct diag *d = &policy->diags.items[i];
		diag_add(diags, d->level, d->file, d->line, "%s", d->msg);
	}
	policy_validate(policy, diags);
	if (!names)
		return;
	struct pam_stack_services pam;
	pam_stack_policy_services(COCOON_PAM_DIR, stack_policy_file(path), COCOON_POLICY_FILE,
				  &pam);
	host_checks_policy(policy, &pam, diags);
	pam_stack_services_free(&pam);
	host_checks_file_modes(policy, candidate, diags);
}

int load_checked(const char *config, bool names, struct policy *policy,
		 struct diag_list *diags)
{
	struct cc_error err;
	if (policy_load(policy, config, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		policy_free(policy);
		return -1;
	}
	collect_findings(policy, names, config ? config : COCOON_POLICY_FILE, NULL, diags);
	return 0;
}

int load_candidate_checked(const char *candidate, const char *as, struct policy *policy,
			   struct diag_list *diags)
{
	struct cc_error err;
	int rc = policy_load_candidate(policy, candidate, as, &err);
	if (rc < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		policy_free(policy);
		return rc;
	}
	collect_findings(policy, true, as ? as : candidate, candidate, diags);
	return 0;
}
