// SPDX-License-Identifier: GPL-2.0-or-later
/* The login's terminal by name inside the sandbox (mounts.h). A new
 * devpts instance cannot show a pty of the host's, so the node itself
 * is bound into the sandbox's /dev: as /dev/console for the login that
 * builds the tree, as /dev/console-ID for one that joins a shared
 * sandbox (its own name: screen -r compares the names of terminals). */
#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fault.h"
#include "mount_tree.h"
#include "mounts.h"
#include "syscalls.h"
#include "util.h"

/* The kernel only copies mounts of the caller's own namespace, and stdin
 * was opened in the host's: its node is looked up again by the path the
 * kernel gives for it, without symlinks, and must be the same inode. */
int mounts_terminal_copy(int *tree, struct cc_error *err)
{
	struct stat in, found;
	char path[PATH_MAX];
	*tree = -1;
	if (!isatty(STDIN_FILENO) || fstat(STDIN_FILENO, &in) < 0)
		return 0;
	ssize_t n = readlink("/proc/self/fd/0", path, sizeof(path) - 1);
	if (n <= 0 || path[0] != '/')
		return 0;
	path[n] = '\0';
	int fd AUTOCLOSE = sys_openat2(AT_FDCWD, path, O_PATH | O_CLOEXEC, RESOLVE_SAFE);
	if (fd < 0 || fstat(fd, &found) < 0 || !S_ISCHR(found.st_mode) ||
	    found.st_rdev != in.st_rdev || found.st_ino != in.st_ino ||
	    found.st_dev != in.st_dev)
		return 0; /* a terminal this namespace cannot name */
	*tree = sys_open_tree(fd, "", AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (*tree < 0)
		return cc_fail_errno(err, "open_tree %s (the login's terminal)", path);
	return 0;
}

/* The sandbox's /dev, as its build made it (a plan's own `dev`, which
 * the caller checks): the root of a tmpfs mount, root's and writable by
 * root alone, reached without symlinks. Not the host's /dev, which
 * devtmpfs would show as a tmpfs too. */
static int sandbox_dev(struct cc_error *err)
{
	int dev AUTOCLOSE = sys_openat2(AT_FDCWD, "/dev", O_PATH | O_DIRECTORY | O_CLOEXEC,
					RESOLVE_SAFE);
	if (dev < 0)
		return cc_fail_errno(err, "open /dev in the sandbox");
	struct statx stx;
	struct statfs fs;
	if (statx(dev, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) < 0 ||
	    fstatfs(dev, &fs) < 0 || fs.f_type != TMPFS_MAGIC || stx.stx_uid != 0 ||
	    (stx.stx_mode & 022) || !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return cc_fail(err, "the sandbox's /dev is not the tmpfs its build made");
	return steal_fd(&dev);
}

int mounts_terminal_attach(int tree, const char *name, struct cc_error *err)
{
	if (FAULT("terminal attach", err) < 0)
		return -1;
	int dev AUTOCLOSE = sandbox_dev(err);
	if (dev < 0)
		return -1;
	{
		int f AUTOCLOSE = openat(dev, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					 O_CLOEXEC, 0444);
		if (f < 0)
			return cc_fail_errno(err, "create /dev/%s", name);
	}
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr) < 0 ||
	    sys_move_mount(tree, "", dev, name, MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		int saved = errno;
		unlinkat(dev, name, 0);
		errno = saved;
		return cc_fail_errno(err, "bind the login's terminal on /dev/%s", name);
	}
	return 0;
}

void mounts_terminal_detach(const char *name)
{
	struct cc_error ignored;
	int dev AUTOCLOSE = sandbox_dev(&ignored);
	if (dev < 0)
		return;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/dev/%s", name);
	/* The node and the file under it: the name is the sandbox's /dev's,
	 * checked above, where only root makes entries. */
	if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0 || errno == EINVAL)
		unlinkat(dev, name, 0);
}
