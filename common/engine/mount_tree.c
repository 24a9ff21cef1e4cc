// SPDX-License-Identifier: GPL-2.0-or-later
/* The mount tree's primitives, which every mount operation is made of. */
/* The primitives the operations of mounts.c are made of: destinations
 * resolved inside the new root without following a symlink, detached
 * mounts made, given their flags and attached there, and the failure
 * message that names the operation. */
#include "mount_tree.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "credentials.h"
#include "plan_values.h"
#include "syscalls.h"

/* The file-system identity the build returns to after a step that
 * needed another: the user's, or root's in service mode. */
int tree_fs_default(struct tree_build *b)
{
	return b->service ? creds_fs_root(b->err) : creds_fs_user(b->who, b->err);
}

/* Fail the running operation: "file:line: ro-bind /usr: open_tree: ..." */
int tree_fail(struct tree_build *b, int errnum, const char *fmt, ...)
{
	char step[600], where[300] = "", what[2 * PATH_MAX + 32];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(step, sizeof(step), fmt, ap);
	va_end(ap);

	const struct fs_op *op = b->op;
	if (!op) {
		snprintf(what, sizeof(what), "root tmpfs");
	} else {
		if (op->file)
			snprintf(where, sizeof(where), "%s:%d: ", op->file, op->line);
		plan_op_describe(op, what, sizeof(what));
	}
	return cc_fail_errnum(b->err, errnum, "%s%s: %s", where, what, step);
}

/* ---- Resolving destinations inside the new root ---- */

/* Open the directory that holds DEST, one component at a time from the
 * root, never following a symlink, creating missing directories (0755,
 * as the user: what bubblewrap creates belongs to the user too; as root
 * in service mode, where a root service reads the tree). The last
 * component goes to LAST. */
int tree_open_parent(struct tree_build *b, const char *dest,
		     char last[NAME_MAX + 1])
{
	int dir AUTOCLOSE = fcntl(b->rootfd, F_DUPFD_CLOEXEC, 3);
	if (dir < 0)
		return tree_fail(b, errno, "dup");
	const char *p = dest + 1;
	for (;;) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);
		char name[NAME_MAX + 1];
		memcpy(name, p, n);
		name[n] = '\0';
		if (!*end) {
			memcpy(last, name, n + 1);
			return steal_fd(&dir);
		}
		int sub = sys_openat2(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC,
				      RESOLVE_BENEATH | RESOLVE_SAFE);
		if (sub < 0 && errno == ENOENT) {
			if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
				return tree_fail(b, errno, "mkdir %.*s", (int)(end - dest), dest);
			sub = sys_openat2(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC,
					  RESOLVE_BENEATH | RESOLVE_SAFE);
		}
		if (sub < 0)
			return tree_fail(b, errno, "%.*s", (int)(end - dest), dest);
		close(dir);
		dir = sub;
		p = end + 1;
	}
}


/* Open DEST (O_PATH), creating it and its parents when missing. */
int tree_open_dest(struct tree_build *b, const char *dest, enum tree_make make)
{
	if (strcmp(dest, "/") == 0) {
		int fd = fcntl(b->rootfd, F_DUPFD_CLOEXEC, 3);
		return fd < 0 ? tree_fail(b, errno, "dup") : fd;
	}
	/* Usually everything exists but the last component or nothing is
	 * missing: one openat2 settles the common case. */
	int fd = sys_openat2(b->rootfd, dest + 1, O_PATH | O_CLOEXEC,
			     RESOLVE_IN_ROOT | RESOLVE_SAFE);
	if (fd >= 0)
		return fd;
	if (errno != ENOENT || make == TREE_MAKE_NONE)
		return tree_fail(b, errno, "%s", dest);

	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = tree_open_parent(b, dest, last);
	if (dir < 0)
		return -1;
	if (make == TREE_MAKE_DIR) {
		if (mkdirat(dir, last, 0755) < 0 && errno != EEXIST)
			return tree_fail(b, errno, "mkdir %s", dest);
	} else {
		int f AUTOCLOSE = openat(dir, last, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					 O_CLOEXEC, 0444);
		if (f < 0 && errno != EEXIST)
			return tree_fail(b, errno, "create %s", dest);
	}
	fd = sys_openat2(dir, last, O_PATH | O_CLOEXEC, RESOLVE_BENEATH | RESOLVE_SAFE);
	return fd < 0 ? tree_fail(b, errno, "%s", dest) : fd;
}

/* ---- Making and attaching mounts ---- */


/* The kernel explains a failed fsconfig in the context's message log. */
static void fs_log(int fs, char *buf, size_t size)
{
	ssize_t n = read(fs, buf, size - 1);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* A new detached mount of TYPE with OPTS and mount attributes ATTRS. */
int tree_fs_new(struct tree_build *b, const char *type, const struct tree_fs_opt *opts,
		size_t nopts, unsigned attrs)
{
	int fs AUTOCLOSE = sys_fsopen(type, FSOPEN_CLOEXEC);
	if (fs < 0)
		return tree_fail(b, errno, "fsopen %s", type);
	/* The source names the file system type in mountinfo and df, as
	 * mount(8) would. */
	const char *key = "source";
	const char *value = type;
	int rc = sys_fsconfig(fs, FSCONFIG_SET_STRING, key, value, 0);
	for (size_t i = 0; rc == 0 && i <= nopts; i++) {
		if (i == nopts) {
			key = "create";
			value = NULL;
			rc = sys_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
		} else {
			key = opts[i].key;
			value = opts[i].value;
			rc = value ? sys_fsconfig(fs, FSCONFIG_SET_STRING, key, value, 0)
				   : sys_fsconfig(fs, FSCONFIG_SET_FLAG, key, NULL, 0);
		}
	}
	if (rc < 0) {
		int e = errno;
		char log[256];
		fs_log(fs, log, sizeof(log));
		return tree_fail(b, e, "%s %s%s%s%s%s", type, key, value ? "=" : "",
				 value ? value : "", *log ? ": " : "", log);
	}
	int mnt = sys_fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	return mnt < 0 ? tree_fail(b, errno, "fsmount %s", type) : mnt;
}

/* A mount for the sandbox's root ("bind /srv/chroot /") replaces the
 * current root instead of stacking on it: what it covers would be hidden
 * anyway, and the sandbox's root must remain the only mount on the host
 * root's dentry. pivot_root moves whatever sits there along with the
 * old root, on top of the new one, where umount2(".") would then detach
 * only the topmost mount and leave the host's tree one "cd /.." away. */
static int replace_root(struct tree_build *b, int mnt)
{
	if (umount2("/", MNT_DETACH) < 0)
		return tree_fail(b, errno, "detaching the previous root");
	if (sys_move_mount(mnt, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount onto the root");
	int fd = fcntl(mnt, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return tree_fail(b, errno, "dup");
	close(b->rootfd);
	b->rootfd = fd;
	return 0;
}

/* Attach detached mount MNT on the directory or file DST. MNT stays
 * open (it now names the attached mount). */
int tree_attach(struct tree_build *b, int mnt, int dst, const char *dest)
{
	if (strcmp(dest, "/") == 0)
		return replace_root(b, mnt);
	if (sys_move_mount(mnt, "", dst, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount onto %s", dest);
	return 0;
}

int tree_set_attrs(struct tree_build *b, int tree, unsigned attrs, const char *what)
{
	struct mount_attr attr = { .attr_set = attrs };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr) < 0)
		return tree_fail(b, errno, "mount_setattr %s", what);
	return 0;
}

int tree_tmpfs_owned(struct tree_build *b, const char *size, unsigned mode,
		     const char *inodes, uid_t owner, gid_t group)
{
	char modes[16], uid[16], gid[16], count[32];
	if (!inodes) {
		unsigned long long n = strtoull(size, NULL, 10) / TMPFS_BYTES_PER_INODE;
		snprintf(count, sizeof(count), "%llu", n > TMPFS_MIN_INODES ? n
			 : TMPFS_MIN_INODES);
		inodes = count;
	}
	snprintf(modes, sizeof(modes), "%o", mode & 07777);
	snprintf(uid, sizeof(uid), "%u", (unsigned)owner);
	snprintf(gid, sizeof(gid), "%u", (unsigned)group);
	struct tree_fs_opt opts[] = {
		{ "size", size }, { "mode", modes }, { "uid", uid }, { "gid", gid },
		{ "nr_inodes", inodes },
	};
	return tree_fs_new(b, "tmpfs", opts, 5, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
}

/* The user's, or root's in service mode. */
int tree_tmpfs_new(struct tree_build *b, const char *size, unsigned mode,
		   const char *inodes)
{
	return tree_tmpfs_owned(b, size, mode, inodes, b->service ? 0 : b->who->uid,
				b->service ? 0 : b->who->gid);
}

void tree_tmpfs_size(const struct tree_build *b, const struct fs_op *op, char *size, size_t len)
{
	snprintf(size, len, "%llu", op && op->size ? op->size : b->plan->tmpfs_size);
}
