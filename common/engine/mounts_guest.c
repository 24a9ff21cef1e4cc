// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest accounts' mount operations: tmpfs home, private /tmp. */
/* Guest accounts' operations: a tmpfs home filled from the skeleton,
 * and a private /tmp of the session's or, persistent, of the user's. */
#include "mount_tree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "home.h"

/* A tmpfs home of the user's (in service mode too), filled from the
 * skeleton while still detached: nothing of the user's can see or race
 * it before it holds the whole copy. */
int mounts_op_home_tmpfs(struct tree_build *b, const struct fs_op *op)
{
	char size[32];
	tree_tmpfs_size(b, op, size, sizeof(size));
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0 || creds_fs_root(b->err) < 0)
		return -1;
	int rc = -1;
	int skel AUTOCLOSE = home_skel_open(op->source, b->err);
	int mnt AUTOCLOSE = -1;
	if (skel >= 0)
		mnt = tree_tmpfs_owned(b, size, op->mode, NULL, b->who->uid, b->who->gid);
	if (mnt >= 0) {
		struct cc_error why;
		if (home_skel_copy(skel, op->source, mnt, b->who->uid, b->who->gid, &why) < 0)
			tree_fail(b, 0, "%s", why.msg);
		else
			rc = 0;
	}
	if (tree_fs_default(b) < 0)
		return -1;
	if (rc < 0)
		return skel < 0 ? cc_prefix(b->err, "%s:%d: home-tmpfs %s", op->file,
					    op->line, op->dest) : -1;
	return tree_attach(b, mnt, dst, op->dest);
}

/* /tmp, /var/tmp or /dev/shm of root's, mode 01777: a fresh tmpfs, or
 * the user's persistent instance on the host. */
int mounts_op_private_tmp(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0)
		return -1;
	if (!op->source) {
		char size[32];
		tree_tmpfs_size(b, op, size, sizeof(size));
		int mnt AUTOCLOSE = tree_tmpfs_owned(b, size, op->mode, NULL, 0, 0);
		return mnt < 0 ? -1 : tree_attach(b, mnt, dst, op->dest);
	}
	if (creds_fs_root(b->err) < 0)
		return -1;
	struct cc_error why;
	int inst AUTOCLOSE = home_private_tmp_instance(op->source, b->who->uid, &why);
	if (tree_fs_default(b) < 0)
		return -1;
	if (inst < 0)
		return tree_fail(b, 0, "%s", why.msg);
	int tree AUTOCLOSE = sys_open_tree(inst, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return tree_fail(b, errno, "open_tree %s", op->source);
	if (tree_set_attrs(b, tree, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, op->source) < 0)
		return -1;
	return tree_attach(b, tree, dst, op->dest);
}
