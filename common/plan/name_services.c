// SPDX-License-Identifier: GPL-2.0-or-later
/* The name-service daemons' endpoints: found, planned, opened, judged. */
/* The name-service daemons' endpoints: which the host has, as plan ops,
 * and each opened and judged for the engine to bind from its descriptor. */
#include "name_services.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "plan_check.h"
#include "syscalls.h"
#include "util.h"

/* Directories, not sockets: nscd, nslcd and sssd make a new socket (and
 * sssd new memory caches) each time they start, and a bind of the old
 * inode would go stale in a long session; a bind of the directory shows
 * whatever is in it now. What else each directory holds is said in
 * cocoon.conf(5), NAME SERVICES. */
static const struct endpoint {
	const char *daemon;
	const char *path;
} endpoints[] = {
	{ "nscd", "/run/nscd" },                       /* socket */
	{ "nslcd", "/run/nslcd" },                     /* socket */
	{ "sssd", "/var/lib/sss/pipes" },              /* nss (and pam) */
	{ "sssd", "/var/lib/sss/mc" },                 /* memory caches */
	{ "systemd-userdb", "/run/systemd/userdb" },   /* varlink sockets */
	{ "winbind", "/run/samba/winbindd" },          /* pipe */
};

static bool planned_at(const struct plan *plan, const char *dest)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (strcmp(plan->ops[i].dest, dest) == 0)
			return true;
	return false;
}

/* In a bind the user can write, root would create the mount point where
 * the user may have planted a symlink: such an endpoint is left out. */
static bool in_user_writable_bind(const struct plan *plan, const char *dest)
{
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if (op_is_bind(op->type) && path_is_under(dest, op->dest) &&
		    plan_source_writable_symbolic(op->source))
			return true;
	}
	return false;
}

/* Judged now for explain's sake, with the checks the engine makes again
 * when it binds: one that fails them is left out and said so. */
static bool passes_checks(struct plan *plan, const struct endpoint *e)
{
	char why[PATH_MAX + 128];
	int fd = name_service_open(e->path, plan->who.uid, plan->uid_min, why, sizeof(why));
	if (fd >= 0) {
		close(fd);
		return true;
	}
	char **note = ARRAY_PUSH(plan->endpoints_left_out, plan->nendpoints_left_out,
				 plan->endpoints_left_out_cap);
	*note = errno ? xasprintf("%s (%s): %s", e->path, e->daemon, strerror(errno))
		      : xasprintf("%s (%s): %s", e->path, e->daemon, why);
	return false;
}

void name_services_plan(struct plan *plan, const char *file, int line)
{
	struct stat st;
	for (size_t i = 0; i < ARRAY_SIZE(endpoints); i++) {
		const struct endpoint *e = &endpoints[i];
		if (lstat(e->path, &st) < 0 || planned_at(plan, e->path) ||
		    in_user_writable_bind(plan, e->path) || !passes_checks(plan, e))
			continue;
		struct fs_op *op = ARRAY_PUSH(plan->ops, plan->nops, plan->ops_cap);
		memset(op, 0, sizeof(*op));
		op->type = OP_NAME_SERVICE;
		op->optional = true;
		op->source = xstrdup(e->path);
		op->dest = xstrdup(e->path);
		op->content = xstrdup(e->daemon);
		op->file = plan_intern_file(plan, file);
		op->line = line;
	}
}

/* Whether the directory ST, at PATH, can only be changed by root or a
 * system account other than USER: else WHY says who else could. */
static bool trusted_dir(const struct stat *st, const char *path, uid_t user,
			uid_t uid_min, char *why, size_t len)
{
	if (S_ISLNK(st->st_mode))
		snprintf(why, len, "%s is a symlink", path);
	else if (!S_ISDIR(st->st_mode))
		snprintf(why, len, "%s is not a directory", path);
	else if (st->st_uid != 0 && (st->st_uid >= uid_min || st->st_uid == user))
		snprintf(why, len, "%s is owned by uid %u, neither root nor a system "
			 "account other than the session's user", path,
			 (unsigned)st->st_uid);
	else if (st->st_mode & S_IWOTH)
		snprintf(why, len, "%s is writable by others", path);
	else if ((st->st_mode & S_IWGRP) && st->st_gid != 0)
		snprintf(why, len, "%s is writable by group %u", path, (unsigned)st->st_gid);
	else
		return true;
	return false;
}

/* Whether the directory open at FD has an access ACL beyond its mode
 * bits: a named user's write permission would not show in st_mode. An
 * O_PATH descriptor takes no fgetxattr, so its /proc/self/fd name is
 * asked; any answer but "none" counts as an ACL (fail closed). */
static bool has_access_acl(int fd)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (getxattr(proc, "system.posix_acl_access", NULL, 0) >= 0)
		return true;
	return errno != ENODATA && errno != EOPNOTSUPP;
}

/* name_service_open's answer for a path left out: -1 with errno 0. */
static int left_out(void)
{
	errno = 0;
	return -1;
}

int name_service_open(const char *path, uid_t user, uid_t uid_min, char *why,
		      size_t len)
{
	struct stat st;
	char so_far[PATH_MAX] = "/";
	if (path[0] != '/' || strlen(path) >= sizeof(so_far)) {
		errno = EINVAL;
		return -1;
	}
	int dir AUTOCLOSE = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	for (const char *p = path + 1;;) {
		if (fstat(dir, &st) < 0)
			return -1;
		if (!trusted_dir(&st, so_far, user, uid_min, why, len))
			return left_out();
		if (has_access_acl(dir)) {
			snprintf(why, len, "%s has a POSIX ACL, which could let another "
				 "account write it", so_far);
			return left_out();
		}
		if (!*p)
			return steal_fd(&dir);
		size_t n = strcspn(p, "/");
		char name[NAME_MAX + 1];
		if (n == 0 || n > NAME_MAX) {
			errno = EINVAL;
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		snprintf(so_far + strlen(so_far), sizeof(so_far) - strlen(so_far), "%s%s",
			 strcmp(so_far, "/") == 0 ? "" : "/", name);
		/* O_NOFOLLOW with O_PATH opens a symlink itself, which the
		 * check above then refuses. */
		int sub = sys_openat2(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC,
				      RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				      RESOLVE_NO_MAGICLINKS);
		if (sub < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)) {
			snprintf(why, len, "%s is gone", so_far);
			return left_out();
		}
		if (sub < 0)
			return -1;
		close(dir);
		dir = sub;
		p += n;
		p += strspn(p, "/");
	}
}
