// SPDX-License-Identifier: GPL-2.0-or-later
/* What `cocoonctl check` says of a policy beyond its language: names NSS
 * does not know, seccomp files that do not compile, limits no cgroup
 * hierarchy here can hold, rules pam_cocoon would refuse, and settings
 * that weaken or do nothing. Needs the host (NSS, the engine's checks),
 * so it sits above the engine, never on a login's path. */
#include "host_checks.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
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
	const struct directive *svc = section_find(s, D_SERVICE);
	if (svc && svc->nwords == 1 && strcmp(svc->words[0], "shell") == 0)
		return;
	for (size_t i = 0; i < plan->nops; i++)
		if (op_is_bind(plan->ops[i].type))
			plan->ops[i].source_user_writable =
				source_writable_symbolic(plan->ops[i].source);
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
			 home_mode_name(plan->home));
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
				   k < sizeof(sockets) / sizeof(sockets[0]); k++)
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
	section_title(s, title, sizeof(title));
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
		limit_store(d->spec->id, d->value.number, &l);
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
	if (!section_find(outer, D_SERVICE))
		return true;
	const struct directive *d = section_find(inner, D_SERVICE);
	if (!d)
		return false;
	for (size_t i = 0; i < d->nwords; i++)
		if (!section_allows_service(outer, d->words[i]))
			return false;
	return true;
}

/* getgrouplist cannot say that a name service backend (sssd, LDAP) was
 * down: it reports the groups it found, so a [group] rule quietly fails
 * to match and [default] takes the session, or no rule on a service
 * [default] does not list. */
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
			 "backend is down, its groups go missing without an error and "
			 "those users get in unconfined; confine by default and lift it "
			 "by rule instead", confined ? "does not cover every service"
			 : "leaves sessions unconfined", s->name);
		return;
	}
}

void policy_check_host(const struct policy *policy, struct diag_list *diags)
{
	check_group_fallback(policy, diags);
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind == SECTION_USER) {
			struct passwd *pw = getpwnam(s->name);
			if (!pw)
				diag_add(diags, DIAG_WARNING, s->file, s->line,
					 "user '%s' is not known to NSS", s->name);
			else if (pw->pw_uid == 0 && strcmp(s->name, "root") != 0)
				diag_add(diags, DIAG_ERROR, s->file, s->line,
					 "rules never apply to root: '%s' has uid 0", s->name);
		} else if (s->kind == SECTION_GROUP && !getgrnam(s->name)) {
			diag_add(diags, DIAG_WARNING, s->file, s->line,
				 "group '%s' is not known to NSS", s->name);
		}
		const struct directive *sc = section_find_last(s, D_SECCOMP);
		if (sc && strcmp(sc->words[0], "none") == 0)
			diag_add(diags, DIAG_WARNING, sc->file, sc->line,
				 "seccomp = none: sessions get no system call filter");
		for (size_t k = 0; k < s->ndirs; k++)
			if (s->dirs[k].spec->id == D_SECCOMP && s->dirs[k].words[0][0] == '/')
				check_seccomp_file(&s->dirs[k], diags);
		check_rule_plan(policy, s, diags);
		check_cgroup_limits(s, diags);
		const struct directive *nnp = section_find_last(s, D_NO_NEW_PRIVS);
		if (nnp && strcmp(nnp->words[0], "no") == 0)
			diag_add(diags, DIAG_WARNING, nnp->file, nnp->line,
				 "no-new-privs = no: only defence in depth is lost "
				 "(every mount is nosuid and the bounding set is empty), "
				 "and pam_cocoon then refuses a seccomp filter");
	}
}
