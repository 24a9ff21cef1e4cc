// SPDX-License-Identifier: GPL-2.0-or-later
/* What more than one of cocoonctl's subcommands needs: the shared
 * options, printing findings, loading the policy, a user's plan. */
#ifndef COCOON_CTL_OPTIONS_H
#define COCOON_CTL_OPTIONS_H

#include <stdbool.h>

#include "error.h"
#include "identity.h"
#include "plan.h"
#include "policy.h"

#define DEFAULT_SERVICE "shell"

struct options {
	const char *config;
	const char *service;
	const char *user;
	const char *root;
	const char *sshd;
	const char *as;
	bool json, bwrap, pam, all;
	bool system; /* explain --all: every account, not only those that log in */
};

/* ALLOWED: the short codes of the options the command takes ("c" for
 * --config...). Returns the index of the first operand or -1 after
 * printing why. */
int parse_options(int argc, char **argv, struct options *o, const char *allowed);

/* To stderr, as file:line: level: message. */
void print_diags(const struct diag_list *diags);

/* Load the policy (config NULL: the system's) and collect its syntax
 * errors, validation findings and, with NAMES, the NSS name checks.
 * Returns -1 after printing why when it cannot be read at all. */
int load_checked(const char *config, bool names, struct policy *policy,
		 struct diag_list *diags);

/* The file a PAM stack's conf= names for the policy at PATH: a drop-in
 * is read with the system's cocoon.conf. */
const char *stack_policy_file(const char *path);

/* explain, run and check: a name service source could not be asked
 * (cocoonctl(8), EXIT STATUS), apart from 1's "no such user". */
#define EXIT_UNREACHABLE 3

/* The same for a candidate file as if installed at AS
 * (policy_load_candidate), with the name checks. Returns -2 when the
 * candidate cannot be read or AS is wrong, -1 when the installed policy
 * cannot, after printing why. */
int load_candidate_checked(const char *candidate, const char *as, struct policy *policy,
			   struct diag_list *diags);

#endif
