// SPDX-License-Identifier: GPL-2.0-or-later
/* Merging rules with their profiles, validating the policy, and picking
 * the rule for a session. */
#include "resolve.h"

#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"
#include "plan_values.h"
#include "util.h"

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
	struct place home_at, private_tmp_at;
};

static void merge_error(struct merge *m, const char *file, int line,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void merge_error(struct merge *m, const char *file, int line,
			const char *fmt, ...)
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

/* mode= and size= options following the fixed words. */
static void take_options(struct fs_op *op, char *const *words, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (str_starts_with(words[i], "mode=")) {
			op->has_mode = parse_mode(words[i] + 5, &op->mode, NULL) == 0;
		} else if (str_starts_with(words[i], "size=")) {
			if (parse_size(words[i] + 5, &op->size, NULL) < 0)
				op->size = 0;
		}
	}
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
	struct fs_op *op;
	bool b;

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
		take_options(op, w + 1, d->nwords - 1);
		break;
	case D_DIR:
		op = new_op(plan, OP_DIR, d);
		op->dest = xstrdup(w[0]);
		take_options(op, w + 1, d->nwords - 1);
		break;
	case D_FILE:
		op = new_op(plan, OP_FILE, d);
		op->dest = xstrdup(w[0]);
		op->content = xstrdup(w[1]);
		take_options(op, w + 2, d->nwords - 2);
		break;
	case D_SYMLINK:
		op = new_op(plan, OP_SYMLINK, d);
		op->source = xstrdup(w[0]);
		op->dest = xstrdup(w[1]);
		break;
	case D_CHMOD:
		op = new_op(plan, OP_CHMOD, d);
		op->has_mode = parse_mode(w[0], &op->mode, NULL) == 0;
		op->dest = xstrdup(w[1]);
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
	case D_CLEARENV:
		if (parse_bool(w[0], &b, NULL) == 0)
			plan->clearenv = b;
		break;
	case D_NEW_SESSION:
		if (parse_bool(w[0], &b, NULL) == 0)
			plan->new_session = b;
		break;
	case D_NO_NEW_PRIVS:
		if (parse_bool(w[0], &b, NULL) == 0)
			plan->no_new_privs = b;
		break;
	case D_SECCOMP_LOG:
		if (parse_bool(w[0], &b, NULL) == 0)
			plan->seccomp_log = b;
		break;
	case D_UNSHARE:
		parse_namespaces(w, d->nwords, &plan->namespaces, NULL);
		break;
	case D_SECCOMP:
		free(plan->seccomp_file);
		plan->seccomp_file = NULL;
		if (strcmp(w[0], "default") == 0) {
			plan->seccomp = SECCOMP_DEFAULT;
		} else if (strcmp(w[0], "none") == 0) {
			plan->seccomp = SECCOMP_NONE;
		} else {
			plan->seccomp = SECCOMP_FILE;
			plan->seccomp_file = xstrdup(w[0]);
		}
		break;
	case D_SANDBOX:
		plan->sandboxed = false;
		break;
	case D_LANDLOCK:
		plan->landlock_required = strcmp(w[0], "required") == 0;
		break;
	case D_LANDLOCK_SCOPE:
		parse_landlock_scope(w, d->nwords, &plan->landlock_scope, NULL);
		break;
	case D_HOME:
		if (parse_home_mode(w[0], &plan->home, NULL) == 0)
			m->home_at = (struct place){ d->file, d->line };
		break;
	case D_HOME_SIZE: parse_size(w[0], &plan->home_size, NULL); break;
	case D_HOME_SKEL: set_string(&plan->home_skel, w[0]); break;
	case D_PRIVATE_TMP:
		if (parse_private_tmp(w[0], &plan->private_tmp, NULL) == 0)
			m->private_tmp_at = (struct place){ d->file, d->line };
		break;
	case D_TMP_SIZE: parse_size(w[0], &plan->tmp_size, NULL); break;
	case D_ROOT_SIZE: parse_size(w[0], &plan->root_size, NULL); break;
	case D_TMPFS_SIZE: parse_size(w[0], &plan->tmpfs_size, NULL); break;
	case D_RLIMIT_NPROC: case D_RLIMIT_NOFILE: case D_RLIMIT_AS:
	case D_RLIMIT_FSIZE: case D_RLIMIT_CPU: case D_RLIMIT_CORE:
	case D_RLIMIT_MEMLOCK: {
		int res = rlimit_by_name(d->spec->name + strlen("rlimit-"));
		if (res >= 0)
			rlimit_parse(res, w, d->nwords, &plan->limits.rlimit[res], NULL);
		break;
	}
	case D_MAX_SESSION_TIME: case D_MEMORY_MAX: case D_PIDS_MAX: case D_CPU_MAX:
		limit_parse(d->spec->id, w[0], &plan->limits, NULL);
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

/* ---- Guest accounts: `home` and `private-tmp` become ops ---- */

/* "%h", or "%h/" and the like: the same directory. */
static bool is_home_token(const char *path)
{
	return strncmp(path, "%h", 2) == 0 && strspn(path + 2, "/") == strlen(path + 2);
}

static bool binds_home(const struct fs_op *op)
{
	return op_is_bind(op->type) && is_home_token(op->source) && is_home_token(op->dest);
}

static void clear_op(struct fs_op *op, enum op_type type, const char *file, int line)
{
	free(op->source);
	free(op->dest);
	free(op->content);
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->file = file;
	op->line = line;
}

/* A new op at index AT (nops: at the end), said to come from WHERE. */
static struct fs_op *insert_op(struct plan *plan, size_t at, enum op_type type,
			       struct place where)
{
	const char *file = plan_intern_file(plan, where.file);
	ARRAY_PUSH(plan->ops, plan->nops, plan->ops_cap);
	memmove(&plan->ops[at + 1], &plan->ops[at],
		(plan->nops - 1 - at) * sizeof(plan->ops[0]));
	struct fs_op *op = &plan->ops[at];
	memset(op, 0, sizeof(*op));
	clear_op(op, type, file, where.line);
	return op;
}

static void remove_op(struct plan *plan, size_t at)
{
	clear_op(&plan->ops[at], OP_BIND, NULL, 0);
	memmove(&plan->ops[at], &plan->ops[at + 1],
		(plan->nops - at - 1) * sizeof(plan->ops[0]));
	plan->nops--;
}

/* tmpfs: the first op binding %h at %h becomes the tmpfs home and the
 * others go; overlay: one goes over the last such bind; none: they all
 * go (and `chdir = %h` with them). With no such bind, a tmpfs or overlay
 * home comes after every op. */
static void plan_home(struct merge *m)
{
	struct plan *plan = m->plan;
	if (plan->home == HOME_BIND)
		return;
	size_t found = SIZE_MAX; /* tmpfs: the first; overlay: the last */
	for (size_t i = 0; i < plan->nops;) {
		if (!binds_home(&plan->ops[i]))
			i++;
		else if (plan->home == HOME_OVERLAY ||
			 (plan->home == HOME_TMPFS && found == SIZE_MAX))
			found = i++;
		else
			remove_op(plan, i);
	}
	if (plan->home == HOME_NONE) {
		/* No home to go to: `chdir = %h` falls back to /. */
		if (plan->chdir && strcmp(plan->chdir, "%h") == 0) {
			free(plan->chdir);
			plan->chdir = NULL;
		}
		return;
	}
	struct fs_op *op;
	if (plan->home == HOME_TMPFS && found != SIZE_MAX) {
		op = &plan->ops[found];
		clear_op(op, OP_HOME_TMPFS, plan_intern_file(plan, m->home_at.file),
			 m->home_at.line);
	} else {
		op = insert_op(plan, found == SIZE_MAX ? plan->nops : found + 1,
			       plan->home == HOME_TMPFS ? OP_HOME_TMPFS : OP_TMP_OVERLAY,
			       m->home_at);
	}
	op->dest = xstrdup("%h");
	op->size = plan->home_size;
	if (op->type == OP_HOME_TMPFS) {
		op->source = xstrdup(plan->home_skel ? plan->home_skel : COCOON_DEFAULT_SKEL);
		op->mode = 0700;
		op->has_mode = true;
	}
}

/* Each private temporary directory after every other op, over whatever
 * the profile put there. */
static void plan_private_tmp(struct merge *m)
{
	static const char *const dirs[][2] = {
		{ "/tmp", "tmp" }, { "/var/tmp", "var-tmp" }, { "/dev/shm", "shm" },
	};
	struct plan *plan = m->plan;
	if (plan->private_tmp == PRIVATE_TMP_NO)
		return;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct fs_op *op = insert_op(plan, plan->nops, OP_PRIVATE_TMP,
					     m->private_tmp_at);
		op->dest = xstrdup(dirs[i][0]);
		op->mode = 01777;
		op->has_mode = true;
		if (plan->private_tmp == PRIVATE_TMP_PERSISTENT)
			op->source = xasprintf("%s/%%U/%s", COCOON_PRIVATE_TMP_DIR,
					       dirs[i][1]);
		else
			op->size = plan->tmp_size;
	}
}

/* Checks on a merged plan that need the whole picture. */
static void check_merged(struct merge *m)
{
	struct plan *plan = m->plan;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (op->type == OP_PROC && !(plan->namespaces & NS_PID))
			merge_error(m, op->file, op->line, "'proc' needs a pid namespace "
				    "(unshare = pid ...)");
		if (op->type == OP_MQUEUE && !(plan->namespaces & NS_IPC))
			merge_error(m, op->file, op->line, "'mqueue' needs an ipc namespace "
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
		describe_unsafe_creation(later, bind, msg, sizeof(msg));
		merge_error(m, later->file, later->line, "%s", msg);
		start = (size_t)(bind - plan->ops) + 1;
	}
	if (plan->hostname && !(plan->namespaces & NS_UTS))
		merge_error(m, m->hostname_at.file, m->hostname_at.line,
			    "'hostname' needs a uts namespace (unshare = uts ...)");
	/* The deadline is kept by the session's pid 1; without one nothing
	 * would end the session. */
	if (plan->sandboxed && plan->limits.max_session_time && !(plan->namespaces & NS_PID))
		merge_error(m, m->stack[0]->file, m->stack[0]->line,
			    "'max-session-time' needs a pid namespace (unshare = pid ...): "
			    "the session's pid 1 ends it");
}

/* What a rule's (or profile's) own directives took away from the
 * profile it includes. */
static void warn_weakening(struct merge *m, const struct section *rule,
			   const struct plan *before)
{
	const struct plan *after = m->plan;
	char title[300], names[128];
	section_title(rule, title, sizeof(title));
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
		ns_format(before->namespaces & ~after->namespaces, names, sizeof(names));
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
	if (section_find(rule, D_PROFILE))
		warn_weakening(&m, rule, &before);
	plan_free(&before);
	plan_home(&m);
	plan_private_tmp(&m);
	check_merged(&m);
}

/* Where to report what is missing from the whole policy: the last file
 * an administrator wrote. */
static const char *policy_main_file(const struct policy *policy)
{
	for (size_t i = policy->nsections; i-- > 0;)
		if (!policy->sections[i].embedded)
			return policy->sections[i].file;
	return policy->nfiles ? policy->files[policy->nfiles - 1] : COCOON_EMBEDDED_NAME;
}

/* A bind of /run/user (or the user's directory there, or below it) shows
 * the session the sockets of the user's systemd manager and session bus,
 * which run outside any sandbox: systemd-run --user or busctl --user from
 * inside would run the user's commands on the host. A policy choice (a
 * desktop session may want the bus), said aloud. */
static void check_user_manager_exposed(const struct section *s, struct diag_list *diags)
{
	for (size_t k = 0; k < s->ndirs; k++) {
		const struct directive *d = &s->dirs[k];
		enum directive_id id = d->spec->id;
		if (id != D_BIND && id != D_RO_BIND && id != D_DEV_BIND && id != D_BIND_TRY &&
		    id != D_RO_BIND_TRY && id != D_DEV_BIND_TRY)
			continue;
		const char *src = d->words[0];
		/* The directory, what is below it, or what holds it (/run, /). */
		if (!path_is_under(src, "/run/user") && !path_is_under("/run/user", src) &&
		    !path_is_under(src, "/var/run/user") && !path_is_under("/var/run/user", src))
			continue;
		diag_add(diags, DIAG_WARNING, d->file, d->line, "%s = %s shows the session the "
			 "sockets of the user's systemd manager and session bus, which run "
			 "outside any sandbox: systemd-run --user and busctl --user from inside "
			 "would start commands on the host", d->spec->name, src);
	}
}

void policy_validate(const struct policy *policy, struct diag_list *diags)
{
	size_t defaults = 0;
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		char title[300];
		defaults += s->kind == SECTION_DEFAULT;
		if (s->kind == SECTION_USER && strcmp(s->name, "root") == 0)
			diag_add(diags, DIAG_ERROR, s->file, s->line,
				 "rules never apply to root: remove [user root]");
		if (s->kind != SECTION_PROFILE && !section_find(s, D_PROFILE) &&
		    !section_find(s, D_SANDBOX))
			diag_add(diags, DIAG_ERROR, s->file, s->line,
				 "%s names no profile (add 'profile = NAME', or "
				 "'sandbox = none' to leave it unconfined)",
				 section_title(s, title, sizeof(title)));
		check_user_manager_exposed(s, diags);
		/* Merge every section, used or not, so each error surfaces. */
		struct plan plan;
		plan_init(&plan);
		rule_merge(policy, s, &plan, diags);
		plan_free(&plan);
	}
	if (defaults == 0)
		diag_add(diags, DIAG_ERROR, policy_main_file(policy), 0,
			 "the policy has no [default] section (write one; "
			 "'sandbox = none' there makes unconfined the explicit choice)");
}

static void record_lost(struct plan *plan, const struct section *s, const char *why)
{
	char title[300];
	*ARRAY_PUSH(plan->lost, plan->nlost, plan->lost_cap) =
		xasprintf("%s at %s:%d: %s", section_title(s, title, sizeof(title)),
			  s->file, s->line, why);
}

static bool has_group_rules(const struct policy *policy)
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
		if (!section_allows_service(s, service))
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
		else if (!section_allows_service(s, service))
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
		else if (!section_allows_service(s, service))
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
	if (who->groups_later && has_group_rules(policy)) {
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
	const struct section *rule = match_rule(policy, who, service, uid_min, plan);
	if (!rule) {
		plan->sandboxed = false;
		return RESOLVE_NOT_COVERED;
	}
	char title[300];
	plan->rule = xasprintf("%s at %s:%d", section_title(rule, title, sizeof(title)),
			       rule->file, rule->line);
	const struct directive *prof = section_find(rule, D_PROFILE);
	if (prof)
		plan->profile = xstrdup(prof->words[0]);

	struct diag_list merge_diags = { 0 };
	rule_merge(policy, rule, plan, &merge_diags);
	int failed = diag_first_error(&merge_diags, err);
	diag_free(&merge_diags);
	if (failed < 0)
		return RESOLVE_ERROR;
	if (plan->sandboxed && plan_expand(plan, who, err) < 0)
		return RESOLVE_ERROR;
	plan_hash(plan);
	return RESOLVE_PLAN;
}

enum resolve_result plan_for_session(const char *config,
				     struct identity *who,
				     const char *service, struct plan *plan,
				     struct cc_error *err)
{
	struct policy policy = { 0 };
	plan_init(plan);
	if (policy_load(&policy, config, err) < 0) {
		policy_free(&policy);
		return RESOLVE_ERROR;
	}
	plan_free(plan);
	if (has_group_rules(&policy) && identity_complete(who, err) < 0) {
		policy_free(&policy);
		return RESOLVE_ERROR;
	}
	enum resolve_result rc = policy_resolve(&policy, who, service,
						login_defs_uid_min(COCOON_LOGIN_DEFS),
						plan, err);
	policy_free(&policy);
	return rc;
}
