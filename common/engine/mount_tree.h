/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of one build and its primitives (mount_tree.c), which the
 * operations (mounts.c, mounts_guest.c, mounts_service.c) are made of.
 * Callers outside the engine's mounts use mounts.h. */
#ifndef COCOON_MOUNT_TREE_H
#define COCOON_MOUNT_TREE_H

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credentials.h"
#include "error.h"
#include "plan.h"
#include "syscalls.h"
#include "util.h"

/* Size limits. A tmpfs lives in memory, so every one the sandbox makes
 * is bounded: the root by the plan's root-size, `tmpfs` without size=,
 * /dev/shm and tmp-overlay's upper layer by its tmpfs-size, the guest
 * homes and private tmp by theirs. Inodes cost memory too (and the
 * kernel's default count ignores size=): one per 4 KiB of size, at
 * least 1024. /dev holds device nodes and symlinks only; its devpts
 * takes at most the ptys the session was granted (pty_quota.h). */
#define DEV_SIZE "64k"
#define DEV_INODES "1024"
#define TMPFS_BYTES_PER_INODE 4096ULL
#define TMPFS_MIN_INODES 1024ULL

#define RESOLVE_SAFE (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

struct tree_build {
	const struct plan *plan;
	const struct identity *who;
	int rootfd; /* the topmost mount at the sandbox's root */
	const struct fs_op *op; /* the operation running, for messages */
	struct cc_error *err;
	unsigned ptys; /* the most the session's devpts holds, never 0 */
	/* Service mode (MOUNTS_SERVICE): a root service process lives in the
	 * result, so what the build creates is root's, not the user's. */
	bool service;
};

enum tree_make { TREE_MAKE_NONE, TREE_MAKE_DIR, TREE_MAKE_FILE };

struct tree_fs_opt {
	const char *key;
	const char *value; /* NULL: a flag */
};

/* mount_tree.c: the build's primitives (comments at each). */
int tree_fs_default(struct tree_build *b);
int tree_fail(struct tree_build *b, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int tree_open_parent(struct tree_build *b, const char *dest, char last[NAME_MAX + 1]);
int tree_open_dest(struct tree_build *b, const char *dest, enum tree_make make);
int tree_fs_new(struct tree_build *b, const char *type, const struct tree_fs_opt *opts,
		size_t nopts, unsigned attrs);
int tree_attach(struct tree_build *b, int mnt, int dst, const char *dest);
int tree_set_attrs(struct tree_build *b, int tree, unsigned attrs, const char *what);
int tree_tmpfs_owned(struct tree_build *b, const char *size, unsigned mode, const char *inodes,
		     uid_t owner, gid_t group);
int tree_tmpfs_new(struct tree_build *b, const char *size, unsigned mode, const char *inodes);
/* Bytes, as tmpfs takes them: the op's own size, else the plan's
 * tmpfs-size. */
void tree_tmpfs_size(const struct tree_build *b, const struct fs_op *op, char *size, size_t len);

/* Guest accounts (mounts_guest.c). */
int mounts_op_home_tmpfs(struct tree_build *b, const struct fs_op *op);
int mounts_op_private_tmp(struct tree_build *b, const struct fs_op *op);

/* A name-service daemon's endpoint (mounts_nss.c). */
int mounts_op_name_service(struct tree_build *b, const struct fs_op *op);

#endif
