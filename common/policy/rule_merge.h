/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of one merge, shared by rule_merge.c and guest.c (the
 * policy layer's own; callers use resolve.h). */
#ifndef COCOON_RULE_MERGE_H
#define COCOON_RULE_MERGE_H

#include "error.h"
#include "plan.h"
#include "policy.h"

#define MAX_PROFILE_DEPTH 16

/* Where each single-valued setting was last set, for error messages. */
struct place {
	const char *file;
	int line;
};

struct merge {
	const struct policy *policy;
	struct diag_list *diags;
	struct plan *plan;
	const struct section *stack[MAX_PROFILE_DEPTH];
	size_t depth;
	struct place hostname_at;
	struct place time_warnings_at; /* the last session-time-warnings */
	struct place home_at, private_tmp_at;
	struct place name_services_at; /* the last name-services line */
	struct place share_at, linger_at; /* the last share-sandbox, linger */
	struct place unshare_at; /* the last unshare */
};

/* `home` and `private-tmp` of a guest account, as ops (guest.c). */
void guest_plan_home(struct merge *m);
void guest_plan_private_tmp(struct merge *m);

#endif
