// SPDX-License-Identifier: GPL-2.0-or-later
/* Building a sandbox's root from the plan's operations, then pivot_root. */
/* Building a sandbox's root: one function per operation type, run in
 * the plan's order on a fresh tmpfs.
 *
 * Two rules hold everywhere in this file:
 * - Every path inside the new root is resolved from a descriptor of that
 *   root with RESOLVE_NO_SYMLINKS (openat2), one component at a time when
 *   directories have to be created, and every mount lands on the
 *   descriptor so resolved. A symlink planted by the user (inside a bind
 *   of their home, say) can therefore never redirect a mount or a
 *   creation; it makes the operation fail instead.
 * - Mounts are made detached (open_tree, fsmount), given their flags
 *   while still detached (nosuid everywhere, nodev unless dev-bind,
 *   read-only recursively for ro-bind), then attached with move_mount:
 *   no mount is ever visible with weaker flags than it ends up with.
 *
 * The root tmpfs is attached on top of the host's "/" in this private
 * mount namespace. Path lookups start at the process's root, which stays
 * the host's root mount underneath, so host paths (bind sources) keep
 * resolving as on the host while the sandbox is built, and nothing of
 * the host tree is shadowed (bubblewrap mounts over /tmp instead and
 * then reaches the host through a second pivot). Exactly one mount sits
 * there at any time, the sandbox's root (see replace_root, mount_tree.c). */
#include "mounts.h"
#include "mount_tree.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "credentials.h"
#include "fault.h"
#include "home.h"
#include "plan_check.h"
#include "plan_values.h"
#include "syscalls.h"
#include "util.h"

/* ---- The operations ---- */

/* bind_clone's answer for an optional source that is not there. */
#define BIND_SKIP (-2)

/* A detached clone of the bind's source tree: its descriptor, BIND_SKIP
 * when an optional source is missing, or -1 with the build failed. */
static int bind_clone(struct tree_build *b, const struct fs_op *op)
{
	int tree AUTOCLOSE = -1;
	if (op->source_user_writable) {
		/* The user could swap any directory on this path for a symlink:
		 * resolve it once, as the user (their fsuid, fsgid and groups
		 * are the build's default), refusing symlinks in every
		 * component, and mount from that descriptor. */
		if (b->service && creds_fs_user(b->who, b->err) < 0)
			return -1;
		int src AUTOCLOSE = sys_openat2(AT_FDCWD, op->source,
						O_PATH | O_CLOEXEC, RESOLVE_SAFE);
		int e = errno;
		if (b->service && creds_fs_root(b->err) < 0)
			return -1;
		errno = e;
		if (src < 0 && errno == ENOENT && op->optional)
			return BIND_SKIP;
		if (src < 0)
			return tree_fail(b, errno, "open %s as %s, refusing symlinks",
					 op->source, b->who->user);
		tree = sys_open_tree(src, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
				     AT_RECURSIVE | OPEN_TREE_CLOEXEC);
	} else {
		/* Root-controlled: resolved as root, as the host resolves it. */
		if (creds_fs_root(b->err) < 0)
			return -1;
		tree = sys_open_tree(AT_FDCWD, op->source, OPEN_TREE_CLONE |
				     AT_RECURSIVE | OPEN_TREE_CLOEXEC);
		int e = errno;
		if (tree_fs_default(b) < 0)
			return -1;
		errno = e;
		if (tree < 0 && errno == ENOENT && op->optional)
			return BIND_SKIP;
	}
	if (tree < 0)
		return tree_fail(b, errno, "open_tree %s", op->source);
	return steal_fd(&tree);
}

/* How many times a bind starts over when its source was replaced between
 * open_tree and move_mount. useradd, groupadd, passwd and editors
 * replace a file by renaming a new one over it: the clone then holds the
 * old, unlinked file, and the kernel refuses to attach it (ENOENT). The
 * path itself is still there, so the bind is made again from what it
 * names now; a source that is gone fails at open_tree as before. A try
 * costs microseconds, and even a file renamed over thousands of times a
 * second lost one try in ten (tests/sessions/bind-replaced.t): eight
 * more make a lost session a one-in-a-billion event. */
#define BIND_REPLACED_RETRIES 8

/* Whether the file or directory TREE was cloned from is no longer the
 * one at the source's path: unlinked, or another in its place. */
static bool bind_source_replaced(const struct fs_op *op, int tree)
{
	struct stat was, now;
	if (fstat(tree, &was) < 0)
		return false;
	if (was.st_nlink == 0)
		return true;
	return stat(op->source, &now) == 0 && !stat_same_file(&now, &was);
}

static int op_bind(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = -1;
	for (int tries = 0;; tries++) {
		int tree AUTOCLOSE = bind_clone(b, op);
		if (tree == BIND_SKIP)
			return 0;
		if (tree < 0)
			return -1;

		struct stat st;
		if (fstat(tree, &st) < 0)
			return tree_fail(b, errno, "fstat %s", op->source);
		unsigned attrs = MOUNT_ATTR_NOSUID;
		if (op->type != OP_DEV_BIND)
			attrs |= MOUNT_ATTR_NODEV;
		if (op->type == OP_RO_BIND)
			attrs |= MOUNT_ATTR_RDONLY;
		if (tree_set_attrs(b, tree, attrs, op->source) < 0)
			return -1;
		if (dst < 0)
			dst = tree_open_dest(b, op->dest,
					     S_ISDIR(st.st_mode) ? TREE_MAKE_DIR : TREE_MAKE_FILE);
		if (dst < 0)
			return -1;
		if (tree_attach(b, tree, dst, op->dest) == 0)
			return 0;
		/* Only the rename race starts over, nothing else. */
		if (b->err->errnum != ENOENT || tries == BIND_REPLACED_RETRIES ||
		    !bind_source_replaced(op, tree))
			return -1;
	}
}

static int op_remount_ro(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_NONE);
	if (dst < 0)
		return -1;
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	if (sys_mount_setattr(dst, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro) == 0)
		return 0;
	if (errno != EINVAL)
		return tree_fail(b, errno, "mount_setattr");
	/* Not a mount point: bind it onto itself, read-only. */
	int tree AUTOCLOSE = sys_open_tree(dst, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   AT_RECURSIVE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return tree_fail(b, errno, "open_tree");
	if (tree_set_attrs(b, tree, MOUNT_ATTR_RDONLY, op->dest) < 0)
		return -1;
	return tree_attach(b, tree, dst, op->dest);
}

static int op_tmpfs(struct tree_build *b, const struct fs_op *op)
{
	char size[32];
	tree_tmpfs_size(b, op, size, sizeof(size));
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = tree_tmpfs_new(b, size, plan_tmpfs_mode(op, b->service), NULL);
	if (mnt < 0)
		return -1;
	return tree_attach(b, mnt, dst, op->dest);
}

static int op_dir(struct tree_build *b, const struct fs_op *op)
{
	if (strcmp(op->dest, "/") == 0)
		return 0;
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = tree_open_parent(b, op->dest, last);
	if (dir < 0)
		return -1;
	if (mkdirat(dir, last, op->has_mode ? op->mode : 0755) == 0) {
		/* Made as root in service mode; a `dir` is the user's. */
		if (b->service && fchownat(dir, last, b->who->uid, b->who->gid,
					   AT_SYMLINK_NOFOLLOW) < 0)
			return tree_fail(b, errno, "chown");
		return 0;
	}
	if (errno != EEXIST)
		return tree_fail(b, errno, "mkdir");
	/* An existing directory is fine, as with bubblewrap. */
	struct stat st;
	if (fstatat(dir, last, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return tree_fail(b, errno, "stat");
	if (!S_ISDIR(st.st_mode))
		return tree_fail(b, EEXIST, "mkdir");
	return 0;
}

static int op_symlink(struct tree_build *b, const struct fs_op *op)
{
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = tree_open_parent(b, op->dest, last);
	if (dir < 0)
		return -1;
	if (symlinkat(op->source, dir, last) == 0)
		return 0;
	if (errno != EEXIST)
		return tree_fail(b, errno, "symlink");
	/* The same symlink already there is fine. */
	char have[PATH_MAX];
	ssize_t n = readlinkat(dir, last, have, sizeof(have) - 1);
	if (n >= 0) {
		have[n] = '\0';
		if (strcmp(have, op->source) == 0)
			return 0;
	}
	return tree_fail(b, EEXIST, "symlink");
}

static int op_file(struct tree_build *b, const struct fs_op *op)
{
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = tree_open_parent(b, op->dest, last);
	if (dir < 0)
		return -1;
	mode_t mode = op->has_mode ? op->mode : 0644;
	int fd AUTOCLOSE = openat(dir, last, O_WRONLY | O_CREAT | O_EXCL |
				  O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 && errno == EEXIST) {
		/* Replace the content of an existing regular file, never
		 * following a symlink or blocking on a fifo. */
		fd = openat(dir, last, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode))
			return tree_fail(b, EEXIST, "not a regular file");
		if (fd >= 0 && (ftruncate(fd, 0) < 0 ||
				(op->has_mode && fchmod(fd, mode) < 0)))
			return tree_fail(b, errno, "truncate");
	}
	if (fd < 0)
		return tree_fail(b, errno, "create");
	if (write_full(fd, op->content, strlen(op->content)) < 0)
		return tree_fail(b, errno, "write");
	return 0;
}

/* chmod by descriptor: fchmod refuses O_PATH descriptors and fchmodat2
 * came with Linux 6.6, but the host's /proc is still reachable. */
static int chmod_fd(int fd, mode_t mode)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return chmod(path, mode);
}

static int op_chmod(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_NONE);
	if (dst < 0)
		return -1;
	if (chmod_fd(dst, op->mode & 07777) < 0)
		return tree_fail(b, errno, "chmod %o", op->mode);
	return 0;
}

static int op_proc(struct tree_build *b, const struct fs_op *op)
{
	/* Mounted here, by the session process, a member of the new pid
	 * namespace: the procfs shows that namespace. */
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = tree_fs_new(b, "proc", NULL, 0, MOUNT_ATTR_NOSUID |
					MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mnt < 0 || tree_attach(b, mnt, dst, op->dest) < 0)
		return -1;
	/* Kernel knobs stay read-only, as in bubblewrap. */
	static const char *const ro[] = { "sys", "sysrq-trigger", "irq", "bus" };
	for (size_t i = 0; i < ARRAY_SIZE(ro); i++) {
		int tree AUTOCLOSE = sys_open_tree(mnt, ro[i], OPEN_TREE_CLONE |
						   AT_RECURSIVE | OPEN_TREE_CLOEXEC |
						   AT_SYMLINK_NOFOLLOW);
		if (tree < 0 && errno == ENOENT)
			continue;
		if (tree < 0)
			return tree_fail(b, errno, "open_tree %s/%s", op->dest, ro[i]);
		if (tree_set_attrs(b, tree, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				   MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, ro[i]) < 0)
			return -1;
		if (sys_move_mount(tree, "", mnt, ro[i], MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return tree_fail(b, errno, "move_mount %s/%s", op->dest, ro[i]);
	}
	return 0;
}

/* Attach TREE, a detached copy of a device node's mount, onto NAME in
 * DEV (an empty file made for it), device access allowed. */
static int dev_node(struct tree_build *b, int dev, const char *name, int tree)
{
	{
		int f AUTOCLOSE = openat(dev, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					 O_CLOEXEC, 0444);
		if (f < 0)
			return tree_fail(b, errno, "create %s", name);
	}
	if (tree_set_attrs(b, tree, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, name) < 0)
		return -1;
	if (sys_move_mount(tree, "", dev, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount %s", name);
	return 0;
}

/* When stdin is a terminal, the session keeps using it and programs that
 * look for their terminal's name (tty, ttyname) find it as /dev/console,
 * as with bubblewrap (mounts_terminal_copy). Looked up as root. */
static int dev_console(struct tree_build *b, int dev)
{
	int tree AUTOCLOSE = -1;
	if (creds_fs_root(b->err) < 0)
		return -1;
	int rc = mounts_terminal_copy(&tree, b->err);
	if (tree_fs_default(b) < 0 || rc < 0)
		return -1;
	return tree < 0 ? 0 : dev_node(b, dev, "console", tree);
}

static int op_dev(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0)
		return -1;
	int dev AUTOCLOSE = tree_tmpfs_new(b, DEV_SIZE, 0755, DEV_INODES);
	if (dev < 0 || tree_attach(b, dev, dst, op->dest) < 0)
		return -1;

	static const char *const nodes[] = { "null", "zero", "full", "random",
					     "urandom", "tty" };
	/* The host's nodes, by paths anyone can look up. */
	for (size_t i = 0; i < ARRAY_SIZE(nodes); i++) {
		char host[32];
		snprintf(host, sizeof(host), "/dev/%s", nodes[i]);
		int tree AUTOCLOSE = sys_open_tree(AT_FDCWD, host, OPEN_TREE_CLONE |
						   OPEN_TREE_CLOEXEC |
						   AT_SYMLINK_NOFOLLOW);
		struct stat st;
		if (tree < 0)
			return tree_fail(b, errno, "open_tree %s", host);
		if (fstat(tree, &st) < 0 || !S_ISCHR(st.st_mode))
			return tree_fail(b, 0, "%s is not a character device", host);
		if (dev_node(b, dev, nodes[i], tree) < 0)
			return -1;
	}

	if (mkdirat(dev, "pts", 0755) < 0)
		return tree_fail(b, errno, "mkdir pts");
	/* devpts reads max=0 as no limit at all: the session's share of
	 * the host's pool is never 0 here. */
	char max[16];
	if (b->ptys == 0)
		return tree_fail(b, 0, "no ptys granted to the session's devpts");
	snprintf(max, sizeof(max), "%u", b->ptys);
	const struct tree_fs_opt pts_opts[] = {
		{ "newinstance", NULL }, { "ptmxmode", "0666" }, { "mode", "0620" },
		{ "max", max },
	};
	int pts AUTOCLOSE = tree_fs_new(b, "devpts", pts_opts, 4,
					MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (pts < 0)
		return -1;
	if (sys_move_mount(pts, "", dev, "pts", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount pts");

	if (mkdirat(dev, "shm", 0755) < 0)
		return tree_fail(b, errno, "mkdir shm");
	char shm_size[32];
	tree_tmpfs_size(b, NULL, shm_size, sizeof(shm_size));
	int shm AUTOCLOSE = tree_tmpfs_new(b, shm_size, 01777, NULL);
	if (shm < 0)
		return -1;
	if (sys_move_mount(shm, "", dev, "shm", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount shm");

	/* As bubblewrap's /dev has them (core included: /proc/kcore is
	 * root's only). */
	static const char *const links[][2] = {
		{ "ptmx", "pts/ptmx" },          { "core", "/proc/kcore" },
		{ "fd", "/proc/self/fd" },
		{ "stdin", "/proc/self/fd/0" },  { "stdout", "/proc/self/fd/1" },
		{ "stderr", "/proc/self/fd/2" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) < 0)
			return tree_fail(b, errno, "symlink %s", links[i][0]);

	return dev_console(b, dev);
}

static int op_mqueue(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = tree_fs_new(b, "mqueue", NULL, 0, MOUNT_ATTR_NOSUID |
					MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mnt < 0)
		return -1;
	return tree_attach(b, mnt, dst, op->dest);
}

/* op_tmp_overlay's mounts, made with root's file-system identity: the
 * tmpfs for the upper layer, the overlay, attached on LOWER. */
static int overlay_attach(struct tree_build *b, const struct fs_op *op, int lower,
			  const struct stat *st)
{
	char size[32];
	tree_tmpfs_size(b, op, size, sizeof(size));
	int tmp AUTOCLOSE = tree_tmpfs_new(b, size, 0700, NULL);
	if (tmp < 0)
		return -1;
	/* The merged root shows the upper directory's owner and mode. */
	if (mkdirat(tmp, "upper", st->st_mode & 07777) < 0 ||
	    fchownat(tmp, "upper", st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0 ||
	    mkdirat(tmp, "work", 0700) < 0)
		return tree_fail(b, errno, "upper layer");
	/* overlayfs takes its layers from mounts of this namespace: attach
	 * the tmpfs for a moment on top of the host's root (out of every
	 * path lookup's way), then detach it once overlayfs holds its own
	 * private copy. */
	if (sys_move_mount(tmp, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount upper layer");
	char lowerdir[64], upperdir[64], workdir[64], tmpdir[64];
	snprintf(lowerdir, sizeof(lowerdir), "/proc/self/fd/%d", lower);
	snprintf(tmpdir, sizeof(tmpdir), "/proc/self/fd/%d", tmp);
	snprintf(upperdir, sizeof(upperdir), "/proc/self/fd/%d/upper", tmp);
	snprintf(workdir, sizeof(workdir), "/proc/self/fd/%d/work", tmp);
	struct tree_fs_opt opts[] = {
		{ "lowerdir", lowerdir }, { "upperdir", upperdir }, { "workdir", workdir },
	};
	int ov AUTOCLOSE = tree_fs_new(b, "overlay", opts, 3,
				       MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	/* Detached whether or not overlayfs took it: it must not stay on
	 * top of the host's root. */
	if (umount2(tmpdir, MNT_DETACH) < 0 && ov >= 0)
		return tree_fail(b, errno, "detaching the upper layer's tmpfs");
	if (ov < 0)
		return -1;
	return tree_attach(b, ov, lower, op->dest);
}

/* An overlay whose lower layer is what DEST shows now and whose upper and
 * work directories sit on a fresh tmpfs that nothing else references:
 * writes land there and vanish with the namespace. The overlay is made
 * with root's file-system identity because overlayfs copies files up with
 * its mounter's credentials (ownership included); the user still needs
 * ordinary permission on each file to change it. Mounts below DEST are
 * not part of the lower layer (overlayfs does not cross mounts). */
static int op_tmp_overlay(struct tree_build *b, const struct fs_op *op)
{
	int lower AUTOCLOSE = tree_open_dest(b, op->dest, TREE_MAKE_NONE);
	if (lower < 0)
		return -1;
	struct stat st;
	if (fstat(lower, &st) < 0)
		return tree_fail(b, errno, "stat");
	if (!S_ISDIR(st.st_mode))
		return tree_fail(b, ENOTDIR, "lower layer");
	if (creds_fs_root(b->err) < 0)
		return -1;
	int rc = overlay_attach(b, op, lower, &st);
	/* Back to the build's file-system identity, whatever happened. */
	if (tree_fs_default(b) < 0)
		return -1;
	return rc;
}

/* The stub over a program that cannot work in the session. The program
 * is looked up in the tree built so far without following a symlink: a
 * missing one, a link (its target is listed on its own) or anything but
 * a regular file is left alone, so one list serves hosts with and
 * without each program. The stub is root's and only root may write it,
 * as for every program bound read-only from the host. */
static int op_unavailable(struct tree_build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = sys_openat2(b->rootfd, op->dest + 1, O_PATH | O_CLOEXEC,
					RESOLVE_IN_ROOT | RESOLVE_SAFE);
	struct stat st;
	if (dst < 0 && (errno == ENOENT || errno == ELOOP || errno == ENOTDIR))
		return 0;
	if (dst < 0 || fstat(dst, &st) < 0)
		return tree_fail(b, errno, "%s", op->dest);
	if (!S_ISREG(st.st_mode))
		return 0;
	if (creds_fs_root(b->err) < 0)
		return -1;
	int stub AUTOCLOSE = sys_open_tree(AT_FDCWD, op->source, OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
	int e = errno;
	if (tree_fs_default(b) < 0)
		return -1;
	if (stub < 0 || fstat(stub, &st) < 0)
		return tree_fail(b, stub < 0 ? e : errno, "open_tree %s", op->source);
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return tree_fail(b, 0, "%s is not a regular file that only root can "
				 "write", op->source);
	if (tree_set_attrs(b, stub, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
			   op->source) < 0)
		return -1;
	return tree_attach(b, stub, dst, op->dest);
}

static int run_op(struct tree_build *b, const struct fs_op *op)
{
	switch (op->type) {
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND: return op_bind(b, op);
	case OP_REMOUNT_RO: return op_remount_ro(b, op);
	case OP_TMPFS: return op_tmpfs(b, op);
	case OP_DIR: return op_dir(b, op);
	case OP_SYMLINK: return op_symlink(b, op);
	case OP_FILE: return op_file(b, op);
	case OP_CHMOD: return op_chmod(b, op);
	case OP_PROC: return op_proc(b, op);
	case OP_DEV: return op_dev(b, op);
	case OP_MQUEUE: return op_mqueue(b, op);
	case OP_TMP_OVERLAY: return op_tmp_overlay(b, op);
	case OP_HOME_TMPFS: return mounts_op_home_tmpfs(b, op);
	case OP_PRIVATE_TMP: return mounts_op_private_tmp(b, op);
	case OP_NAME_SERVICE: return mounts_op_name_service(b, op);
	case OP_UNAVAILABLE: return op_unavailable(b, op);
	}
	return tree_fail(b, 0, "unknown operation type %d", (int)op->type);
}

/* Programs reach the host's run-time directory by its old name too:
 * glibc's nscd client (/var/run/nscd/socket), utmp (_PATH_UTMP is
 * /var/run/utmp), OpenSSH. Where the plan made a /var without a /var/run,
 * it leads to /run as on the host, in every mode: one tree for one plan.
 * A read-only /var, or one with its own /var/run, keeps what it has. */
static int link_var_run(struct tree_build *b)
{
	int var AUTOCLOSE = sys_openat2(b->rootfd, "var", O_PATH | O_DIRECTORY | O_CLOEXEC,
					RESOLVE_IN_ROOT | RESOLVE_SAFE);
	if (var >= 0 && symlinkat("../run", var, "run") < 0 && errno != EEXIST &&
	    errno != EROFS)
		return tree_fail(b, errno, "symlink /var/run");
	return 0;
}

/* Attach the new root B->rootfd on top of the host's and run the plan's
 * operations in it. */
static int fill_tree(struct tree_build *b)
{
	if (sys_move_mount(b->rootfd, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return tree_fail(b, errno, "move_mount");
	for (size_t i = 0; i < b->plan->nops; i++) {
		b->op = &b->plan->ops[i];
		if (FAULT(plan_op_type_name(b->op->type, b->op->optional), b->err) < 0 ||
		    run_op(b, b->op) < 0)
			return -1;
	}
	b->op = NULL;
	return link_var_run(b);
}

int mounts_build(const struct plan *plan, unsigned flags, unsigned ptys, int *rootfd,
		 struct cc_error *err)
{
	struct tree_build b = { .plan = plan, .who = &plan->who, .rootfd = -1, .err = err,
			   .service = flags & MOUNTS_SERVICE, .ptys = ptys };
	if (b.service && creds_fs_root(err) < 0)
		return -1;
	/* Owned by the user, mode 0755, as bubblewrap's root is (root's in
	 * service mode). */
	char root_size[32];
	snprintf(root_size, sizeof(root_size), "%llu", plan->root_size);
	b.rootfd = tree_tmpfs_new(&b, root_size, 0755, NULL);
	if (b.rootfd < 0)
		return -1;
	/* Not an AUTOCLOSE local: a mount onto "/" replaces b.rootfd
	 * (replace_root), so the one to close is whichever it is by then. */
	if (fill_tree(&b) < 0) {
		autoclose_fd(&b.rootfd);
		return -1;
	}
	*rootfd = b.rootfd;
	return 0;
}

/* Whether two statx results name the same directory of the same mount. */
static bool same_place(const struct statx *a, const struct statx *b)
{
	return (a->stx_mask & b->stx_mask & STATX_MNT_ID) && a->stx_mnt_id == b->stx_mnt_id &&
	       a->stx_ino == b->stx_ino && a->stx_dev_major == b->stx_dev_major &&
	       a->stx_dev_minor == b->stx_dev_minor;
}

/* pivot_root into ROOTFD and detach the old root: -1 with errno and
 * *WHAT naming the step that failed, -2 when the old root is still
 * reachable. System calls only: pid 1 of service mode runs it in the
 * service's memory. */
static int pivot_here(int rootfd, const char **what)
{
	/* pivot_root(".", ".") stacks the old root on the new one; detaching
	 * "." then removes the old root and every host mount with it. */
	*what = "chdir to the new root";
	if (fchdir(rootfd) < 0)
		return -1;
	*what = "pivot_root";
	if (sys_pivot_root(".", ".") < 0)
		return -1;
	*what = "detaching the old root";
	if (umount2(".", MNT_DETACH) < 0)
		return -1;
	*what = "chdir /";
	if (chdir("/") < 0)
		return -1;
	/* ".." at the root follows a mount stacked on the root: it must lead
	 * back to the root itself, or part of the old tree is still there. */
	struct statx root, up;
	*what = "checking the new root";
	if (statx(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &root) < 0 ||
	    statx(AT_FDCWD, "/..", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &up) < 0)
		return -1;
	return same_place(&root, &up) ? 0 : -2;
}

int mounts_pivot(int rootfd, struct cc_error *err)
{
	const char *what;
	int rc = pivot_here(rootfd, &what);
	if (rc == -2)
		return cc_fail(err, "the old root is still reachable after pivot_root");
	return rc < 0 ? cc_fail_errno(err, "%s", what) : 0;
}

/* The child's half of mounts_root_is_namespaces: setns to its own mount
 * namespace moves its root (its own: vfork shares no fs_struct) to the
 * namespace's. System calls only, in the parent's memory. */
__attribute__((noinline))
static bool root_is_namespaces(int self, const struct statx *root)
{
	pid_t pid = vfork();
	if (pid == 0) {
		struct statx ns_root;
		_exit(setns(self, CLONE_NEWNS) == 0 &&
		      statx(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID,
			    &ns_root) == 0 && same_place(&ns_root, root) ? 0 : 1);
	}
	int status;
	while (pid > 0 && waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
		;
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool mounts_root_is_namespaces(void)
{
	struct statx root;
	int self AUTOCLOSE = sys_pidfd_open(getpid(), 0);
	return self >= 0 &&
	       statx(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &root) == 0 &&
	       root_is_namespaces(self, &root);
}

int mounts_chroot_to_namespace(struct cc_error *err)
{
	const char *what = "pidfd_open of itself";
	int self AUTOCLOSE = sys_pidfd_open(getpid(), 0);
	int chroot_fd AUTOCLOSE = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int tree AUTOCLOSE = -1;
	if (self < 0 || chroot_fd < 0)
		goto fail;
	/* Joining its own mount namespace moves the process's root and
	 * working directory to the namespace's root: the only way to see
	 * that root from inside a chroot. */
	what = "setns to its own mount namespace";
	if (setns(self, CLONE_NEWNS) < 0)
		goto fail;
	struct statx ns_root, old_root;
	what = "statx /";
	if (statx(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &ns_root) < 0 ||
	    statx(chroot_fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &old_root) < 0)
		goto fail;
	if (same_place(&ns_root, &old_root))
		return 0;
	/* Private first: the copy of the chroot attached below would
	 * otherwise propagate to the mounts' peers, the host's. */
	what = "making mount propagation private";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		goto fail;
	/* The chroot with the mounts below it, attached over itself (it
	 * need not be a mount point), becomes the root; the rest of the
	 * namespace's tree goes. */
	what = "copying the chroot's mounts";
	tree = sys_open_tree(chroot_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			     AT_RECURSIVE | AT_EMPTY_PATH);
	if (tree < 0)
		goto fail;
	what = "attaching the chroot's copy";
	if (sys_move_mount(tree, "", chroot_fd, "", MOVE_MOUNT_F_EMPTY_PATH |
			   MOVE_MOUNT_T_EMPTY_PATH) < 0)
		goto fail;
	int rc = pivot_here(tree, &what);
	if (rc == -2)
		return cc_fail(err, "the chroot: the namespace's root is still reachable");
	if (rc == 0)
		return 1;
fail:
	return cc_fail_number(err, errno, "the chroot: %s", what);
}
