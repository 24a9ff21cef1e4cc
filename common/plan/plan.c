// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan's life cycle: defaults, token expansion, hashing, freeing. */
#include "plan.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forced_command.h"
#include "plan_values.h"
#include "util.h"

void plan_init(struct plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	/* The safe values hold unless the policy says otherwise. */
	plan->sandboxed = true;
	plan->seccomp = SECCOMP_DEFAULT;
	plan->no_new_privs = true;
	plan->landlock_scope = LL_SCOPE_ALL;
	plan->home_size = COCOON_DEFAULT_HOME_SIZE;
	plan->tmp_size = COCOON_DEFAULT_TMP_SIZE;
	plan->root_size = COCOON_DEFAULT_ROOT_SIZE;
	plan->tmpfs_size = COCOON_DEFAULT_TMPFS_SIZE;
	plan->pty_max = COCOON_DEFAULT_PTY_MAX;
	plan->pty_max_user = COCOON_DEFAULT_PTY_MAX_USER;
	plan->name_services = true;
	plan->limits.time_warnings[0] = 5 * 60;
	plan->limits.time_warnings[1] = 60;
	plan->limits.ntime_warnings = 2;
	plan->uid_min = 1000; /* login.defs' own default; policy_resolve reads it */
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->nops; i++) {
		free(plan->ops[i].source);
		free(plan->ops[i].dest);
		free(plan->ops[i].content);
	}
	free(plan->ops);
	for (size_t i = 0; i < plan->nenv; i++) {
		free(plan->env[i].name);
		free(plan->env[i].value);
	}
	free(plan->env);
	free(plan->hostname);
	free(plan->chdir);
	free(plan->shell);
	free(plan->seccomp_file);
	free(plan->seccomp_text);
	free(plan->home_skel);
	plan_set_command(plan, NULL, 0);
	identity_free(&plan->who);
	free(plan->service);
	free(plan->rule);
	free(plan->profile);
	for (size_t i = 0; i < plan->nlost; i++)
		free(plan->lost[i]);
	free(plan->lost);
	for (size_t i = 0; i < plan->nfiles; i++)
		free(plan->files[i]);
	free(plan->files);
	for (size_t i = 0; i < plan->nendpoints_left_out; i++)
		free(plan->endpoints_left_out[i]);
	free(plan->endpoints_left_out);
	memset(plan, 0, sizeof(*plan));
}

const char *plan_intern_file(struct plan *plan, const char *file)
{
	for (size_t i = 0; i < plan->nfiles; i++)
		if (strcmp(plan->files[i], file) == 0)
			return plan->files[i];
	char **slot = ARRAY_PUSH(plan->files, plan->nfiles, plan->files_cap);
	*slot = xstrdup(file);
	return *slot;
}

/* FNV-1a: a content fingerprint for logs and `explain`, not a MAC. The
 * session record and the audit lines keep it, and `cocoonctl enter` compares it
 * with the plan the policy gives now to tell whether the session still
 * runs under the same policy: so it covers what the policy says, not
 * what the host happens to have (the name-service endpoints). */
static void hash_bytes(uint64_t *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		*h ^= p[i];
		*h *= 0x100000001b3ULL;
	}
}

static void hash_str(uint64_t *h, const char *s)
{
	hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1);
	hash_bytes(h, s ? "s" : "n", 1);
}

static void hash_u64(uint64_t *h, uint64_t v)
{
	hash_bytes(h, &v, sizeof(v));
}

void plan_hash(struct plan *plan)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	hash_u64(&h, plan->sandboxed);
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (op->type == OP_NAME_SERVICE)
			continue;
		hash_u64(&h, op->type);
		hash_u64(&h, op->optional);
		hash_str(&h, op->source);
		hash_str(&h, op->dest);
		hash_str(&h, op->content);
		hash_u64(&h, op->has_mode ? op->mode : 0x10000);
		hash_u64(&h, op->size);
	}
	hash_u64(&h, plan->namespaces);
	hash_str(&h, plan->hostname);
	hash_str(&h, plan->chdir);
	hash_str(&h, plan->shell);
	hash_u64(&h, plan->clearenv);
	for (size_t i = 0; i < plan->nenv; i++) {
		hash_str(&h, plan->env[i].name);
		hash_str(&h, plan->env[i].value);
	}
	hash_u64(&h, plan->new_session);
	hash_u64(&h, plan->seccomp);
	hash_str(&h, plan->seccomp_file);
	/* Only when read, as name-services: an edit of the file is a new
	 * plan, and a shared sandbox made under the old rules is not joined. */
	if (plan->seccomp_text) {
		hash_str(&h, "seccomp-text");
		hash_bytes(&h, plan->seccomp_text, plan->seccomp_text_len);
	}
	hash_u64(&h, plan->no_new_privs);
	hash_u64(&h, plan->seccomp_log);
	hash_u64(&h, plan->landlock_required);
	hash_u64(&h, plan->landlock_scope);
	hash_u64(&h, plan->home);
	hash_u64(&h, plan->home_size);
	hash_str(&h, plan->home_skel);
	hash_u64(&h, plan->private_tmp);
	hash_u64(&h, plan->tmp_size);
	hash_u64(&h, plan->root_size);
	hash_u64(&h, plan->tmpfs_size);
	hash_u64(&h, plan->pty_max);
	hash_u64(&h, plan->pty_max_user);
	/* Only when not the default: the hashes of plans made before the
	 * setting existed stay what their sessions' records hold. */
	if (!plan->name_services)
		hash_str(&h, "name-services none");
	const struct session_limits *lim = &plan->limits;
	for (int r = 0; r < RLIM_NLIMITS; r++)
		if (lim->rlimit[r].set) {
			hash_u64(&h, (uint64_t)r);
			hash_u64(&h, lim->rlimit[r].soft);
			hash_u64(&h, lim->rlimit[r].hard);
		}
	hash_u64(&h, lim->max_session_time);
	hash_u64(&h, lim->memory_max);
	hash_u64(&h, lim->pids_max);
	hash_u64(&h, lim->cpu_max_percent);
	/* Only when not the default (5m 1m), as name-services. */
	if (lim->ntime_warnings != 2 || lim->time_warnings[0] != 300 ||
	    lim->time_warnings[1] != 60) {
		hash_str(&h, "session-time-warnings");
		for (unsigned i = 0; i < lim->ntime_warnings; i++)
			hash_u64(&h, lim->time_warnings[i]);
		hash_u64(&h, lim->ntime_warnings);
	}
	/* Only when on, as name-services: a shared sandbox is joined by
	 * this hash, so a change of either makes a sandbox of its own. */
	if (plan->share || plan->linger != LINGER_NO) {
		hash_str(&h, "share-sandbox");
		hash_u64(&h, plan->share);
		hash_u64(&h, plan->linger);
		hash_u64(&h, plan->linger_time);
	}
	for (char **w = plan->command; w && *w; w++)
		hash_str(&h, *w);
	hash_u64(&h, plan->command != NULL);
	snprintf(plan->hash, sizeof(plan->hash), "%016llx", (unsigned long long)h);
}

bool plan_unavailable_present(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool plan_limits_need_cgroup(const struct session_limits *limits)
{
	return limits->memory_max || limits->pids_max || limits->cpu_max_percent;
}

struct expander {
	const struct identity *who;
};

static char *expand(struct expander *x, const char *in)
{
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	for (const char *p = in; *p; p++) {
		if (*p != '%' || !p[1]) {
			sb_addn(&out, p, 1);
			continue;
		}
		switch (*++p) {
		case 'u': sb_addf(&out, "%s", x->who->user); break;
		case 'U': sb_addf(&out, "%u", (unsigned)x->who->uid); break;
		case 'g': sb_addf(&out, "%s", x->who->group); break;
		case 'G': sb_addf(&out, "%u", (unsigned)x->who->gid); break;
		case 'h': sb_addf(&out, "%s", x->who->home); break;
		default: sb_addn(&out, p, 1); break; /* %% */
		}
	}
	return sb_steal(&out);
}

/* Collapse repeated and trailing slashes; refuse "." and "..". */
static int normalise_path(char **path, const char *what, struct cc_error *err)
{
	const char *in = *path;
	if (in[0] != '/')
		return cc_fail(err, "%s '%s' is not an absolute path", what, in);
	struct strbuf out = { 0 };
	for (const char *p = in; *p;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (!n)
			break;
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			sb_free(&out);
			return cc_fail(err, "%s '%s' has a '.' or '..' component", what, in);
		}
		sb_addn(&out, "/", 1);
		sb_addn(&out, p, n);
		p += n;
	}
	if (!out.len)
		sb_addn(&out, "/", 1);
	free(*path);
	*path = sb_steal(&out);
	return 0;
}

static int expand_path(struct expander *x, char **field, const char *what,
		       struct cc_error *err)
{
	if (!*field)
		return 0;
	char *v = expand(x, *field);
	free(*field);
	*field = v;
	return normalise_path(field, what, err);
}

static void expand_text(struct expander *x, char **field)
{
	if (!*field)
		return;
	char *v = expand(x, *field);
	free(*field);
	*field = v;
}

/* %h must name the user's own directory, never "/" or a symlink. Only
 * its form matters when no op reads it from the host (a tmpfs home). */
static int check_home(const struct identity *who, bool on_host,
		      struct cc_error *err)
{
	const char *home = who->home;
	struct stat st;
	if (home[0] != '/')
		return cc_fail(err, "home directory '%s' of %s is not absolute", home,
			       who->user);
	if (strcmp(home, "/") == 0)
		return cc_fail(err, "home directory of %s is '/'", who->user);
	char *norm = xstrdup(home);
	int rc = normalise_path(&norm, "home directory", err);
	if (rc == 0 && strcmp(norm, home) != 0 && !(strlen(home) == strlen(norm) + 1 &&
						     home[strlen(home) - 1] == '/'))
		rc = cc_fail(err, "home directory '%s' of %s is not in normal form",
			     home, who->user);
	free(norm);
	if (rc < 0)
		return -1;
	if (!on_host)
		return 0;
	if (lstat(home, &st) < 0)
		return cc_fail_errno(err, "home directory %s of %s", home, who->user);
	if (S_ISLNK(st.st_mode))
		return cc_fail(err, "home directory %s of %s is a symlink", home,
			       who->user);
	if (!S_ISDIR(st.st_mode))
		return cc_fail(err, "home directory %s of %s is not a directory", home,
			       who->user);
	if (st.st_uid != who->uid)
		return cc_fail(err, "home directory %s is owned by uid %u, not by %s",
			       home, (unsigned)st.st_uid, who->user);
	return 0;
}

/* Does S use %h (and not as part of "%%h")? */
static bool uses_home(const char *s)
{
	for (const char *p = s ? strchr(s, '%') : NULL; p; p = strchr(p + 2, '%')) {
		if (p[1] == 'h')
			return true;
		if (!p[1])
			break;
	}
	return false;
}

static bool plan_reads_host_home(const struct plan *plan)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (plan->ops[i].type != OP_SYMLINK && uses_home(plan->ops[i].source))
			return true;
	return false;
}

static bool plan_uses_home(const struct plan *plan)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (uses_home(plan->ops[i].source) || uses_home(plan->ops[i].dest) ||
		    uses_home(plan->ops[i].content))
			return true;
	for (size_t i = 0; i < plan->nenv; i++)
		if (uses_home(plan->env[i].value))
			return true;
	for (char **w = plan->command; w && *w; w++)
		if (uses_home(*w))
			return true;
	return uses_home(plan->chdir) || uses_home(plan->shell) ||
	       uses_home(plan->hostname);
}

void plan_set_command(struct plan *plan, char *const *words, size_t count)
{
	for (char **w = plan->command; w && *w; w++)
		free(*w);
	free(plan->command);
	plan->command = NULL;
	if (!count)
		return;
	plan->command = xcalloc(count + 1, sizeof(char *));
	for (size_t i = 0; i < count; i++)
		plan->command[i] = xstrdup(words[i]);
}

/* The forced command: its path normalised, its arguments expanded; no
 * newline, which would split the launcher's settings file into lines. */
static int expand_command(struct expander *x, char **command, struct cc_error *err)
{
	if (!command)
		return 0;
	if (expand_path(x, &command[0], "command", err) < 0)
		return -1;
	for (char **w = command + 1; *w; w++)
		expand_text(x, w);
	size_t size = 0;
	for (char **w = command; *w; w++) {
		if (strchr(*w, '\n'))
			return cc_fail(err, "command: a newline in '%s'", *w);
		size += strlen(*w) + FORCED_COMMAND_LINE;
	}
	if (size > FORCED_COMMAND_MAX)
		return cc_fail(err, "command: longer than %d bytes", FORCED_COMMAND_MAX);
	return 0;
}

int plan_expand(struct plan *plan, const struct identity *who, struct cc_error *err)
{
	struct expander x = { .who = who };
	/* Check the home before it is spliced into any path. */
	if (plan_uses_home(plan) &&
	    check_home(who, plan_reads_host_home(plan), err) < 0)
		return -1;
	for (size_t i = 0; i < plan->nops; i++) {
		struct fs_op *op = &plan->ops[i];
		const char *name = plan_op_type_name(op->type, op->optional);
		if (op->type == OP_SYMLINK)
			expand_text(&x, &op->source);
		else if (expand_path(&x, &op->source, "source", err) < 0)
			return cc_prefix(err, "%s:%d: %s", op->file, op->line, name);
		if (expand_path(&x, &op->dest, "destination", err) < 0)
			return cc_prefix(err, "%s:%d: %s", op->file, op->line, name);
		expand_text(&x, &op->content);
	}
	if (expand_path(&x, &plan->chdir, "chdir", err) < 0 ||
	    expand_path(&x, &plan->shell, "shell", err) < 0 ||
	    expand_command(&x, plan->command, err) < 0)
		return -1;
	expand_text(&x, &plan->hostname);
	for (size_t i = 0; i < plan->nenv; i++)
		expand_text(&x, &plan->env[i].value);
	if (plan->hostname) {
		size_t n = strlen(plan->hostname);
		if (n == 0 || n > 64 || strspn(plan->hostname,
					       "abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") != n)
			return cc_fail(err, "hostname '%s' is not a valid host name",
				       plan->hostname);
	}
	return 0;
}

bool plan_has_own_dev(const struct plan *plan)
{
	bool own = false;
	for (size_t i = 0; i < plan->nops; i++)
		if (plan->ops[i].dest && strcmp(plan->ops[i].dest, "/dev") == 0)
			own = plan->ops[i].type == OP_DEV;
	return own;
}
