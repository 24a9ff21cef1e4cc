// SPDX-License-Identifier: GPL-2.0-or-later
/* What `cocoonctl check` says of a policy on this host. */
/* What `cocoonctl check` says of a policy beyond its language: names NSS
 * does not know, seccomp files that do not compile, limits no cgroup
 * hierarchy here can hold, rules pam_cocoon would refuse, and settings
 * that weaken or do nothing. Needs the host (NSS, the engine's checks),
 * so it sits above the engine, never on a login's path. */
#include "host_checks.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup.h"
#include "credentials.h"
#include "home.h"
#include "mount_tree.h"
#include "name_service.h"
#include "plan_check.h"
#include "plan_values.h"
#include "resolve.h"
#include "seccomp_filter.h"
#include "syscalls.h"
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

/* S merged with its profiles, as check_rule_plan and the others judge
 * it; the merge's own errors are policy_validate's to report. */
static void merged_plan(const struct policy *policy, const struct section *s,
			struct plan *plan)
{
	struct diag_list ignored = { 0 };
	plan_init(plan);
	rule_merge(policy, s, plan, &ignored);
	diag_free(&ignored);
}

/* pam_cocoon's own judgement of PLAN, its sources judged as written. */
static int plan_service_refusal(struct plan *plan, struct cc_error *err)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (op_is_bind(plan->ops[i].type))
			plan->ops[i].source_user_writable =
				plan_source_writable_symbolic(plan->ops[i].source);
	return plan->sandboxed ? plan_check_service(plan, err) : 0;
}

int host_checks_service_refusal(const struct policy *policy, const struct section *s,
				struct cc_error *err)
{
	struct plan plan;
	merged_plan(policy, s, &plan);
	int rc = plan_service_refusal(&plan, err);
	plan_free(&plan);
	return rc;
}

/* The first of the PAM services that run pam_cocoon on this policy (see
 * pam_stack_policy_services) that rule S applies to, or NULL. */
static const struct pam_stack_service *pam_service_of(const struct section *s,
							const struct pam_stack_services *pam)
{
	for (size_t i = 0; pam && i < pam->count; i++)
		if (policy_section_allows_service(s, pam->items[i].service))
			return &pam->items[i];
	return NULL;
}

/* What pam_cocoon would refuse, said at check time: an error where a
 * service's stack here runs the module on this policy and the rule
 * applies to it; elsewhere a warning, for a rule any PAM service may use
 * (no service list, or one naming more than `shell`). */
static void check_service_mode(const struct section *s, struct plan *plan,
			       const char *title, const struct pam_stack_services *pam,
			       struct diag_list *diags)
{
	const struct directive *svc = policy_section_find(s, D_SERVICE);
	if (svc && svc->nwords == 1 && strcmp(svc->words[0], "shell") == 0)
		return;
	struct cc_error err;
	if (plan_service_refusal(plan, &err) == 0)
		return;
	const struct pam_stack_service *on = pam_service_of(s, pam);
	if (on)
		diag_add(diags, DIAG_ERROR, s->file, s->line, "%s: pam_cocoon refuses its "
			 "sessions on service %s (%s:%d runs it on this policy): %s",
			 title, on->service, on->file, on->line, err.msg);
	else
		diag_add(diags, DIAG_WARNING, s->file, s->line, "pam_cocoon would refuse "
			 "the sessions of %s: %s (no PAM stack here runs it on this "
			 "policy for them)", title, err.msg);
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
	if (!plan->sandboxed && (plan->share || plan->linger != LINGER_NO))
		diag_add(diags, DIAG_WARNING, s->file, s->line, "%s: sandbox = none, so "
			 "share-sandbox and linger do not apply", title);
	if (plan->sandboxed && plan->home_skel && plan->home != HOME_TMPFS)
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

/* ---- What refuses every login of a plan on this host ---- */

/* The last directive ID a merge of S applies, its profiles expanded
 * where they are named, as rule_merge applies them (a cycle, which the
 * merge reports, ends at this depth). */
#define PROFILE_WALK_DEPTH 32
static const struct directive *last_applied(const struct policy *policy,
					    const struct section *s,
					    enum directive_id id, int depth)
{
	const struct directive *last = NULL;
	for (size_t k = 0; depth < PROFILE_WALK_DEPTH && k < s->ndirs; k++) {
		const struct directive *d = &s->dirs[k];
		const struct section *p;
		if (d->spec->id == id)
			last = d;
		else if (d->spec->id == D_PROFILE &&
			 (p = policy_find_profile(policy, d->words[0])))
			last = last_applied(policy, p, id, depth + 1) ?: last;
	}
	return last;
}

/* The engine mounts a bind's source as root, as the host resolves it,
 * or, when a non-root user can write it, opens it as the user refusing
 * every symlink (mounts.c): a source missing, or one of the user's that
 * a symlink leads to, refuses every login of the plan unless the bind
 * is a -try form; pam_cocoon also refuses a source a non-root user can
 * write over a system path a root service reads (plan_check_service:
 * an error of the rule where a stack here runs it, check_service_mode).
 * A source with tokens is the account's: judged here expanded for a
 * [user] rule's account (WHO, its source as written in WRITTEN), and
 * only what refuses the login is said of it; for other rules at the
 * login only. */
static void check_bind_source(const struct fs_op *op, const char *who, const char *written,
			      struct diag_list *diags)
{
	char what[2 * PATH_MAX + 32], msg[4 * PATH_MAX], source[2 * PATH_MAX + 64];
	struct stat st;
	if (strchr(op->source, '%'))
		return;
	plan_op_describe(op, what, sizeof(what));
	if (who)
		snprintf(source, sizeof(source), "%s (%s for user %s)", op->source, written, who);
	else
		snprintf(source, sizeof(source), "%s", op->source);
	if (stat(op->source, &st) < 0) {
		if (op->optional && errno == ENOENT)
			return;
		snprintf(msg, sizeof(msg), "%s: the source %s: %s, so every login "
			 "this bind applies to is refused%s", what, source,
			 strerror(errno), op->optional ? "" : " (create it, or use "
			 "the -try form to skip a missing source)");
		diag_add_once(diags, DIAG_ERROR, op->file, op->line, msg);
		return;
	}
	if (!plan_path_user_writable(op->source))
		return;
	int fd AUTOCLOSE = sys_openat2(AT_FDCWD, op->source, O_PATH | O_CLOEXEC,
				       RESOLVE_SAFE);
	const char *sp = plan_op_service_path(op);
	if (fd < 0)
		snprintf(msg, sizeof(msg), "%s: a non-root user can write the source %s, "
			 "so the session opens it as its user refusing every symlink, "
			 "and that fails (%s): every login this bind applies to is "
			 "refused", what, source, strerror(errno));
	else if (who)
		return;
	else if (sp)
		snprintf(msg, sizeof(msg), "%s: a non-root user can write the source %s, "
			 "over %s, which pam_cocoon's root service process reads: "
			 "pam_cocoon refuses the sessions this bind applies to (cocoon-shell "
			 "and cocoonctl run take them)", what, source, sp);
	else
		snprintf(msg, sizeof(msg), "%s: a non-root user can write the source %s: "
			 "sessions open it as their user, refusing symlinks (one who "
			 "cannot reach it is refused)", what, source);
	diag_add_once(diags, fd < 0 ? DIAG_ERROR : DIAG_WARNING, op->file, op->line, msg);
}

/* A source a non-root user can write, opened as the [user] rule's
 * account WHO, as the engine opens it (its fsuid, fsgid and groups,
 * refusing symlinks): one the account cannot reach refuses its every
 * login. Root's groups would open what a group of root's allows and the
 * user's do not, and miss what only the user's allow. */
static void check_bind_as_user(const struct fs_op *op, const struct identity *who,
			       struct diag_list *diags)
{
	struct cc_error err;
	/* A source missing, or one a symlink leads to, is check_bind_source's. */
	int as_root AUTOCLOSE = sys_openat2(AT_FDCWD, op->source, O_PATH | O_CLOEXEC,
					    RESOLVE_SAFE);
	struct creds_saved saved;
	if (as_root < 0 || !plan_path_user_writable(op->source))
		return;
	char what[2 * PATH_MAX + 32], msg[4 * PATH_MAX];
	plan_op_describe(op, what, sizeof(what));
	if (creds_open_as_user(who, &saved, &err) < 0) {
		snprintf(msg, sizeof(msg), "%s: the source %s could not be opened as user "
			 "%s to check it: %s", what, op->source, who->user, err.msg);
		diag_add_once(diags, DIAG_WARNING, op->file, op->line, msg);
		return;
	}
	int fd AUTOCLOSE = sys_openat2(AT_FDCWD, op->source, O_PATH | O_CLOEXEC,
				       RESOLVE_SAFE);
	int e = errno;
	if (creds_open_as_root(&saved, &err) < 0) {
		/* Never judged on as another uid: root's fsuid is back or nothing. */
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		abort();
	}
	if (fd >= 0)
		return;
	snprintf(msg, sizeof(msg), "%s: a non-root user can write the source %s, so the "
		 "session opens it as user %s refusing every symlink, and that fails "
		 "(%s): every login of the rule is refused", what, op->source, who->user,
		 strerror(e));
	diag_add_once(diags, DIAG_ERROR, op->file, op->line, msg);
}

/* A tmpfs home is seeded from its skeleton, which the engine opens and
 * trusts by home_skel_open: the same judgement, at the home-skel line
 * (or home =, for the default skeleton). */
static void check_home_skel(const struct policy *policy, const struct section *s,
			    const struct fs_op *op, struct diag_list *diags)
{
	struct cc_error err;
	int fd AUTOCLOSE = home_skel_open(op->source, &err);
	if (fd >= 0)
		return;
	const struct directive *d = last_applied(policy, s, D_HOME_SKEL, 0);
	char msg[sizeof(err.msg) + 80];
	snprintf(msg, sizeof(msg), "%s: every login with home = tmpfs is refused", err.msg);
	diag_add_once(diags, DIAG_ERROR, d ? d->file : op->file, d ? d->line : op->line, msg);
}

/* What PATH inside the sandbox is on the host, by the plan's ops: the
 * last op mounted at or above it covers what came before, a symlink op
 * is followed. */
enum sandbox_path { SANDBOX_PATH_HOST, SANDBOX_PATH_NOTHING, SANDBOX_PATH_UNJUDGED };

static enum sandbox_path sandbox_path_on_host(const struct plan *plan, const char *path,
					      char **host)
{
	char *cur = xstrdup(path);
	enum sandbox_path rc = SANDBOX_PATH_UNJUDGED;
	for (int hops = 0; hops < 40; hops++) {
		const struct fs_op *top = NULL;
		for (size_t i = 0; i < plan->nops; i++) {
			const struct fs_op *op = &plan->ops[i];
			/* A dir or file made inside a mount hides nothing below it. */
			bool node = op->type == OP_DIR || op->type == OP_FILE;
			if (op->type != OP_REMOUNT_RO && op->type != OP_CHMOD &&
			    (node ? strcmp(op->dest, cur) == 0 : path_is_under(cur, op->dest)))
				top = op;
		}
		const char *rest = top ? cur + (strcmp(top->dest, "/") == 0 ? 0
						 : strlen(top->dest)) : NULL;
		if (!top || top->type == OP_TMPFS || top->type == OP_DIR ||
		    (top->type == OP_PRIVATE_TMP && !top->source)) {
			rc = SANDBOX_PATH_NOTHING;
		} else if ((op_is_bind(top->type) || top->type == OP_NAME_SERVICE) &&
			   !strchr(top->source, '%')) {
			*host = xasprintf("%s%s", strcmp(top->source, "/") == 0 && *rest ? ""
					  : top->source, rest);
			rc = SANDBOX_PATH_HOST;
		} else if (top->type == OP_SYMLINK && !strstr(top->source, "..")) {
			const char *slash = strrchr(top->dest, '/');
			char *next = top->source[0] == '/'
				? xasprintf("%s%s", top->source, rest)
				: xasprintf("%.*s/%s%s", (int)(slash - top->dest), top->dest,
					    top->source, rest);
			free(cur);
			cur = next;
			continue;
		}
		break;
	}
	free(cur);
	return rc;
}

/* `command` and `shell` are exec'd inside the sandbox (session_setup.c,
 * cocoon-launch): the file must be there, a regular file with an
 * execute bit. Judged through the plan's binds; a path with tokens, or
 * below a tmpfs home, an overlay or a persistent /tmp, is not. */
static void check_program(const struct policy *policy, const struct section *s,
			  const struct plan *plan, enum directive_id id, const char *path,
			  struct diag_list *diags)
{
	char *host = NULL;
	struct stat st;
	const char *why = NULL;
	if (!path || strchr(path, '%'))
		return;
	switch (sandbox_path_on_host(plan, path, &host)) {
	case SANDBOX_PATH_UNJUDGED:
		return;
	case SANDBOX_PATH_NOTHING:
		why = "the sandbox has nothing there (no bind covers it)";
		break;
	case SANDBOX_PATH_HOST:
		if (stat(host, &st) < 0)
			why = strerror(errno);
		else if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111))
			why = "not an executable file";
		break;
	}
	if (why) {
		const struct directive *d = last_applied(policy, s, id, 0);
		char msg[2 * PATH_MAX + 256];
		if (host && strcmp(host, path) != 0)
			snprintf(msg, sizeof(msg), "%s %s (%s on the host): %s, so every "
				 "login with it is refused", id == D_COMMAND ? "command" :
				 "shell", path, host, why);
		else
			snprintf(msg, sizeof(msg), "%s %s: %s, so every login with it is "
				 "refused", id == D_COMMAND ? "command" : "shell", path, why);
		diag_add_once(diags, DIAG_ERROR, d ? d->file : s->file, d ? d->line : s->line,
			      msg);
	}
	free(host);
}

static bool profile_named(const struct policy *policy, const struct section *profile)
{
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		for (size_t k = 0; k < s->ndirs; k++)
			if (s->dirs[k].spec->id == D_PROFILE &&
			    strcmp(s->dirs[k].words[0], profile->name) == 0)
				return true;
	}
	return false;
}

/* Each section's merged plan, profiles too: a bind, skeleton, command or
 * shell that would refuse every login it applies to, at its line (once
 * however many rules share it). A profile's command and shell are judged
 * in the rules that name it, with their binds; alone when none does. */
static void check_refusals(const struct policy *policy, const struct section *s,
			   const struct plan *plan, struct diag_list *diags)
{
	if (!plan->sandboxed)
		return;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (op_is_bind(op->type))
			check_bind_source(op, NULL, NULL, diags);
		else if (op->type == OP_HOME_TMPFS)
			check_home_skel(policy, s, op, diags);
	}
	if (s->kind == SECTION_PROFILE && profile_named(policy, s))
		return;
	check_program(policy, s, plan, D_COMMAND, plan->command ? plan->command[0] : NULL,
		      diags);
	check_program(policy, s, plan, D_SHELL, plan->shell, diags);
}

/* A [user] rule's binds, command and shell, expanded for its account by
 * the engine's own expansion (plan_expand), as its logins get them: a
 * source, command or shell with tokens judged as a plain path, and a
 * source a non-root user can write opened as the account. What refuses
 * them is an error at its directive's line. An account NSS does not
 * give is check_rule_name's to report. */
static void check_user_rule(const struct policy *policy, const struct section *s,
			    const struct plan *written, struct diag_list *diags)
{
	const char *command = written->command ? written->command[0] : NULL;
	bool command_tokens = command && strchr(command, '%');
	bool shell_tokens = written->shell && strchr(written->shell, '%');
	bool judge = command_tokens || shell_tokens;
	for (size_t i = 0; i < written->nops; i++)
		judge |= op_is_bind(written->ops[i].type) &&
			 plan_source_writable_symbolic(written->ops[i].source);
	struct identity who;
	struct cc_error err;
	if (!judge || identity_lookup(s->name, GROUPS_NOW, &who, &err) < 0)
		return;
	struct plan plan;
	merged_plan(policy, s, &plan);
	if (plan_expand(&plan, &who, &err) < 0 || plan_check_expanded(&plan, &err) < 0) {
		char msg[sizeof(err.msg) + 80];
		snprintf(msg, sizeof(msg), "for user %s: %s, so every login of the rule is "
			 "refused", s->name, err.msg);
		diag_add_once(diags, DIAG_ERROR, s->file, s->line, msg);
	} else {
		for (size_t i = 0; i < plan.nops && i < written->nops; i++) {
			const struct fs_op *op = &plan.ops[i];
			if (!op_is_bind(op->type))
				continue;
			if (strchr(written->ops[i].source, '%'))
				check_bind_source(op, s->name, written->ops[i].source, diags);
			check_bind_as_user(op, &who, diags);
		}
		/* check_refusals leaves a path with tokens to this rule's
		 * account, which expands it. */
		if (command_tokens)
			check_program(policy, s, &plan, D_COMMAND, plan.command[0], diags);
		if (shell_tokens)
			check_program(policy, s, &plan, D_SHELL, plan.shell, diags);
	}
	plan_free(&plan);
	identity_free(&who);
}

/* The checks that need a rule's merged plan. */
static void check_rule_plan(const struct policy *policy, const struct section *s,
			    const struct pam_stack_services *pam, struct diag_list *diags)
{
	struct plan plan;
	merged_plan(policy, s, &plan);
	check_refusals(policy, s, &plan, diags);
	if (s->kind == SECTION_USER && plan.sandboxed)
		check_user_rule(policy, s, &plan, diags);
	if (s->kind == SECTION_PROFILE) {
		plan_free(&plan);
		return;
	}
	char title[300];
	policy_section_title(s, title, sizeof(title));
	check_unused_settings(s, &plan, title, diags);
	check_log_sockets(s, &plan, title, diags);
	check_service_mode(s, &plan, title, pam, diags);
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
	merged_plan(policy, s, &plan);
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

void host_checks_file_modes(const struct policy *policy, const char *candidate,
			    struct diag_list *diags)
{
	for (size_t i = 0; i < policy->nfiles; i++) {
		const char *file = policy->files[i];
		struct stat st;
		if ((candidate && strcmp(file, candidate) == 0) || stat(file, &st) < 0 ||
		    !(st.st_mode & (S_IRGRP | S_IROTH)))
			continue;
		diag_add(diags, DIAG_WARNING, file, 0, "other users can read it (mode %04o): "
			 "a session that sees the host's files shows its user every rule "
			 "here, other users' too (cocoonctl why says what confines a user "
			 "without them); make it 0600, as cocoonctl edit installs it",
			 (unsigned)(st.st_mode & 07777));
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
	FILE *f AUTOFCLOSE = fopen(path, "re");
	return f && fscanf(f, "%llu", out) == 1 ? 0 : -1;
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

void host_checks_policy(const struct policy *policy, const struct pam_stack_services *pam,
			struct diag_list *diags)
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
		check_rule_plan(policy, s, pam, diags);
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
