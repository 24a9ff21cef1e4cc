// SPDX-License-Identifier: GPL-2.0-or-later
/* The name-service mount operation: a daemon's endpoint bound read-only. */
/* The name-service operation: a daemon's endpoint directory bound
 * read-only from the descriptor its checks were made on. */
#include "mount_tree.h"

#include <errno.h>

#include "name_services.h"

/* Not a policy bind: the directory is the daemon's (root or a system
 * account, never the user, writable by nobody else), which is how it
 * meets the rule that no source a non-root user can write is bound in.
 * Opened as root (the user may not search every directory on the way),
 * component by component without following a symlink, and the mount
 * made from that very descriptor, so a rename or a symlink swapped in
 * after the check changes nothing. An endpoint that fails the checks or
 * is gone since the plan was made is skipped, as if the host had no such
 * daemon: the session only loses the names it serves. Only this
 * directory is bound, not mounts below it; read-only, and neither
 * set-user-ID programs, devices nor programs at all run from it. */
int mounts_op_name_service(struct tree_build *b, const struct fs_op *op)
{
	char why[PATH_MAX + 128];
	if (creds_fs_root(b->err) < 0)
		return -1;
	int src AUTOCLOSE = name_service_open(op->source, b->who->uid, b->plan->uid_min,
					      why, sizeof(why));
	int e = errno;
	if (tree_fs_default(b) < 0)
		return -1;
	if (src < 0 && e == 0)
		return 0;
	if (src < 0)
		return tree_fail(b, e, "open %s", op->source);
	int tree AUTOCLOSE = sys_open_tree(src, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return tree_fail(b, errno, "open_tree %s", op->source);
	if (tree_set_attrs(b, tree, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			   MOUNT_ATTR_NOEXEC, op->source) < 0)
		return -1;
	/* Where the plan's tree has no room for it (a read-only bind of
	 * something else at /run, a symlink on the way), the endpoint is
	 * left out as well: the policy's tree stands as it was written. */
	struct cc_error ignored;
	struct cc_error *saved = b->err;
	b->err = &ignored;
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	b->err = saved;
	struct stat st;
	if (dst < 0 || fstat(dst, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	return tree_attach(b, tree, dst, op->dest);
}
