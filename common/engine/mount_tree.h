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

struct build {
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

static inline void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}
#define AUTOCLOSE __attribute__((cleanup(close_fd)))

enum make { MAKE_NONE, MAKE_DIR, MAKE_FILE };

struct fs_opt {
	const char *key;
	const char *value; /* NULL: a flag */
};

/* mount_tree.c: the build's primitives (comments at each). */
int fs_default(struct build *b);
int fail(struct build *b, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int open_parent(struct build *b, const char *dest, char last[NAME_MAX + 1]);
int open_dest(struct build *b, const char *dest, enum make make);
int fs_new(struct build *b, const char *type, const struct fs_opt *opts, size_t nopts,
	   unsigned attrs);
int attach(struct build *b, int mnt, int dst, const char *dest);
int set_attrs(struct build *b, int tree, unsigned attrs, const char *what);
int tmpfs_owned(struct build *b, const char *size, unsigned mode, const char *inodes,
		uid_t owner, gid_t group);
int tmpfs_new(struct build *b, const char *size, unsigned mode, const char *inodes);
/* Bytes, as tmpfs takes them: the op's own size, else the plan's
 * tmpfs-size. */
void tmpfs_size(const struct build *b, const struct fs_op *op, char *size, size_t len);

/* Guest accounts (mounts_guest.c). */
int op_home_tmpfs(struct build *b, const struct fs_op *op);
int op_private_tmp(struct build *b, const struct fs_op *op);

/* A name-service daemon's endpoint (mounts_nss.c). */
int op_name_service(struct build *b, const struct fs_op *op);

#endif
