/* SPDX-License-Identifier: GPL-2.0-or-later */
/* From policy to plan: validate the whole policy, pick the rule for
 * (user, groups, service), merge its profiles and expand its tokens. */
#ifndef COCOON_RESOLVE_H
#define COCOON_RESOLVE_H

#include "error.h"
#include "identity.h"
#include "plan.h"
#include "policy.h"

/* Every structural and semantic error of the policy, each at file:line:
 * missing [default], unknown or cyclic profiles, rules without a profile,
 * namespaces a directive needs, creating inside user-writable binds. */
void policy_validate(const struct policy *policy, struct diag_list *diags);

/* Merge RULE (or a profile) with the profiles it includes, tokens left as
 * written. Errors and weakening warnings go to diags. */
void rule_merge(const struct policy *policy, const struct section *rule,
		struct plan *plan, struct diag_list *diags);

enum resolve_result {
	RESOLVE_ERROR = -1,
	RESOLVE_PLAN = 0,        /* plan filled (plan->sandboxed may be false) */
	RESOLVE_NOT_COVERED = 1, /* no rule covers this user and service */
};

/* The plan for WHO on SERVICE. A policy with any error never yields a
 * plan. uid 0 is refused: callers skip root before reading the policy. */
/* Whether POLICY has [group] rules, which need the account's groups. */
bool policy_needs_groups(const struct policy *policy);

enum resolve_result policy_resolve(const struct policy *policy,
				   const struct identity *who,
				   const char *service, uid_t uid_min,
				   struct plan *plan, struct cc_error *err);

#define COCOON_LOGIN_DEFS "/etc/login.defs"
#endif
