// SPDX-License-Identifier: GPL-2.0-or-later
/* The rule for a session's user, groups and service, and its plan. */
/* The rule for a session: [user], then [group], then [default], by the
 * user, their groups and the service; the plan it yields. */
#include "resolve.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"
#include "trusted_file.h"
#include "util.h"

static void record_lost(struct plan *plan, const struct section *s, const char *why)
{
	char title[300];
	*ARRAY_PUSH(plan->lost, plan->nlost, plan->lost_cap) =
		xasprintf("%s at %s:%d: %s", policy_section_title(s, title, sizeof(title)),
			  s->file, s->line, why);
}

bool policy_needs_groups(const struct policy *policy)
{
	for (size_t i = 0; i < policy->nsections; i++)
		if (policy->sections[i].kind == SECTION_GROUP)
			return true;
	return false;
}

/* The winning rule, or NULL; the rules that lost go to plan->lost. */
static const struct section *match_rule(const struct policy *policy,
					const struct identity *who,
					const char *service, uid_t uid_min,
					struct plan *plan)
{
	const struct section *winner = NULL;
	bool system_account = who->uid < uid_min;
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind != SECTION_USER || strcmp(s->name, who->user) != 0)
			continue;
		if (!policy_section_allows_service(s, service))
			record_lost(plan, s, "its service list excludes this service");
		else if (!winner)
			winner = s;
	}
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind != SECTION_GROUP || !identity_in_group(who, s->name))
			continue;
		if (system_account)
			record_lost(plan, s, "system accounts (uid below UID_MIN) match "
				    "only [user] rules");
		else if (!policy_section_allows_service(s, service))
			record_lost(plan, s, "its service list excludes this service");
		else if (winner)
			record_lost(plan, s, winner->kind == SECTION_USER
				    ? "a [user] rule beats every [group] rule"
				    : "an earlier [group] rule matched first");
		else
			winner = s;
	}
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind != SECTION_DEFAULT)
			continue;
		if (system_account)
			record_lost(plan, s, "system accounts (uid below UID_MIN) match "
				    "only [user] rules");
		else if (!policy_section_allows_service(s, service))
			record_lost(plan, s, "its service list excludes this service");
		else if (winner)
			record_lost(plan, s, "[default] comes last");
		else
			winner = s;
	}
	return winner;
}

enum resolve_result policy_resolve(const struct policy *policy,
				   const struct identity *who,
				   const char *service, uid_t uid_min,
				   struct plan *plan, struct cc_error *err)
{
	plan_init(plan);
	if (who->uid == 0) {
		cc_fail(err, "root is never sandboxed");
		return RESOLVE_ERROR;
	}
	if (who->groups_later && policy_needs_groups(policy)) {
		cc_fail(err, "the policy has [group] rules and %s's groups were not "
			"looked up", who->user);
		return RESOLVE_ERROR;
	}
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < policy->diags.count; i++) {
		const struct diag *d = &policy->diags.items[i];
		diag_add(&diags, d->level, d->file, d->line, "%s", d->msg);
	}
	policy_validate(policy, &diags);
	if (diag_count(&diags, DIAG_ERROR)) {
		diag_first_error(&diags, err);
		size_t more = diag_count(&diags, DIAG_ERROR) - 1;
		if (more)
			snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg),
				 " (and %zu more error%s; run cocoonctl check)", more,
				 more == 1 ? "" : "s");
		diag_free(&diags);
		return RESOLVE_ERROR;
	}
	diag_free(&diags);

	identity_copy(&plan->who, who);
	plan->service = xstrdup(service);
	plan->uid_min = uid_min;
	const struct section *rule = match_rule(policy, who, service, uid_min, plan);
	if (!rule) {
		plan->sandboxed = false;
		return RESOLVE_NOT_COVERED;
	}
	char title[300];
	plan->rule = xasprintf("%s at %s:%d", policy_section_title(rule, title, sizeof(title)),
			       rule->file, rule->line);
	const struct directive *prof = policy_section_find(rule, D_PROFILE);
	if (prof)
		plan->profile = xstrdup(prof->words[0]);

	struct diag_list merge_diags = { 0 };
	rule_merge(policy, rule, plan, &merge_diags);
	int failed = diag_first_error(&merge_diags, err);
	diag_free(&merge_diags);
	if (failed < 0)
		return RESOLVE_ERROR;
	if (plan->sandboxed &&
	    (plan_expand(plan, who, err) < 0 || plan_check_expanded(plan, err) < 0))
		return RESOLVE_ERROR;
	if (plan->sandboxed && plan->seccomp == SECCOMP_FILE && plan->seccomp_file) {
		/* Unread, the build reads it again and refuses with why. */
		struct cc_error unread;
		if (read_trusted_file(plan->seccomp_file, SECCOMP_FILE_MAX, &plan->seccomp_text,
				      &plan->seccomp_text_len, &unread) < 0)
			plan->seccomp_text = NULL;
	}
	plan_hash(plan);
	return RESOLVE_PLAN;
}
