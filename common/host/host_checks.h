/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A policy held against this host, for `cocoonctl check` (host_checks.c). */
#ifndef COCOON_HOST_CHECKS_H
#define COCOON_HOST_CHECKS_H

#include "error.h"
#include "pam_stack.h"
#include "policy.h"

/* Findings beyond policy_validate, each at file:line: rules naming users
 * or groups NSS does not know or root, a [default] that leaves [group]
 * rules' users unconfined when a name service is down, seccomp files that
 * do not compile, cgroup limits this host cannot hold, rules pam_cocoon
 * would refuse, settings that weaken the sandbox or do nothing. PAM: the
 * services whose stacks run pam_cocoon on this policy (NULL: none); a
 * rule it refuses on one of them is an error there, else a warning. */
void host_checks_policy(const struct policy *policy, const struct pam_stack_services *pam,
			struct diag_list *diags);

/* The policy's files that other users can read (mode & 044): sessions
 * that see the host's files would show their users every rule in them.
 * CANDIDATE (or NULL), a tool's copy not yet installed, is not judged. */
void host_checks_file_modes(const struct policy *policy, const char *candidate,
			    struct diag_list *diags);

/* Whether pam_cocoon would refuse the sessions of rule S (its merged
 * plan, sources judged as written): -1 with the module's reason in ERR;
 * 0 for a plan it runs, or one that does not sandbox. */
int host_checks_service_refusal(const struct policy *policy, const struct section *s,
				struct cc_error *err);

#endif
