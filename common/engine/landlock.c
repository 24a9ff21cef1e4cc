// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's Landlock wall: one rule on the new root. */
/* Landlock rules are attached to inodes and checked by walking up from
 * the file accessed to the root of its mount namespace. One rule, on the
 * new root (a tmpfs of this sandbox alone), grants everything below it:
 * every path of the sandbox passes through it, while a path in another
 * mount namespace walks up to that namespace's root without meeting it.
 * Five system calls, a few microseconds. */
#include "landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <linux/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscalls.h"
#include "util.h"

/* Newer than the headers of some distributions (Debian 12's know ABI 1
 * and 2). */
#define FS_ABI1 ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define FS_REFER (1ULL << 13)      /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14)   /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)

/* The ruleset's attributes as ABI 6 knows them; Debian 12's headers
 * stop at the first field. */
struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4; left 0: the network is the
				      * namespaces' business */
	uint64_t scoped;             /* ABI 6 */
};

int landlock_abi(void)
{
	int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			       LANDLOCK_CREATE_RULESET_VERSION);
	return abi > 0 ? abi : 0;
}

static uint64_t handled_rights(int abi)
{
	uint64_t fs = FS_ABI1 | FS_REFER;
	if (abi >= 3)
		fs |= FS_TRUNCATE;
	if (abi >= 5)
		fs |= FS_IOCTL_DEV;
	return fs;
}

static int add_rule(int ruleset, int fd, uint64_t rights)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = rights,
						   .parent_fd = fd };
	return (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
			    &rule, 0);
}

/* mq_open works in the ipc namespace's own internal mount of the mqueue
 * filesystem, which hangs below no root of ours: Landlock refuses it
 * unless a rule sits on that filesystem's root. Every mount of it in one
 * ipc namespace shares that root inode, so a rule reached through any of
 * them will do. As root (cocoonctl run, cocoon-shell) a detached mount of
 * our own namespace's; as the user (cocoon-launch) the plan's mount at
 * /dev/mqueue, if it has one. Without either, message queues stay shut;
 * and so do the host's, when the session shares its ipc namespace. */
#define MQUEUE_MAGIC 0x19800202 /* ipc/mqueue.c; not in the uapi headers */

static int mqueue_root(void)
{
	int fs = sys_fsopen("mqueue", FSOPEN_CLOEXEC);
	if (fs >= 0) {
		int mnt = -1;
		if (sys_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
			mnt = sys_fsmount(fs, FSMOUNT_CLOEXEC, 0);
		close(fs);
		if (mnt >= 0)
			return mnt;
	}
	int dir = open("/dev/mqueue", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct statfs sfs;
	if (dir >= 0 && (fstatfs(dir, &sfs) < 0 || sfs.f_type != MQUEUE_MAGIC)) {
		close(dir);
		dir = -1;
	}
	return dir;
}

/* The rights a reopen of standard descriptor FD may have: those its
 * open already gave. Read for a readable one; write and truncate (a
 * writable descriptor can ftruncate) for a writable one; device ioctls
 * for either (it can issue them already). An O_PATH descriptor, or one
 * that is not open, gives none: a rule would turn a handle that reads
 * and writes nothing into a file the session can open. */
static uint64_t std_rights(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || (flags & O_PATH))
		return 0;
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return FS_READ_FILE | FS_IOCTL_DEV;
	case O_WRONLY:
		return FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV;
	case O_RDWR:
		return FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV;
	}
	return 0;
}

int landlock_wall(bool own_ipc, unsigned scope)
{
	/* 0: ENOSYS (not built in) or EOPNOTSUPP (not enabled at boot). ABI
	 * 1 cannot grant REFER, so it would refuse renames and links across
	 * directories: left alone too. */
	int abi = landlock_abi();
	if (abi < 2)
		return 0;
	uint64_t all = handled_rights(abi);
	struct ruleset_attr attr = { .handled_access_fs = all };
	/* An older kernel takes the first field alone. */
	size_t size = sizeof(attr.handled_access_fs);
	if (abi >= LL_SCOPE_MIN_ABI && (scope & LL_SCOPE_ALL)) {
		attr.scoped = scope & LL_SCOPE_ALL;
		size = sizeof(attr);
	}
	int ruleset AUTOCLOSE = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return -1;
	int root AUTOCLOSE = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || add_rule(ruleset, root, all) < 0)
		return -1;
	int mq AUTOCLOSE = own_ipc ? mqueue_root() : -1;
	if (mq >= 0 && add_rule(ruleset, mq, all) < 0)
		return -1;
	/* The standard descriptors may be files of the host (a terminal, a
	 * log): reopening them through /proc/self/fd (bash's >/dev/stderr)
	 * must keep working. The rule on the file gives what the descriptor
	 * was opened for and no more (std_rights). Pipes and sockets need
	 * none (and take none); a directory would open a whole tree:
	 * skipped. */
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		uint64_t rights = std_rights(fd) & all;
		if (rights && fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode) &&
		    !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) &&
		    add_rule(ruleset, fd, rights) < 0 && errno != EBADFD && errno != EBADF)
			return -1;
	}
	return syscall(SYS_landlock_restrict_self, ruleset, 0) < 0 ? -1 : 1;
}
