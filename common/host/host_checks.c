// SPDX-License-Identifier: GPL-2.0-or-later
/* What `cocoonctl check` says of a policy on this host. */
/* What `cocoonctl check` says of a policy beyond its language: names NSS
 * does not know, seccomp files that do not compile, limits no cgroup
 * hierarchy here can hold, rules pam_cocoon would refuse, and settings
 * that weaken or do nothing. Needs the host (NSS, the engine's checks),
 * so it sits above the engine, never on a login's path. */
#include "host_checks.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "name_service.h"
#include "plan_check.h"
#include "plan_values.h"
#include "resolve.h"
#include "seccomp_filter.h"
#include "util.h"

/* A seccomp FILE is read when a session starts; check reads it now. */
static void check_seccomp_file(const struct directive *d, struct diag_list *diags)
{
	struct plan plan;
	struct cc_error err;
	plan_init(&plan);
	plan.seccomp = SECCOMP_FILE;
	plan.seccomp_file = xstrdup(d->words[0]);
	struct seccomp_filter *filter = seccomp_prepare(&plan, &err);
	if (filter)
		seccomp_filter_free(filter);
	else
		diag_add_once(diags, DIAG_ERROR, d->file, d->line, err.msg);
	plan_free(&plan);
}

/* What pam_cocoon would refuse, said at check time: a rule that any PAM
 * service may use (no service list, or one naming more than `shell`). */
static void check_service_mode(const struct section *s, struct plan *plan,
			       const char *title, struct diag_list *diags)
{
	const struct directive *svc = policy_section_find(s, D_SERVICE);
	if (svc && svc->nwords == 1 && strcmp(svc->words[0], "shell") == 0)
		return;
	for (size_t i = 0; i < plan->nops; i++)
		if (op_is_bind(plan->ops[i].type))
			plan->ops[i].source_user_writable =
				plan_source_writable_symbolic(plan->ops[i].source);
	struct cc_error err;
	if (plan->sandboxed && plan_check_service(plan, &err) < 0)
		diag_add(diags, DIAG_WARNING, s->file, s->line, "pam_cocoon would refuse "
			 "the sessions of %s: %s", title, err.msg);
}

static bool limits_set(const struct session_limits *l)
{
	for (size_t i = 0; i < RLIM_NLIMITS; i++)
		if (l->rlimit[i].set)
			return true;
	return l->max_session_time || l->memory_max || l->pids_max || l->cpu_max_percent;
}

/* Settings the rule's merged plan carries but its sessions never use:
 * an administrator reading the policy would expect them to hold. */
static void check_unused_settings(const struct section *s, const struct plan *plan,
				  const char *title, struct diag_list *diags)
{
	if (!plan->sandboxed && limits_set(&plan->limits))
		diag_add(diags, DIAG_WARNING, s->file, s->line, "%s: sandbox = none, so "
			 "its session limits (rlimit-*, max-session-time, memory-max, "
			 "pids-max, cpu-max) do not apply", title);
	else if (plan->sandboxed && plan->home_skel && plan->home != HOME_TMPFS)
		diag_add(diags, DIAG_WARNING, s->file, s->line, "%s: home-skel is used "
			 "only with home = tmpfs (its home is %s)", title,
			 plan_home_mode_name(plan->home));
}

/* A bind that brings the host's log sockets into the session: whatever
 * the user writes there passes for any service's line, cocoon's audit
 * records among them (pam_cocoon gives the service alone a /dev/log). */
static void check_log_sockets(const struct section *s, const struct plan *plan,
			      const char *title, struct diag_list *diags)
{
	static const char *const sockets[] = { "/dev/log", "/run/systemd/journal",
					       "/var/run/systemd/journal" };
	for (size_t i = 0; plan->sandboxed && i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		for (size_t k = 0; op_is_bind(op->type) && op->source &&
				   k < ARRAY_SIZE(sockets); k++)
			if (path_is_under(sockets[k], op->source) ||
			    path_is_under(op->source, sockets[k])) {
				diag_add(diags, DIAG_WARNING, s->file, s->line, "%s: the bind "
					 "of %s gives the session the host's log socket %s: "
					 "its users can write lines that pass for any "
					 "service's, cocoon's audit records among them",
					 title, op->source, sockets[k]);
				break;
			}
	}
}

/* The checks that need a rule's merged plan. */
static void check_rule_plan(const struct policy *policy, const struct section *s,
			    struct diag_list *diags)
{
	if (s->kind == SECTION_PROFILE)
		return;
	struct plan plan;
	struct diag_list ignored = { 0 };
	plan_init(&plan);
	rule_merge(policy, s, &plan, &ignored);
	diag_free(&ignored);
	char title[300];
	policy_section_title(s, title, sizeof(title));
	check_unused_settings(s, &plan, title, diags);
	check_log_sockets(s, &plan, title, diags);
	check_service_mode(s, &plan, title, diags);
	plan_free(&plan);
}

/* cgroup limits on a host without a hierarchy that can hold them:
 * every session they apply to would be refused. */
static void check_cgroup_limits(const struct section *s, struct diag_list *diags)
{
	for (size_t k = 0; k < s->ndirs; k++) {
		const struct directive *d = &s->dirs[k];
		struct session_limits l = { 0 };
		struct cc_error err;
		if (d->spec->id != D_MEMORY_MAX && d->spec->id != D_PIDS_MAX &&
		    d->spec->id != D_CPU_MAX)
			continue;
		directive_limit_store(d->spec->id, d->value.number, &l);
		if (cgroup_check_available(&l, &err) == 0)
			continue;
		diag_add(diags, DIAG_WARNING, d->file, d->line, "%s: %s; sessions "
			 "with it are refused", d->spec->name, err.msg);
	}
}

static bool rule_sandboxed(const struct policy *policy, const struct section *s)
{
	struct plan plan;
	struct diag_list ignored = { 0 };
	plan_init(&plan);
	rule_merge(policy, s, &plan, &ignored);
	diag_free(&ignored);
	bool sandboxed = plan.sandboxed;
	plan_free(&plan);
	return sandboxed;
}

/* Every service INNER's rule applies to, OUTER's does too. */
static bool services_cover(const struct section *outer, const struct section *inner)
{
	if (!policy_section_find(outer, D_SERVICE))
		return true;
	const struct directive *d = policy_section_find(inner, D_SERVICE);
	if (!d)
		return false;
	for (size_t i = 0; i < d->nwords; i++)
		if (!policy_section_allows_service(outer, d->words[i]))
			return false;
	return true;
}

/* A source that cannot be reached refuses the login (name_service), but
 * one that answers with fewer groups than it should (a stale cache)
 * makes a [group] rule quietly miss, and [default] takes the session, or
 * no rule on a service [default] does not list. */
static void check_group_fallback(const struct policy *policy, struct diag_list *diags)
{
	const struct section *fallback = NULL;
	for (size_t i = 0; i < policy->nsections; i++)
		if (policy->sections[i].kind == SECTION_DEFAULT)
			fallback = &policy->sections[i];
	if (!fallback)
		return;
	bool confined = rule_sandboxed(policy, fallback);
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind != SECTION_GROUP || !rule_sandboxed(policy, s) ||
		    (confined && services_cover(fallback, s)))
			continue;
		diag_add(diags, DIAG_WARNING, fallback->file, fallback->line,
			 "[default] %s while [group %s] confines: when a name service "
			 "answers with fewer groups than it should (a stale cache), "
			 "those users get in unconfined; confine by default and lift it "
			 "by rule instead", confined ? "does not cover every service"
			 : "leaves sessions unconfined", s->name);
		return;
	}
}

/* ---- The host's pty pool ---- */

/* What every devpts but the host's shares: kernel.pty.max less
 * kernel.pty.reserve. */
struct pty_pool {
	unsigned long long max, reserve, size;
	char says[96]; /* "3072 (kernel.pty.max 4096 - kernel.pty.reserve 1024)" */
};

static int read_number(const char *path, unsigned long long *out)
{
	FILE *f = fopen(path, "re");
	int rc = f && fscanf(f, "%llu", out) == 1 ? 0 : -1;
	if (f)
		fclose(f);
	return rc;
}

static bool pty_pool_read(struct pty_pool *pool)
{
	if (read_number("/proc/sys/kernel/pty/max", &pool->max) < 0 ||
	    read_number("/proc/sys/kernel/pty/reserve", &pool->reserve) < 0)
		return false;
	pool->size = pool->max > pool->reserve ? pool->max - pool->reserve : 0;
	snprintf(pool->says, sizeof(pool->says), "%llu (kernel.pty.max %llu - "
		 "kernel.pty.reserve %llu)", pool->size, pool->max, pool->reserve);
	return true;
}

/* A pty-max or pty-max-user that alone reaches past the pool. */
static void check_pty_directives(const struct section *s, const struct pty_pool *pool,
				 struct diag_list *diags)
{
	for (size_t k = 0; k < s->ndirs; k++) {
		const struct directive *d = &s->dirs[k];
		bool per_user = d->spec->id == D_PTY_MAX_USER;
		if (d->spec->id != D_PTY_MAX && !per_user)
			continue;
		if (per_user && !d->value.count)
			diag_add(diags, DIAG_WARNING, d->file, d->line, "pty-max-user = none: "
				 "the sessions of one user together can take this host's "
				 "whole pty pool of %s", pool->says);
		else if (d->value.count > pool->size)
			diag_add(diags, DIAG_WARNING, d->file, d->line, "%s = %u is above this "
				 "host's pty pool of %s: %s can take every pty that other "
				 "sessions and containers share", d->spec->name, d->value.count,
				 pool->says, per_user ? "one user's sessions" : "one session");
	}
}

/* The per-user totals of the accounts the policy confines, summed. An
 * account counts when it can log in (its login shell is in /etc/shells,
 * or is cocoon-shell) and a rule confines it on some service; it counts
 * for the largest pty-max-user of its rules on the services the policy
 * names, `shell` and any other (none: not summed, warned where it is
 * set). The warning goes to the rule counting for most of the sum. */
struct pty_tally {
	const char *rule; /* plan->rule of the rule, in plan */
	unsigned long long sum;
	size_t accounts;
};

static const struct section *section_of_rule(const struct policy *policy,
					     const char *rule)
{
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		char title[300], *name;
		name = xasprintf("%s at %s:%d", policy_section_title(s, title, sizeof(title)),
				 s->file, s->line);
		bool same = strcmp(name, rule) == 0;
		free(name);
		if (same)
			return s;
	}
	return NULL;
}

/* The largest per-user total WHO gets on any service: 0 when confined
 * on none, ~0 for none. Its rule into *rule (caller frees). */
static unsigned long long account_pty_total(const struct policy *policy,
					    const struct identity *who, uid_t uid_min,
					    char **services, size_t nservices, char **rule)
{
	unsigned long long worst = 0;
	*rule = NULL;
	for (size_t i = 0; i < nservices; i++) {
		struct plan plan;
		struct cc_error err;
		if (policy_resolve(policy, who, services[i], uid_min, &plan, &err) != RESOLVE_PLAN)
			continue;
		unsigned long long total = !plan.sandboxed ? 0 : plan.pty_max_user
						   ? plan.pty_max_user : ~0ULL;
		if (total > worst) {
			worst = total;
			free(*rule);
			*rule = xstrdup(plan.rule);
		}
		plan_free(&plan);
	}
	return worst;
}

static void check_pty_totals(const struct policy *policy, const struct pty_pool *pool,
			     struct diag_list *diags)
{
	size_t nservices = 0, cap = 0;
	char **services = NULL;
	*ARRAY_PUSH(services, nservices, cap) = xstrdup("shell");
	/* Not a word a policy can write: no rule's service list has it. */
	*ARRAY_PUSH(services, nservices, cap) = xstrdup("*");
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct directive *d = policy_section_find(&policy->sections[i], D_SERVICE);
		for (size_t w = 0; d && w < d->nwords; w++)
			*ARRAY_PUSH(services, nservices, cap) = xstrdup(d->words[w]);
	}
	uid_t uid_min = identity_uid_min(COCOON_LOGIN_DEFS);
	size_t naccounts = 0, acap = 0, ntally = 0, tcap = 0, counted = 0;
	char **names = NULL;
	struct pty_tally *tally = NULL;
	struct passwd *pw;
	setpwent();
	while ((pw = getpwent()))
		if (pw->pw_uid != 0 && pw->pw_shell &&
		    (shells_lists(COCOON_SHELLS_FILE, pw->pw_shell) ||
		     identity_is_cocoon_shell(pw->pw_shell, COCOON_SHELL_PATH)))
			*ARRAY_PUSH(names, naccounts, acap) = xstrdup(pw->pw_name);
	endpwent();
	unsigned long long sum = 0;
	for (size_t i = 0; i < naccounts; i++) {
		struct identity who;
		struct cc_error err;
		char *rule;
		if (identity_lookup(names[i], GROUPS_NOW, &who, &err) < 0)
			continue;
		unsigned long long total = account_pty_total(policy, &who, uid_min, services,
							     nservices, &rule);
		identity_free(&who);
		if (total && total != ~0ULL) {
			size_t t = 0;
			while (t < ntally && strcmp(tally[t].rule, rule) != 0)
				t++;
			if (t == ntally)
				*ARRAY_PUSH(tally, ntally, tcap) = (struct pty_tally){ xstrdup(rule), 0, 0 };
			tally[t].sum += total;
			tally[t].accounts++;
			sum += total;
			counted++;
		}
		free(rule);
	}
	size_t most = 0;
	for (size_t t = 1; t < ntally; t++)
		if (tally[t].sum > tally[most].sum)
			most = t;
	if (ntally && sum > pool->size) {
		const struct section *s = section_of_rule(policy, tally[most].rule);
		diag_add(diags, DIAG_WARNING, s ? s->file : NULL, s ? s->line : 0,
			 "the pty-max-user totals of the %zu accounts that can log in and "
			 "that the policy confines add up to %llu (%llu for %zu of them by "
			 "this rule), above this host's pty pool of %s: together they can "
			 "exhaust it; raise kernel.pty.max or lower pty-max-user", counted,
			 sum, tally[most].sum, tally[most].accounts, pool->says);
	}
	for (size_t t = 0; t < ntally; t++)
		free((char *)tally[t].rule);
	free(tally);
	for (size_t i = 0; i < naccounts; i++)
		free(names[i]);
	free(names);
	for (size_t i = 0; i < nservices; i++)
		free(services[i]);
	free(services);
}

/* The account or group a [user] or [group] rule names: unknown to every
 * source is a warning; a source that could not be asked says so, as a
 * warning counted apart (diags->unreachable), never "not known". */
static void check_rule_name(const struct section *s, struct diag_list *diags)
{
	bool user = s->kind == SECTION_USER;
	struct name_passwd entry;
	struct cc_error err;
	enum name_answer a = user ? name_service_user_by_name(s->name, &entry, &err)
				  : name_service_group_by_name(s->name, &err);
	if (a == NAME_FOUND && user) {
		if (entry.pw.pw_uid == 0 && strcmp(s->name, "root") != 0)
			diag_add(diags, DIAG_ERROR, s->file, s->line,
				 "rules never apply to root: '%s' has uid 0", s->name);
		name_service_passwd_free(&entry);
	} else if (a == NAME_NOT_FOUND) {
		diag_add(diags, DIAG_WARNING, s->file, s->line, "%s '%s' is not known to NSS",
			 user ? "user" : "group", s->name);
	} else if (a != NAME_FOUND) {
		diag_add(diags, DIAG_WARNING, s->file, s->line, "%s '%s': %s",
			 user ? "user" : "group", s->name, err.msg);
		diags->unreachable += a == NAME_UNREACHABLE;
	}
}

void host_checks_policy(const struct policy *policy, struct diag_list *diags)
{
	struct pty_pool pool;
	bool have_pool = pty_pool_read(&pool);
	check_group_fallback(policy, diags);
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind == SECTION_USER || s->kind == SECTION_GROUP)
			check_rule_name(s, diags);
		const struct directive *sc = policy_section_find_last(s, D_SECCOMP);
		if (sc && strcmp(sc->words[0], "none") == 0)
			diag_add(diags, DIAG_WARNING, sc->file, sc->line,
				 "seccomp = none: sessions get no system call filter");
		for (size_t k = 0; k < s->ndirs; k++)
			if (s->dirs[k].spec->id == D_SECCOMP && s->dirs[k].words[0][0] == '/')
				check_seccomp_file(&s->dirs[k], diags);
		check_rule_plan(policy, s, diags);
		check_cgroup_limits(s, diags);
		if (have_pool)
			check_pty_directives(s, &pool, diags);
		const struct directive *nnp = policy_section_find_last(s, D_NO_NEW_PRIVS);
		if (nnp && strcmp(nnp->words[0], "no") == 0)
			diag_add(diags, DIAG_WARNING, nnp->file, nnp->line,
				 "no-new-privs = no: only defence in depth is lost "
				 "(every mount is nosuid and the bounding set is empty), "
				 "and pam_cocoon then refuses a seccomp filter");
	}
	if (have_pool)
		check_pty_totals(policy, &pool, diags);
}
