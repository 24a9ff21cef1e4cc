// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether a plan is safe to build, judged in one place. */
/* Whether a plan is safe to build, judged in one place over one list of
 * the host's system paths: its shape (what the engine refuses before
 * anything exists), creations inside user-writable binds, what a root
 * service or root process in the session would read, and the modes
 * root-owned tmpfs get. */
#include "plan_check.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan_values.h"
#include "util.h"

/* The one list of the host's system paths, each with the judgements it
 * takes part in. */
enum system_path_use {
	/* A root service process reads the session's copy (service mode). */
	FOR_SERVICE = 1u,
	/* Root reads configuration, runs code or trusts IPC sockets below
	 * it: /etc/pam.d, update-motd.d, profile.d, nscd, systemd, dbus. */
	FOR_CODE = 2u,
	/* A root-owned tmpfs there without mode= gets 0755, not 01777. */
	FOR_TMPFS_MODE = 4u,
};
#define FOR_ALL (FOR_SERVICE | FOR_CODE | FOR_TMPFS_MODE)

static const struct system_path {
	const char *path;
	unsigned uses;
} system_paths[] = {
	{ "/", FOR_SERVICE | FOR_TMPFS_MODE },
	{ "/etc", FOR_ALL },
	{ "/usr", FOR_ALL },
	{ "/lib", FOR_ALL },
	{ "/lib64", FOR_ALL },
	{ "/lib32", FOR_ALL },
	{ "/libx32", FOR_ALL },
	{ "/bin", FOR_ALL },
	{ "/sbin", FOR_ALL },
	{ "/dev", FOR_SERVICE | FOR_TMPFS_MODE },
	{ "/run", FOR_SERVICE | FOR_TMPFS_MODE },
	{ "/var", FOR_SERVICE | FOR_TMPFS_MODE },
	{ "/boot", FOR_TMPFS_MODE },
	{ "/opt", FOR_TMPFS_MODE },
	{ "/srv", FOR_TMPFS_MODE },
	{ "/proc", FOR_TMPFS_MODE },
	{ "/sys", FOR_TMPFS_MODE },
	{ "/run/nscd", FOR_CODE },
	{ "/run/systemd", FOR_CODE },
	{ "/run/dbus", FOR_CODE },
	{ "/var/run/nscd", FOR_CODE },
	{ "/var/run/systemd", FOR_CODE },
	{ "/var/run/dbus", FOR_CODE },
	/* The name-service endpoints (name_services.c) the service's NSS
	 * modules read answers from: sockets, and sssd's memory caches,
	 * which libnss_sss maps and parses without asking sssd. */
	{ "/run/nslcd", FOR_CODE },
	{ "/var/run/nslcd", FOR_CODE },
	{ "/run/samba/winbindd", FOR_CODE },
	{ "/var/run/samba/winbindd", FOR_CODE },
	{ "/var/lib/sss", FOR_CODE },
};
#define NSYSTEM_PATHS ARRAY_SIZE(system_paths)
#define CODE_PATHS_TEXT "/etc, /usr, /lib*, /bin, /sbin, the nscd, nslcd, " \
	"samba/winbindd, systemd and dbus directories of /run and /var/run, and " \
	"/var/lib/sss"

const char *plan_service_system_path(size_t i)
{
	for (size_t k = 0; k < NSYSTEM_PATHS; k++)
		if ((system_paths[k].uses & FOR_SERVICE) && i-- == 0)
			return system_paths[k].path;
	return NULL;
}

static bool op_creates(enum op_type type)
{
	return type != OP_REMOUNT_RO;
}

bool plan_source_writable_symbolic(const char *source)
{
	return strchr(source, '%') != NULL || plan_path_user_writable(source);
}

/* Root creating or mounting inside a directory the user can write could
 * be redirected by a symlink the user plants there. Finds the first op
 * that would, and the bind it falls under. */
const struct fs_op *plan_find_unsafe_creation(const struct plan *plan,
					      bool symbolic,
					      const struct fs_op **bind)
{
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (!op_is_bind(op->type))
			continue;
		if (symbolic ? !plan_source_writable_symbolic(op->source)
			     : !op->source_user_writable)
			continue;
		for (size_t j = i + 1; j < plan->nops; j++) {
			const struct fs_op *later = &plan->ops[j];
			if (!op_creates(later->type))
				continue;
			/* A mount needs a mount point below the bind; dir, file,
			 * symlink and chmod touch the bind's own root too. */
			bool mounts = later->type != OP_DIR && later->type != OP_FILE &&
				      later->type != OP_SYMLINK && later->type != OP_CHMOD;
			if (path_is_under(later->dest, op->dest) &&
			    !(mounts && strcmp(later->dest, op->dest) == 0)) {
				*bind = op;
				return later;
			}
		}
	}
	return NULL;
}

void plan_describe_unsafe_creation(const struct fs_op *later, const struct fs_op *bind,
				   char *buf, size_t size)
{
	snprintf(buf, size, "'%s %s' would create inside '%s', whose source %s a "
		 "non-root user can write (%s:%d); bind a root-owned source or put "
		 "it before that bind", plan_op_type_name(later->type, later->optional),
		 later->dest, bind->dest, bind->source, bind->file, bind->line);
}

static bool owned_by_others(const struct stat *st)
{
	return st->st_uid != 0 || (st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The walk goes where the kernel's resolution goes, symlinks included:
 * a root-owned link into a directory the user can write, there swapped
 * for a link to anywhere, leaves the path as written and the path it
 * ends at looking like root's, and root would mount what the user
 * chose. Every directory passed through and every link followed must be
 * root's and not writable by group or others; then root, resolving it
 * again later, reaches the same file. A missing component ends the walk
 * (the open fails later); any other error, or anything past the limits,
 * counts as writable. */
bool plan_path_user_writable(const char *path)
{
	char done[PATH_MAX] = ""; /* resolved so far, no symlinks; "" is / */
	char todo[PATH_MAX], rest[PATH_MAX], target[PATH_MAX];
	int links = 0;
	struct stat st;
	if (stat("/", &st) == 0 && owned_by_others(&st))
		return true;
	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return true;
	const char *next = todo;
	for (;;) {
		next += strspn(next, "/");
		if (!*next)
			return false;
		size_t len = strcspn(next, "/"), have = strlen(done);
		if (len == 1 && next[0] == '.') {
			next += len;
			continue;
		}
		if (len == 2 && next[0] == '.' && next[1] == '.') {
			char *last = strrchr(done, '/'); /* none: at / already */
			if (last)
				*last = '\0';
			next += len;
			continue;
		}
		if (have + 1 + len >= sizeof(done))
			return true;
		done[have] = '/';
		memcpy(done + have + 1, next, len);
		done[have + 1 + len] = '\0';
		next += len;
		if (lstat(done, &st) < 0) /* what cannot be judged counts as the user's */
			return errno != ENOENT && errno != ENOTDIR;
		if (!S_ISLNK(st.st_mode)) {
			if (owned_by_others(&st))
				return true;
			continue;
		}
		if (st.st_uid != 0 || ++links > 40)
			return true;
		ssize_t n = readlink(done, target, sizeof(target) - 1);
		if (n <= 0)
			return true;
		target[n] = '\0';
		/* On from the link's directory, or from / for an absolute one. */
		done[target[0] == '/' ? 0 : have] = '\0';
		if (snprintf(rest, sizeof(rest), "%s%s", target, next) >= (int)sizeof(rest))
			return true;
		memcpy(todo, rest, strlen(rest) + 1);
		next = todo;
	}
}

static bool is_tmpfs_mode_path(const char *dest)
{
	for (size_t i = 0; i < NSYSTEM_PATHS; i++)
		if ((system_paths[i].uses & FOR_TMPFS_MODE) &&
		    strcmp(dest, system_paths[i].path) == 0)
			return true;
	return false;
}

unsigned plan_tmpfs_mode(const struct fs_op *op, bool service)
{
	if (op->has_mode)
		return op->mode;
	/* Root's in service mode: a /tmp without mode= must stay usable. */
	return service && !is_tmpfs_mode_path(op->dest) ? 01777 : 0755;
}

static bool normalised_absolute(const char *path)
{
	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return false;
	if (path[1] == '\0')
		return true;
	for (const char *p = path + 1;;) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);
		if (n == 0 || n > NAME_MAX || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!*end)
			return true;
		p = end + 1;
	}
}

/* Refuse OP: "file:line: ro-bind /usr /usr: WHY". */
static int refuse_op(const struct fs_op *op, struct cc_error *err, const char *why)
{
	char what[2 * PATH_MAX + 32];
	plan_op_describe(op, what, sizeof(what));
	if (op->file)
		return cc_fail(err, "%s:%d: %s: %s", op->file, op->line, what, why);
	return cc_fail(err, "%s: %s", what, why);
}

int plan_check_shape(const struct plan *plan, struct cc_error *err)
{
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (!op->dest || !normalised_absolute(op->dest))
			return refuse_op(op, err, "the destination is not an absolute, "
				    "normalised path");
		if ((op_is_bind(op->type) || op->type == OP_HOME_TMPFS ||
		     op->type == OP_NAME_SERVICE || op->type == OP_UNAVAILABLE ||
		     (op->type == OP_PRIVATE_TMP && op->source)) &&
		    (!op->source || !normalised_absolute(op->source)))
			return refuse_op(op, err, "the source is not an absolute, normalised path");
		/* Endpoints are bound where the host has them. */
		if (op->type == OP_NAME_SERVICE && strcmp(op->source, op->dest) != 0)
			return refuse_op(op, err, "a name-service endpoint is bound at its "
					 "own path");
		if (op->type == OP_SYMLINK && (!op->source || !*op->source))
			return refuse_op(op, err, "the symlink has no target");
		if ((op->type == OP_FILE || op->type == OP_SYMLINK) &&
		    strcmp(op->dest, "/") == 0)
			return refuse_op(op, err, "cannot replace the root");
		if (op->type == OP_CHMOD && !op->has_mode)
			return refuse_op(op, err, "no mode given");
		if (op->type == OP_FILE && !op->content)
			return refuse_op(op, err, "no content given");
		/* Defence in depth: the planner refuses these too. A procfs
		 * of the host's pid namespace would show the host's processes;
		 * an mqueue of the host's ipc namespace, its queues. */
		if (op->type == OP_PROC && !(plan->namespaces & NS_PID))
			return refuse_op(op, err, "needs a pid namespace");
		if (op->type == OP_MQUEUE && !(plan->namespaces & NS_IPC))
			return refuse_op(op, err, "needs an ipc namespace");
	}
	return 0;
}

static bool under_code_path(const char *path)
{
	for (size_t i = 0; i < NSYSTEM_PATHS; i++)
		if ((system_paths[i].uses & FOR_CODE) && path_is_under(path, system_paths[i].path))
			return true;
	return false;
}

/* A symlink's target as an absolute path, for the symlink at DEST. */
static char *symlink_target(const struct fs_op *op)
{
	if (op->source[0] == '/')
		return xstrdup(op->source);
	const char *slash = strrchr(op->dest, '/');
	return xasprintf("%.*s/%s", (int)(slash - op->dest), op->dest, op->source);
}

/* PATH with "." and ".." taken away as written: the kernel does the same
 * when no component is a symlink, and every symlink on the way is an op
 * that is checked on its own. NULL when ".." climbs above "/". */
static char *lexical_path(const char *path)
{
	char *out = xmalloc(strlen(path) + 2);
	size_t len = 0;
	for (const char *p = path; *p;) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (len == 0) {
				free(out);
				return NULL;
			}
			while (out[--len] != '/')
				;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n;
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return out;
}

/* A symlink at DEST, an ancestor of a path root reads: does each such
 * path, reached through the link, stay among them? */
static bool link_keeps_code_paths(const struct fs_op *op)
{
	char *raw = symlink_target(op), *target = lexical_path(raw);
	free(raw);
	bool kept = target != NULL;
	for (size_t i = 0; kept && i < NSYSTEM_PATHS; i++) {
		const char *p = system_paths[i].path;
		if (!(system_paths[i].uses & FOR_CODE) || !path_is_under(p, op->dest))
			continue;
		const char *rest = p + (strcmp(op->dest, "/") == 0 ? 0 : strlen(op->dest));
		char *through = xasprintf("%s%s", strcmp(target, "/") == 0 ? "" : target, rest);
		kept = under_code_path(through);
		free(through);
	}
	free(target);
	return kept;
}

static bool covers_code_path(const char *dest)
{
	for (size_t i = 0; i < NSYSTEM_PATHS; i++)
		if ((system_paths[i].uses & FOR_CODE) && path_is_under(system_paths[i].path, dest))
			return true;
	return false;
}

int plan_check_code_paths(const struct plan *plan, const char *reader,
			     struct cc_error *err)
{
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		/* At or below such a path, or above one (a writable /run or /
		 * lets the user replace what is below it). */
		bool below = under_code_path(op->dest);
		if (!below && !covers_code_path(op->dest))
			continue;
		const char *why = NULL;
		if (op->type == OP_DIR && strcmp(op->dest, "/") != 0)
			why = "a `dir` there belongs to the session's user";
		else if (op->type == OP_HOME_TMPFS)
			why = "the home there (home = tmpfs) belongs to the session's user";
		else if ((op->type == OP_FILE || op->type == OP_CHMOD) && op->has_mode &&
			 (op->mode & 022))
			why = "its mode lets group or others write it";
		else if (op->type == OP_TMPFS && (plan_tmpfs_mode(op, true) & 022))
			why = "a tmpfs there is writable by others (give it mode=0755)";
		else if (op->type == OP_SYMLINK && below) {
			char *target = symlink_target(op);
			/* ".." could climb out: such a target counts as leaving. */
			if (strstr(target, "..") || !under_code_path(target))
				why = "a symlink there leads out of the paths root reads ("
				      CODE_PATHS_TEXT ")";
			free(target);
		} else if (op->type == OP_SYMLINK && !link_keeps_code_paths(op))
			why = "a symlink there takes paths root reads (" CODE_PATHS_TEXT
			      ") elsewhere";
		if (why)
			return cc_fail(err, "%s:%d: %s %s: %s, and %s would read what "
				       "the user puts there", op->file ? op->file : "?",
				       op->line, plan_op_type_name(op->type, op->optional),
				       op->dest, why, reader);
	}
	return 0;
}

/* Where a symlink at a system path leads must be a system path too. */
static bool symlink_stays_in_system_paths(const struct fs_op *op)
{
	char *target = symlink_target(op);
	bool ok = !strstr(target, "/..") && !strstr(target, "/./");
	bool under = false;
	const char *sp;
	for (size_t k = 0; ok && (sp = plan_service_system_path(k)); k++)
		if (strcmp(sp, "/") != 0 && path_is_under(target, sp))
			under = true;
	free(target);
	return ok && under;
}

bool plan_hostname_renames_host(const struct plan *plan)
{
	return plan->hostname && !(plan->namespaces & NS_UTS);
}

int plan_check_hostname(const struct plan *plan, struct cc_error *err)
{
	if (plan_hostname_renames_host(plan))
		return cc_fail(err, "'hostname' needs a uts namespace: it would "
			       "rename the host");
	return 0;
}

int plan_check_service_mode(const struct plan *plan, struct cc_error *err)
{
	if (!plan->sandboxed)
		return cc_fail(err, "the plan has no sandbox (sandbox = none)");
	if (plan->namespaces & NS_USER)
		return cc_fail(err, "a user namespace cannot hold a root service: "
			       "'unshare = user' is refused for PAM sessions");
	if (!(plan->namespaces & NS_PID))
		return cc_fail(err, "a PAM session needs a pid namespace "
			       "('unshare = pid'): it is what ends the session");
	if (plan->seccomp != SECCOMP_NONE && !plan->no_new_privs)
		return cc_fail(err, "a PAM session with a seccomp filter needs "
			       "'no-new-privs = yes': the user's launcher cannot "
			       "load the filter otherwise");
	return plan_check_hostname(plan, err);
}

/* Whether OP's destination is at, above or below the system path SP. */
static bool op_covers(const struct fs_op *op, const char *sp)
{
	if (strcmp(sp, "/") == 0)
		return strcmp(op->dest, "/") == 0;
	return path_is_under(op->dest, sp) || path_is_under(sp, op->dest);
}

const char *plan_op_service_path(const struct fs_op *op)
{
	const char *sp;
	for (size_t k = 0; (sp = plan_service_system_path(k)); k++)
		if (op_covers(op, sp))
			return sp;
	return NULL;
}

int plan_check_service(const struct plan *plan, struct cc_error *err)
{
	const char *sp;
	if (plan_check_service_mode(plan, err) < 0)
		return -1;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		for (size_t k = 0; (sp = plan_service_system_path(k)); k++) {
			bool root = strcmp(sp, "/") == 0;
			bool covers = op_covers(op, sp);
			const char *why = NULL;
			if (covers && op_is_bind(op->type) && op->source_user_writable)
				why = "a source a non-root user can write";
			else if (op->type == OP_DIR && strcmp(op->dest, sp) == 0 && !root)
				why = "a `dir`, which belongs to the user";
			else if (op->type == OP_SYMLINK && strcmp(op->dest, sp) == 0 && !root &&
				 !symlink_stays_in_system_paths(op))
				why = "a symlink that leads out of the system paths";
			if (why)
				return cc_fail(err, "%s:%d: %s %s: %s comes from %s, and the "
					       "root service process would read it",
					       op->file ? op->file : "?", op->line,
					       plan_op_type_name(op->type, op->optional),
					       op->dest, sp, why);
		}
	}
	return plan_check_code_paths(plan, "root (the service, its PAM modules, "
				     "cocoonctl enter --root)", err);
}

int plan_check_expanded(struct plan *plan, struct cc_error *err)
{
	for (size_t i = 0; i < plan->nops; i++) {
		struct fs_op *op = &plan->ops[i];
		if (op_is_bind(op->type))
			op->source_user_writable = plan_path_user_writable(op->source);
	}
	const struct fs_op *bind, *later = plan_find_unsafe_creation(plan, false, &bind);
	if (later) {
		char msg[1024];
		plan_describe_unsafe_creation(later, bind, msg, sizeof(msg));
		return cc_fail(err, "%s:%d: %s", later->file, later->line, msg);
	}
	return 0;
}
