// SPDX-License-Identifier: GPL-2.0-or-later
/* Guest homes seeded from the skeleton, and persistent private /tmp. */
/* Seeding tmpfs homes from a skeleton, and making the persistent
 * instances of private temporary directories: as root, on descriptors,
 * never following a symlink. */
#include "home.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "trusted_file.h"
#include "util.h"

/* Root's and writable by nobody else: what a skeleton entry must be. */
static int check_root_only(const struct stat *st, const char *path,
			   struct cc_error *err)
{
	if (st->st_uid != 0)
		return cc_fail(err, "skeleton entry %s is owned by uid %u, not root "
			       "(a guest could plant files for the next one)", path,
			       (unsigned)st->st_uid);
	if (!S_ISLNK(st->st_mode) && (st->st_mode & (S_IWGRP | S_IWOTH)))
		return cc_fail(err, "skeleton entry %s is writable by %s (mode %04o)",
			       path, st->st_mode & S_IWOTH ? "others" : "its group",
			       (unsigned)(st->st_mode & 07777));
	return 0;
}

int home_skel_open(const char *path, struct cc_error *err)
{
	if (path_trusted(path, err) < 0)
		return cc_prefix(err, "home skeleton");
	int fd AUTOCLOSE = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return cc_fail_errno(err, "home skeleton %s", path);
	if (fstat(fd, &st) < 0)
		return cc_fail_errno(err, "home skeleton %s", path);
	if (check_root_only(&st, path, err) < 0)
		return cc_prefix(err, "home skeleton");
	return steal_fd(&fd);
}

static int copy_error(const char *path, struct cc_error *err)
{
	if (errno == ENOSPC)
		return cc_fail(err, "copying the skeleton's %s: no space left in the "
			       "home (raise home-size)", path);
	return cc_fail_errno(err, "copying the skeleton's %s", path);
}

/* Not inlined: its 64 KiB buffer would then sit in every level of
 * copy_tree's recursion (17 of them: more than the 1 MiB stack service
 * mode builds on). */
__attribute__((noinline))
static int copy_file(int dir, const char *name, const struct stat *st, int dst,
		     const char *path, uid_t uid, gid_t gid, struct cc_error *err)
{
	int in AUTOCLOSE = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				  O_CLOEXEC);
	struct stat now;
	if (in < 0 || fstat(in, &now) < 0)
		return copy_error(path, err);
	if (!stat_same_file(&now, st))
		return cc_fail(err, "skeleton entry %s changed while copying", path);
	int out AUTOCLOSE = openat(dst, name, O_WRONLY | O_CREAT | O_EXCL |
				   O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return copy_error(path, err);
	char buf[65536];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return copy_error(path, err);
		if (n == 0)
			break;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return copy_error(path, err);
			done += w;
		}
	}
	if (fchown(out, uid, gid) < 0 || fchmod(out, st->st_mode & 0777) < 0)
		return copy_error(path, err);
	return 0;
}

static int copy_tree(int src, const char *path, int dst, uid_t uid, gid_t gid,
		     unsigned depth, struct cc_error *err)
{
	if (depth > SKEL_MAX_DEPTH)
		return cc_fail(err, "skeleton %s is nested deeper than %d directories",
			       path, SKEL_MAX_DEPTH);
	DIR *d AUTOCLOSEDIR = dir_stream(src);
	if (!d)
		return cc_fail_errno(err, "reading the skeleton's %s", path);
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (errno = 0, e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char sub[PATH_MAX];
		struct stat st;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = cc_fail_errno(err, "reading the skeleton's %s", sub);
		} else if (check_root_only(&st, sub, err) < 0) {
			rc = -1;
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_file(dirfd(d), e->d_name, &st, dst, sub, uid, gid, err);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);
			if (n >= 0)
				target[n] = '\0';
			if (n < 0 || symlinkat(target, dst, e->d_name) < 0 ||
			    fchownat(dst, e->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
				rc = copy_error(sub, err);
		} else if (S_ISDIR(st.st_mode)) {
			int in AUTOCLOSE = openat(dirfd(d), e->d_name, O_PATH | O_DIRECTORY |
						  O_NOFOLLOW | O_CLOEXEC);
			int out AUTOCLOSE = -1;
			if (in < 0 || mkdirat(dst, e->d_name, 0700) < 0 ||
			    (out = openat(dst, e->d_name, O_RDONLY | O_DIRECTORY |
					  O_NOFOLLOW | O_CLOEXEC)) < 0)
				rc = copy_error(sub, err);
			else if ((rc = copy_tree(in, sub, out, uid, gid, depth + 1, err)) == 0 &&
				 (fchown(out, uid, gid) < 0 ||
				  fchmod(out, st.st_mode & 01777) < 0))
				rc = copy_error(sub, err);
		}
		/* Devices, fifos and sockets have no place in a home. */
	}
	if (rc == 0 && errno)
		rc = cc_fail_errno(err, "reading the skeleton's %s", path);
	return rc;
}

int home_skel_copy(int skel, const char *path, int dst, uid_t uid, gid_t gid,
		   struct cc_error *err)
{
	return copy_tree(skel, path, dst, uid, gid, 0, err);
}

/* NAME in DIR: made root's with MODE when missing, else it must be a
 * directory (not a symlink) of root's with exactly MODE. */
static int state_dir(int dir, const char *name, const char *path, mode_t mode,
		     struct cc_error *err)
{
	int fd AUTOCLOSE = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				  O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* Made whole under a name of this process's, then renamed into
		 * place: a session starting meanwhile never sees it half made,
		 * and a crash leaves only that name behind. */
		char tmp[64];
		snprintf(tmp, sizeof(tmp), ".new.%ld.%.32s", (long)getpid(), name);
		int made = mkdirat(dir, tmp, 0) < 0 ? -1 :
			   openat(dir, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool ready = made >= 0 && fchown(made, 0, 0) == 0 && fchmod(made, mode) == 0;
		if (made >= 0)
			close(made);
		if (!ready || renameat2(dir, tmp, dir, name, RENAME_NOREPLACE) < 0) {
			int saved = errno;
			unlinkat(dir, tmp, AT_REMOVEDIR);
			if (!ready || saved != EEXIST)
				return cc_fail_errnum(err, saved, "mkdir %s", path);
		}
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return cc_fail(err, "%s is not a directory (a symlink?): refusing it", path);
	if (fd < 0)
		return cc_fail_errno(err, "open %s", path);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cc_fail_errno(err, "%s", path);
	if (st.st_uid != 0 || st.st_gid != 0 || (st.st_mode & 07777) != mode)
		return cc_fail(err, "%s is owned by %u:%u with mode %04o, not root's "
			       "with mode %04o: refusing it", path, (unsigned)st.st_uid,
			       (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777),
			       (unsigned)mode);
	return steal_fd(&fd);
}

int home_private_tmp_instance(const char *source, uid_t uid, struct cc_error *err)
{
	char uidname[16], prefix[PATH_MAX];
	snprintf(uidname, sizeof(uidname), "%u", (unsigned)uid);
	snprintf(prefix, sizeof(prefix), "%s/%s/", COCOON_PRIVATE_TMP_DIR, uidname);
	const char *name = source + strlen(prefix);
	if (strncmp(source, prefix, strlen(prefix)) != 0 || !*name || strchr(name, '/') ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return cc_fail(err, "%s is not an instance under %s", source, prefix);
	/* The state directory is root's alone, like a policy directory. */
	if (path_trusted(COCOON_STATEDIR, err) < 0)
		return cc_prefix(err, "state directory (make install creates it)");
	int state AUTOCLOSE = open(COCOON_STATEDIR, O_RDONLY | O_DIRECTORY |
				   O_NOFOLLOW | O_CLOEXEC);
	if (state < 0)
		return cc_fail_errno(err, "state directory %s", COCOON_STATEDIR);
	int top AUTOCLOSE = state_dir(state, "private-tmp", COCOON_PRIVATE_TMP_DIR,
				      0755, err);
	if (top < 0)
		return -1;
	prefix[strlen(prefix) - 1] = '\0';
	int mine AUTOCLOSE = state_dir(top, uidname, prefix, 0700, err);
	if (mine < 0)
		return -1;
	int inst AUTOCLOSE = state_dir(mine, name, source, 01777, err);
	if (inst < 0)
		return -1;
	int fd = openat(inst, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? cc_fail_errno(err, "%s", source) : fd;
}
