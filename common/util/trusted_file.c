// SPDX-License-Identifier: GPL-2.0-or-later
/* The trust rule for files read as root, and reading them. */
/* The trust rule for files cocoon reads as root: the file and every
 * directory above it owned by root and writable by nobody else. */
#include "trusted_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static int check_owner(const char *path, const struct stat *st, struct cc_error *err)
{
	if (st->st_uid != 0)
		return cc_fail(err, "%s is owned by uid %u, not root", path,
			       (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return cc_fail(err, "%s is writable by %s (mode %04o)", path,
			       st->st_mode & S_IWOTH ? "others" : "its group",
			       (unsigned)(st->st_mode & 07777));
	return 0;
}

/* Check PATH's directories from "/" down, and PATH itself: with lstat, so
 * a symlink on the way is judged by its own owner; its target is checked
 * when path_trusted walks the resolved path. */
static int check_components(const char *path, struct cc_error *err)
{
	char *copy = xstrdup(path);
	int rc = 0;
	for (char *slash = copy;; slash = strchr(slash + 1, '/')) {
		char saved = '\0';
		const char *prefix = copy;
		if (slash == copy) {
			prefix = "/";
		} else if (slash) {
			saved = *slash;
			*slash = '\0';
		}
		struct stat st;
		if (lstat(prefix, &st) < 0)
			rc = cc_fail_errno(err, "%s", prefix);
		else if (S_ISLNK(st.st_mode) && st.st_uid != 0)
			rc = cc_fail(err, "%s is a symlink owned by uid %u, not root",
				     prefix, (unsigned)st.st_uid);
		else if (!S_ISLNK(st.st_mode))
			rc = check_owner(prefix, &st, err);
		if (slash && slash != copy)
			*slash = saved;
		if (rc < 0 || !slash)
			break;
	}
	free(copy);
	return rc;
}

int path_trusted(const char *path, struct cc_error *err)
{
	int rc = -1;
	char *real = NULL;
	if (path[0] != '/')
		cc_fail(err, "%s: not an absolute path", path);
	else if (!(real = realpath(path, NULL)))
		cc_fail_errno(err, "%s", path);
	else if (check_components(path, err) == 0 &&
		 (strcmp(real, path) == 0 || check_components(real, err) == 0))
		rc = 0;
	free(real);
	if (rc < 0 && real)
		cc_prefix(err, "%s: refused (policy files and the directories above "
			  "them must be owned by root and not writable by group or "
			  "others)", path);
	return rc;
}

/* Read the regular file PATH, at most MAX bytes; ROOT_OWNED: it must pass
 * check_owner once open (in case it changed since path_trusted). */
int read_regular_file(const char *path, size_t max, bool root_owned, char **text,
			     size_t *len, struct cc_error *err)
{
	/* O_NONBLOCK: a FIFO put there must not hang a login. */
	int fd AUTOCLOSE = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ELOOP)
		return cc_fail(err, "%s: a symbolic link, not followed", path);
	if (fd < 0)
		return cc_fail_errno(err, "%s", path);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cc_fail_errno(err, "%s", path);
	if (!S_ISREG(st.st_mode))
		return cc_fail(err, "%s: not a regular file", path);
	if (root_owned && check_owner(path, &st, err) < 0)
		return -1;
	if ((size_t)st.st_size > max)
		return cc_fail(err, "%s: larger than %zu bytes", path, max);
	char *buf AUTOFREE = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return cc_fail_errno(err, "%s: read", path);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*len = got;
	*text = steal_ptr(&buf);
	return 0;
}

int read_trusted_file(const char *path, size_t max, char **text, size_t *len,
		      struct cc_error *err)
{
	if (path_trusted(path, err) < 0)
		return -1;
	return read_regular_file(path, max, true, text, len, err);
}
