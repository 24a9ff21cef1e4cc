// SPDX-License-Identifier: GPL-2.0-or-later
/* A rule merged with the profiles it includes into one plan. */
/* A rule merged with the profiles it includes into one plan, tokens
 * left as written: directives applied in order, single-valued settings
 * tracked for messages, weakening said aloud. */
#include "resolve.h"

#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "name_services.h"
#include "plan_check.h"
#include "plan_values.h"
#include "rule_merge.h"
#include "util.h"

/* An error of the merge at FILE:LINE, once however many rules share it. */
__attribute__((format(printf, 4, 5)))
static void merge_error(struct merge *m, const char *file, int line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_add_once(m->diags, DIAG_ERROR, file, line, buf);
}

static struct fs_op *new_op(struct plan *plan, enum op_type type,
			    const struct directive *d)
{
	struct fs_op *op = ARRAY_PUSH(plan->ops, plan->nops, plan->ops_cap);
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->file = plan_intern_file(plan, d->file);
	op->line = d->line;
	return op;
}

/* mode= and size= of tmpfs, dir and file, parsed with the policy. */
static void take_options(struct fs_op *op, const struct directive_value *v)
{
	op->has_mode = v->has_mode;
	op->mode = v->mode;
	op->size = v->size;
}
static void set_string(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static void merge_section(struct merge *m, const struct section *s);

static void include_profile(struct merge *m, const struct directive *d)
{
	const char *name = d->words[0];
	const struct section *target = policy_find_profile(m->policy, name);
	if (!target) {
		merge_error(m, d->file, d->line, "unknown profile '%s'", name);
		return;
	}
	for (size_t i = 0; i < m->depth; i++) {
		if (m->stack[i] != target)
			continue;
		struct strbuf chain = { 0 };
		for (size_t k = i; k < m->depth; k++)
			sb_addf(&chain, "%s -> ", m->stack[k]->name);
		sb_addf(&chain, "%s", name);
		merge_error(m, d->file, d->line, "profile cycle: %s", chain.data);
		sb_free(&chain);
		return;
	}
	if (m->depth == MAX_PROFILE_DEPTH) {
		merge_error(m, d->file, d->line, "profiles nested deeper than %d",
			    MAX_PROFILE_DEPTH);
		return;
	}
	merge_section(m, target);
}

static void apply(struct merge *m, const struct directive *d)
{
	struct plan *plan = m->plan;
	char *const *w = d->words;
	const struct directive_value *v = &d->value;
	struct fs_op *op;

	switch (d->spec->id) {
	case D_PROFILE:
		include_profile(m, d);
		break;
	case D_SERVICE:
		break;
	case D_BIND: case D_BIND_TRY:
	case D_RO_BIND: case D_RO_BIND_TRY:
	case D_DEV_BIND: case D_DEV_BIND_TRY: {
		enum directive_id id = d->spec->id;
		enum op_type type = (id == D_BIND || id == D_BIND_TRY) ? OP_BIND
			: (id == D_RO_BIND || id == D_RO_BIND_TRY) ? OP_RO_BIND : OP_DEV_BIND;
		op = new_op(plan, type, d);
		op->optional = id == D_BIND_TRY || id == D_RO_BIND_TRY || id == D_DEV_BIND_TRY;
		op->source = xstrdup(w[0]);
		op->dest = xstrdup(d->nwords > 1 ? w[1] : w[0]);
		break;
	}
	case D_REMOUNT_RO: new_op(plan, OP_REMOUNT_RO, d)->dest = xstrdup(w[0]); break;
	case D_PROC: new_op(plan, OP_PROC, d)->dest = xstrdup(w[0]); break;
	case D_DEV: new_op(plan, OP_DEV, d)->dest = xstrdup(w[0]); break;
	case D_MQUEUE: new_op(plan, OP_MQUEUE, d)->dest = xstrdup(w[0]); break;
	case D_TMP_OVERLAY: new_op(plan, OP_TMP_OVERLAY, d)->dest = xstrdup(w[0]); break;
	case D_TMPFS:
		op = new_op(plan, OP_TMPFS, d);
		op->dest = xstrdup(w[0]);
		take_options(op, &d->value);
		break;
	case D_DIR:
		op = new_op(plan, OP_DIR, d);
		op->dest = xstrdup(w[0]);
		take_options(op, &d->value);
		break;
	case D_FILE:
		op = new_op(plan, OP_FILE, d);
		op->dest = xstrdup(w[0]);
		op->content = xstrdup(w[1]);
		take_options(op, &d->value);
		break;
	case D_SYMLINK:
		op = new_op(plan, OP_SYMLINK, d);
		op->source = xstrdup(w[0]);
		op->dest = xstrdup(w[1]);
		break;
	case D_CHMOD:
		op = new_op(plan, OP_CHMOD, d);
		take_options(op, &d->value);
		op->dest = xstrdup(w[1]);
		break;
	case D_UNAVAILABLE:
		for (size_t i = 0; i < d->nwords; i++) {
			op = new_op(plan, OP_UNAVAILABLE, d);
			op->source = xstrdup(COCOON_UNAVAILABLE_STUB);
			op->dest = xstrdup(w[i]);
		}
		break;
	case D_CHDIR: set_string(&plan->chdir, w[0]); break;
	case D_SHELL: set_string(&plan->shell, w[0]); break;
	case D_HOSTNAME:
		set_string(&plan->hostname, w[0]);
		m->hostname_at = (struct place){ d->file, d->line };
		break;
	case D_SETENV:
	case D_UNSETENV: {
		struct env_op *e = ARRAY_PUSH(plan->env, plan->nenv, plan->env_cap);
		e->name = xstrdup(w[0]);
		e->value = d->spec->id == D_SETENV ? xstrdup(w[1]) : NULL;
		break;
	}
	case D_CLEARENV: plan->clearenv = v->flag; break;
	case D_NEW_SESSION: plan->new_session = v->flag; break;
	case D_NO_NEW_PRIVS: plan->no_new_privs = v->flag; break;
	case D_SECCOMP_LOG: plan->seccomp_log = v->flag; break;
	case D_UNSHARE:
		plan->namespaces = v->bits;
		m->unshare_at = (struct place){ d->file, d->line };
		break;
	case D_SECCOMP:
		free(plan->seccomp_file);
		plan->seccomp = v->seccomp;
		plan->seccomp_file = v->seccomp == SECCOMP_FILE ? xstrdup(w[0]) : NULL;
		break;
	case D_SANDBOX:
		plan->sandboxed = false;
		break;
	case D_LANDLOCK:
		plan->landlock_required = v->flag;
		break;
	case D_LANDLOCK_SCOPE:
		plan->landlock_scope = v->bits;
		break;
	case D_HOME:
		plan->home = v->home;
		m->home_at = (struct place){ d->file, d->line };
		break;
	case D_HOME_SIZE: plan->home_size = v->number; break;
	case D_HOME_SKEL: set_string(&plan->home_skel, w[0]); break;
	case D_PRIVATE_TMP:
		plan->private_tmp = v->private_tmp;
		m->private_tmp_at = (struct place){ d->file, d->line };
		break;
	case D_TMP_SIZE: plan->tmp_size = v->number; break;
	case D_ROOT_SIZE: plan->root_size = v->number; break;
	case D_TMPFS_SIZE: plan->tmpfs_size = v->number; break;
	case D_PTY_MAX: plan->pty_max = v->count; break;
	case D_PTY_MAX_USER: plan->pty_max_user = v->count; break;
	case D_NAME_SERVICES:
		plan->name_services = v->flag;
		m->name_services_at = (struct place){ d->file, d->line };
		break;
	case D_RLIMIT_NPROC: case D_RLIMIT_NOFILE: case D_RLIMIT_AS:
	case D_RLIMIT_FSIZE: case D_RLIMIT_CPU: case D_RLIMIT_CORE:
	case D_RLIMIT_MEMLOCK: {
		int res = plan_rlimit_by_name(d->spec->name + strlen("rlimit-"));
		if (res >= 0)
			plan->limits.rlimit[res] = v->rlimit;
		break;
	}
	case D_MAX_SESSION_TIME: case D_MEMORY_MAX: case D_PIDS_MAX: case D_CPU_MAX:
		directive_limit_store(d->spec->id, v->number, &plan->limits);
		break;
	case D_SESSION_TIME_WARNINGS:
		memcpy(plan->limits.time_warnings, v->durations, sizeof(v->durations));
		plan->limits.ntime_warnings = v->ndurations;
		m->time_warnings_at = (struct place){ d->file, d->line };
		break;
	case D_SHARE_SANDBOX:
		plan->share = v->flag;
		m->share_at = (struct place){ d->file, d->line };
		break;
	case D_LINGER:
		plan->linger = v->linger;
		plan->linger_time = v->number;
		m->linger_at = (struct place){ d->file, d->line };
		break;
	case D_COMMAND:
		/* A setting: the last `command` replaces any before. */
		plan_set_command(plan, w, d->nwords);
		break;
	}
}

static void merge_section(struct merge *m, const struct section *s)
{
	m->stack[m->depth++] = s;
	for (size_t i = 0; i < s->ndirs; i++)
		apply(m, &s->dirs[i]);
	m->depth--;
}

/* OP needs a namespace the plan lacks: said at the unshare line that
 * left it out when there is one (a profile's line is rarely the typo),
 * else at OP's own. */
static void namespace_missing(struct merge *m, const struct fs_op *op, const char *what)
{
	if (m->unshare_at.file)
		merge_error(m, m->unshare_at.file, m->unshare_at.line, "%s: this unshare "
			    "leaves it out, and %s:%d needs it", what, op->file, op->line);
	else
		merge_error(m, op->file, op->line, "%s", what);
}

/* Checks on a merged plan that need the whole picture. */
static void check_merged(struct merge *m)
{
	struct plan *plan = m->plan;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (op->type == OP_PROC && !(plan->namespaces & NS_PID))
			namespace_missing(m, op, "'proc' needs a pid namespace "
					  "(unshare = pid ...)");
		if (op->type == OP_MQUEUE && !(plan->namespaces & NS_IPC))
			namespace_missing(m, op, "'mqueue' needs an ipc namespace "
					  "(unshare = ipc ...)");
	}
	/* Report every unsafe creation, not just the first. */
	size_t start = 0;
	struct plan view = *plan;
	const struct fs_op *bind, *later;
	while (start < plan->nops) {
		view.ops = plan->ops + start;
		view.nops = plan->nops - start;
		if (!(later = plan_find_unsafe_creation(&view, true, &bind)))
			break;
		char msg[1024];
		plan_describe_unsafe_creation(later, bind, msg, sizeof(msg));
		merge_error(m, later->file, later->line, "%s", msg);
		start = (size_t)(bind - plan->ops) + 1;
	}
	if (plan_hostname_renames_host(plan))
		merge_error(m, m->hostname_at.file, m->hostname_at.line,
			    "'hostname' needs a uts namespace (unshare = uts ...)");
	/* The deadline is kept by the session's pid 1; without one nothing
	 * would end the session. */
	if (plan->sandboxed && plan->limits.max_session_time && !(plan->namespaces & NS_PID))
		merge_error(m, m->stack[0]->file, m->stack[0]->line,
			    "'max-session-time' needs a pid namespace (unshare = pid ...): "
			    "the session's pid 1 ends it");
	/* With sandbox = none there is no sandbox to share: both are
	 * ignored, as the session limits are (check warns). */
	if (plan->sandboxed && plan->linger != LINGER_NO && !plan->share)
		merge_error(m, m->linger_at.file, m->linger_at.line,
			    "linger needs share-sandbox = yes: only a shared sandbox "
			    "outlives its login");
	/* cocoon-init, the shared sandbox's pid 1, counts its logins and
	 * keeps the linger deadline. */
	if (plan->sandboxed && plan->share && !(plan->namespaces & NS_PID))
		merge_error(m, m->share_at.file, m->share_at.line,
			    "'share-sandbox' needs a pid namespace (unshare = pid ...): "
			    "the shared sandbox's pid 1 counts its logins");
	/* Each login of a shared sandbox raises a Landlock domain of its own
	 * (cocoon-launch), and the signal scope refuses signals between such
	 * siblings: screen -r, kill and job control across logins would
	 * fail. The sandbox's pid namespace keeps its signals in. */
	if (plan->sandboxed && plan->share)
		plan->landlock_scope &= ~LL_SCOPE_SIGNAL;
	/* Past when the session starts, so never told: a typo, likely. */
	const struct session_limits *l = &plan->limits;
	for (unsigned i = 0; l->max_session_time && m->time_warnings_at.file &&
	     i < l->ntime_warnings; i++)
		if (l->time_warnings[i] >= l->max_session_time) {
			char msg[200];
			snprintf(msg, sizeof(msg), "session-time-warnings %llus is not shorter "
				 "than max-session-time %llus: it is never given",
				 l->time_warnings[i], l->max_session_time);
			diag_add_once(m->diags, DIAG_WARNING, m->time_warnings_at.file,
				      m->time_warnings_at.line, msg);
		}
}

/* What a rule's (or profile's) own directives took away from the
 * profile it includes. */
static void warn_weakening(struct merge *m, const struct section *rule,
			   const struct plan *before)
{
	const struct plan *after = m->plan;
	char title[300], names[128];
	policy_section_title(rule, title, sizeof(title));
	if (before->sandboxed && !after->sandboxed)
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s turns off the sandbox its profile sets up", title);
	if (before->seccomp != SECCOMP_NONE && after->seccomp == SECCOMP_NONE)
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s weakens its profile: seccomp = none", title);
	if (before->no_new_privs && !after->no_new_privs)
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s weakens its profile: no-new-privs = no", title);
	if (before->namespaces & ~after->namespaces) {
		plan_ns_format(before->namespaces & ~after->namespaces, names, sizeof(names));
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s weakens its profile: drops the %s namespace%s", title, names,
			 strchr(names, ' ') ? "s" : "");
	}
	if (before->new_session && !after->new_session)
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s weakens its profile: new-session = no", title);
	if (before->clearenv && !after->clearenv)
		diag_add(m->diags, DIAG_WARNING, rule->file, rule->line,
			 "%s weakens its profile: clearenv = no", title);
}

/* Copy of the settings only, for warn_weakening. */
static void snapshot_settings(struct plan *snap, const struct plan *plan)
{
	plan_init(snap);
	snap->sandboxed = plan->sandboxed;
	snap->seccomp = plan->seccomp;
	snap->no_new_privs = plan->no_new_privs;
	snap->namespaces = plan->namespaces;
	snap->new_session = plan->new_session;
	snap->clearenv = plan->clearenv;
}

void rule_merge(const struct policy *policy, const struct section *rule,
		struct plan *plan, struct diag_list *diags)
{
	struct merge m = { .policy = policy, .diags = diags, .plan = plan };
	m.stack[m.depth++] = rule;
	size_t i = 0;
	for (; i < rule->ndirs && (rule->dirs[i].spec->id == D_PROFILE ||
				   rule->dirs[i].spec->id == D_SERVICE); i++)
		apply(&m, &rule->dirs[i]);
	struct plan before;
	snapshot_settings(&before, plan);
	for (; i < rule->ndirs; i++)
		apply(&m, &rule->dirs[i]);
	if (policy_section_find(rule, D_PROFILE))
		warn_weakening(&m, rule, &before);
	plan_free(&before);
	guest_plan_home(&m);
	guest_plan_private_tmp(&m);
	/* Last, over whatever the policy put at /run and /var. */
	if (plan->sandboxed && plan->name_services) {
		struct place at = m.name_services_at.file ? m.name_services_at
			: (struct place){ rule->file, rule->line };
		name_services_plan(plan, at.file, at.line);
	}
	check_merged(&m);
}
