// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl explain: the rule a user matches and the plan it gives. */
/* cocoonctl explain: the rule a user matches and the plan it gives, as
 * text, JSON or a bwrap command line; with --all, one line per account. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "landlock.h"
#include "options.h"
#include "plan_print.h"
#include "resolve.h"
#include "shells.h"

/* One line per NSS user: the rule it matches on the service, and what
 * that gives. */
static int explain_all(const struct options *o)
{
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	struct cc_error err;
	/* A broken policy would refuse everyone alike: say it once. */
	if (load_checked(o->config, false, &policy, &diags) < 0)
		return 1;
	size_t errors = diag_count(&diags, DIAG_ERROR);
	if (errors)
		print_diags(&diags);
	diag_free(&diags);
	if (errors) {
		policy_free(&policy);
		return 1;
	}
	const char *service = o->service ? o->service : DEFAULT_SERVICE;
	uid_t uid_min = identity_uid_min(COCOON_LOGIN_DEFS);
	size_t count = 0, cap = 0;
	char **names = NULL;
	struct passwd *pw;
	setpwent();
	while ((pw = getpwent()))
		*ARRAY_PUSH(names, count, cap) = xstrdup(pw->pw_name);
	endpwent();
	printf("%-16s %7s  %s %s\n", "USER", "UID", "ON SERVICE", service);
	for (size_t i = 0; i < count; i++) {
		struct identity who;
		struct plan plan;
		if (identity_lookup(names[i], GROUPS_NOW, &who, &err) < 0) {
			printf("%-16s %7s  lookup failed: %s\n", names[i], "?", err.msg);
			continue;
		}
		printf("%-16s %7u  ", who.user, (unsigned)who.uid);
		if (who.uid == 0) {
			printf("never sandboxed (root)\n");
			identity_free(&who);
			continue;
		}
		enum resolve_result r = policy_resolve(&policy, &who, service, uid_min,
							&plan, &err);
		if (r == RESOLVE_ERROR)
			printf("refused: %s\n", err.msg);
		else if (r == RESOLVE_NOT_COVERED) {
			printf("unconfined: no rule covers %s%s\n", service,
			       who.uid < uid_min ? " (a system account: only [user] rules "
			       "match)" : "");
		} else if (!plan.sandboxed) {
			printf("unconfined: sandbox = none, by %s\n", plan.rule);
		} else {
			printf("sandboxed by %s, profile %s, plan %s\n", plan.rule,
			       plan.profile ? plan.profile : "(none)", plan.hash);
		}
		plan_free(&plan);
		identity_free(&who);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	policy_free(&policy);
	return 0;
}

/* Which Landlock walls this kernel (ABI) raises for PLAN: the plan says
 * what it asks for, the kernel what it can give. */
static void describe_landlock(const struct plan *plan, int abi, struct strbuf *out)
{
	char scope[64];
	plan_landlock_scope_format(plan->landlock_scope, scope, sizeof(scope));
	if (abi < 2) {
		sb_addf(out, "this kernel: %s: no Landlock wall; %s\n",
			abi == 1 ? "Landlock ABI 1" : "no Landlock",
			plan->landlock_required ? "landlock = required refuses the session"
						: "the session runs without it");
	} else if (!(plan->landlock_scope & LL_SCOPE_ALL)) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall (no scope "
			"asked for)\n", abi);
	} else if (abi < LL_SCOPE_MIN_ABI) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall; the scope "
			"(%s) needs ABI %d (Linux 6.12) and is not applied\n", abi, scope,
			LL_SCOPE_MIN_ABI);
	} else {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall and the "
			"scope (%s)\n", abi, scope);
	}
}

int cmd_explain(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csjba");
	if (first < 0)
		return 2;
	if (o.all && (first != argc || o.json || o.bwrap)) {
		fprintf(stderr, "cocoonctl explain: --all takes no USER, --json or --bwrap\n");
		return 2;
	}
	if (o.all)
		return explain_all(&o);
	if (first != argc - 1) {
		usage(stderr);
		return 2;
	}
	struct plan plan;
	int rc = plan_or_exit(&o, argv[first], GROUPS_NOW, &plan);
	if (rc)
		return rc;
	struct strbuf out = { 0 };
	struct cc_error err;
	const char *shell;
	if (o.json) {
		plan_print_json(&plan, &out);
	} else if (o.bwrap) {
		if (plan_print_bwrap(&plan, &out, &err) < 0) {
			fprintf(stderr, "cocoonctl: %s\n", err.msg);
			sb_free(&out);
			rc = 1;
		} else if (!plan.command && shell_real(&plan, shell_service_is_cocoon_shell(plan.service),
							&shell, &err) < 0) {
			fprintf(stderr, "cocoonctl: %s\n", err.msg);
			sb_free(&out);
			rc = 1;
		} else {
			if (!plan.command) {
				sb_addf(&out, " ");
				sb_add_shell_word(&out, shell);
			}
			sb_addf(&out, "\n");
		}
	} else {
		plan_print_text(&plan, &out);
		if (plan.sandboxed)
			describe_landlock(&plan, landlock_abi(), &out);
	}
	if (out.data)
		fputs(out.data, stdout);
	sb_free(&out);
	plan_free(&plan);
	return rc;
}
