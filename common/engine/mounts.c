// SPDX-License-Identifier: GPL-2.0-or-later
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
 * there at any time, the sandbox's root (see replace_root). */
#include "mounts.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credentials.h"
#include "fault.h"
#include "home.h"
#include "plan_check.h"
#include "plan_values.h"
#include "syscalls.h"
#include "util.h"

/* Size limits. A tmpfs lives in memory, so every one the sandbox makes
 * is bounded: the root by the plan's root-size, `tmpfs` without size=,
 * /dev/shm and tmp-overlay's upper layer by its tmpfs-size, the guest
 * homes and private tmp by theirs. Inodes cost memory too (and the
 * kernel's default count ignores size=): one per 4 KiB of size, at
 * least 1024. /dev holds device nodes and symlinks only; its devpts
 * takes at most DEVPTS_MAX ptys (the kernel's pty.max bounds all). */
#define DEV_SIZE "64k"
#define DEV_INODES "1024"
#define DEVPTS_MAX "1024"
#define TMPFS_BYTES_PER_INODE 4096ULL
#define TMPFS_MIN_INODES 1024ULL

#define RESOLVE_SAFE (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

struct build {
	const struct plan *plan;
	const struct identity *who;
	int rootfd; /* the topmost mount at the sandbox's root */
	const struct fs_op *op; /* the operation running, for messages */
	struct cc_error *err;
	/* Service mode (MOUNTS_SERVICE): a root service process lives in the
	 * result, so what the build creates is root's, not the user's. */
	bool service;
};

/* The file-system identity the build returns to after a step that
 * needed another: the user's, or root's in service mode. */
static int fs_default(struct build *b)
{
	return b->service ? creds_fs_root(b->err) : creds_fs_user(b->who, b->err);
}

/* Fail the running operation: "file:line: ro-bind /usr: open_tree: ..." */
__attribute__((format(printf, 3, 4)))
static int fail(struct build *b, int errnum, const char *fmt, ...)
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
		op_describe(op, what, sizeof(what));
	}
	if (errnum)
		return cc_fail(b->err, "%s%s: %s: %s", where, what, step,
			       strerror(errnum));
	return cc_fail(b->err, "%s%s: %s", where, what, step);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}
#define AUTOCLOSE __attribute__((cleanup(close_fd)))

/* ---- Checks done before anything exists ---- */

/* ---- Resolving destinations inside the new root ---- */

/* Open the directory that holds DEST, one component at a time from the
 * root, never following a symlink, creating missing directories (0755,
 * as the user: what bubblewrap creates belongs to the user too; as root
 * in service mode, where a root service reads the tree). The last
 * component goes to LAST. */
static int open_parent(struct build *b, const char *dest,
		       char last[NAME_MAX + 1])
{
	int dir = fcntl(b->rootfd, F_DUPFD_CLOEXEC, 3);
	if (dir < 0)
		return fail(b, errno, "dup");
	const char *p = dest + 1;
	for (;;) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);
		char name[NAME_MAX + 1];
		memcpy(name, p, n);
		name[n] = '\0';
		if (!*end) {
			memcpy(last, name, n + 1);
			return dir;
		}
		int sub = sys_openat2(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC,
				      RESOLVE_BENEATH | RESOLVE_SAFE);
		if (sub < 0 && errno == ENOENT) {
			if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				close(dir);
				return fail(b, e, "mkdir %.*s", (int)(end - dest), dest);
			}
			sub = sys_openat2(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC,
					  RESOLVE_BENEATH | RESOLVE_SAFE);
		}
		int e = errno;
		close(dir);
		if (sub < 0)
			return fail(b, e, "%.*s", (int)(end - dest), dest);
		dir = sub;
		p = end + 1;
	}
}

enum make { MAKE_NONE, MAKE_DIR, MAKE_FILE };

/* Open DEST (O_PATH), creating it and its parents when missing. */
static int open_dest(struct build *b, const char *dest, enum make make)
{
	if (strcmp(dest, "/") == 0) {
		int fd = fcntl(b->rootfd, F_DUPFD_CLOEXEC, 3);
		return fd < 0 ? fail(b, errno, "dup") : fd;
	}
	/* Usually everything exists but the last component or nothing is
	 * missing: one openat2 settles the common case. */
	int fd = sys_openat2(b->rootfd, dest + 1, O_PATH | O_CLOEXEC,
			     RESOLVE_IN_ROOT | RESOLVE_SAFE);
	if (fd >= 0)
		return fd;
	if (errno != ENOENT || make == MAKE_NONE)
		return fail(b, errno, "%s", dest);

	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = open_parent(b, dest, last);
	if (dir < 0)
		return -1;
	if (make == MAKE_DIR) {
		if (mkdirat(dir, last, 0755) < 0 && errno != EEXIST)
			return fail(b, errno, "mkdir %s", dest);
	} else {
		int f = openat(dir, last, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			       O_CLOEXEC, 0444);
		if (f < 0 && errno != EEXIST)
			return fail(b, errno, "create %s", dest);
		if (f >= 0)
			close(f);
	}
	fd = sys_openat2(dir, last, O_PATH | O_CLOEXEC, RESOLVE_BENEATH | RESOLVE_SAFE);
	return fd < 0 ? fail(b, errno, "%s", dest) : fd;
}

/* ---- Making and attaching mounts ---- */

struct fs_opt {
	const char *key;
	const char *value; /* NULL: a flag */
};

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
static int fs_new(struct build *b, const char *type, const struct fs_opt *opts,
		  size_t nopts, unsigned attrs)
{
	int fs AUTOCLOSE = sys_fsopen(type, FSOPEN_CLOEXEC);
	if (fs < 0)
		return fail(b, errno, "fsopen %s", type);
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
		return fail(b, e, "%s %s%s%s%s%s", type, key, value ? "=" : "",
			    value ? value : "", *log ? ": " : "", log);
	}
	int mnt = sys_fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	return mnt < 0 ? fail(b, errno, "fsmount %s", type) : mnt;
}

/* A mount for the sandbox's root ("bind /srv/chroot /") replaces the
 * current root instead of stacking on it: what it covers would be hidden
 * anyway, and the sandbox's root must remain the only mount on the host
 * root's dentry. pivot_root moves whatever sits there along with the
 * old root, on top of the new one, where umount2(".") would then detach
 * only the topmost mount and leave the host's tree one "cd /.." away. */
static int replace_root(struct build *b, int mnt)
{
	if (umount2("/", MNT_DETACH) < 0)
		return fail(b, errno, "detaching the previous root");
	if (sys_move_mount(mnt, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail(b, errno, "move_mount onto the root");
	int fd = fcntl(mnt, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return fail(b, errno, "dup");
	close(b->rootfd);
	b->rootfd = fd;
	return 0;
}

/* Attach detached mount MNT on the directory or file DST. MNT stays
 * open (it now names the attached mount). */
static int attach(struct build *b, int mnt, int dst, const char *dest)
{
	if (strcmp(dest, "/") == 0)
		return replace_root(b, mnt);
	if (sys_move_mount(mnt, "", dst, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return fail(b, errno, "move_mount onto %s", dest);
	return 0;
}

static int set_attrs(struct build *b, int tree, unsigned attrs, const char *what)
{
	struct mount_attr attr = { .attr_set = attrs };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr) < 0)
		return fail(b, errno, "mount_setattr %s", what);
	return 0;
}

static int tmpfs_owned(struct build *b, const char *size, unsigned mode,
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
	struct fs_opt opts[] = {
		{ "size", size }, { "mode", modes }, { "uid", uid }, { "gid", gid },
		{ "nr_inodes", inodes },
	};
	return fs_new(b, "tmpfs", opts, 5, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
}

/* The user's, or root's in service mode. */
static int tmpfs_new(struct build *b, const char *size, unsigned mode,
		     const char *inodes)
{
	return tmpfs_owned(b, size, mode, inodes, b->service ? 0 : b->who->uid,
			   b->service ? 0 : b->who->gid);
}

/* ---- The operations ---- */

static int op_bind(struct build *b, const struct fs_op *op)
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
			return 0;
		if (src < 0)
			return fail(b, errno, "open %s as %s, refusing symlinks",
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
		if (fs_default(b) < 0)
			return -1;
		errno = e;
		if (tree < 0 && errno == ENOENT && op->optional)
			return 0;
	}
	if (tree < 0)
		return fail(b, errno, "open_tree %s", op->source);

	struct stat st;
	if (fstat(tree, &st) < 0)
		return fail(b, errno, "fstat %s", op->source);
	unsigned attrs = MOUNT_ATTR_NOSUID;
	if (op->type != OP_DEV_BIND)
		attrs |= MOUNT_ATTR_NODEV;
	if (op->type == OP_RO_BIND)
		attrs |= MOUNT_ATTR_RDONLY;
	if (set_attrs(b, tree, attrs, op->source) < 0)
		return -1;
	int dst AUTOCLOSE = open_dest(b, op->dest, S_ISDIR(st.st_mode) ? MAKE_DIR
								     : MAKE_FILE);
	if (dst < 0)
		return -1;
	return attach(b, tree, dst, op->dest);
}

static int op_remount_ro(struct build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_NONE);
	if (dst < 0)
		return -1;
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	if (sys_mount_setattr(dst, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro) == 0)
		return 0;
	if (errno != EINVAL)
		return fail(b, errno, "mount_setattr");
	/* Not a mount point: bind it onto itself, read-only. */
	int tree AUTOCLOSE = sys_open_tree(dst, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   AT_RECURSIVE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(b, errno, "open_tree");
	if (set_attrs(b, tree, MOUNT_ATTR_RDONLY, op->dest) < 0)
		return -1;
	return attach(b, tree, dst, op->dest);
}

/* Bytes, as tmpfs takes them: the op's own size, else the plan's
 * tmpfs-size. */
static void tmpfs_size(const struct build *b, const struct fs_op *op,
		       char *size, size_t len)
{
	snprintf(size, len, "%llu", op && op->size ? op->size : b->plan->tmpfs_size);
}

static int op_tmpfs(struct build *b, const struct fs_op *op)
{
	char size[32];
	tmpfs_size(b, op, size, sizeof(size));
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = tmpfs_new(b, size, plan_tmpfs_mode(op, b->service), NULL);
	if (mnt < 0)
		return -1;
	return attach(b, mnt, dst, op->dest);
}

static int op_dir(struct build *b, const struct fs_op *op)
{
	if (strcmp(op->dest, "/") == 0)
		return 0;
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = open_parent(b, op->dest, last);
	if (dir < 0)
		return -1;
	if (mkdirat(dir, last, op->has_mode ? op->mode : 0755) == 0) {
		/* Made as root in service mode; a `dir` is the user's. */
		if (b->service && fchownat(dir, last, b->who->uid, b->who->gid,
					   AT_SYMLINK_NOFOLLOW) < 0)
			return fail(b, errno, "chown");
		return 0;
	}
	if (errno != EEXIST)
		return fail(b, errno, "mkdir");
	/* An existing directory is fine, as with bubblewrap. */
	struct stat st;
	if (fstatat(dir, last, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(b, errno, "stat");
	if (!S_ISDIR(st.st_mode))
		return fail(b, EEXIST, "mkdir");
	return 0;
}

static int op_symlink(struct build *b, const struct fs_op *op)
{
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = open_parent(b, op->dest, last);
	if (dir < 0)
		return -1;
	if (symlinkat(op->source, dir, last) == 0)
		return 0;
	if (errno != EEXIST)
		return fail(b, errno, "symlink");
	/* The same symlink already there is fine. */
	char have[PATH_MAX];
	ssize_t n = readlinkat(dir, last, have, sizeof(have) - 1);
	if (n >= 0) {
		have[n] = '\0';
		if (strcmp(have, op->source) == 0)
			return 0;
	}
	return fail(b, EEXIST, "symlink");
}

static int op_file(struct build *b, const struct fs_op *op)
{
	char last[NAME_MAX + 1];
	int dir AUTOCLOSE = open_parent(b, op->dest, last);
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
			return fail(b, EEXIST, "not a regular file");
		if (fd >= 0 && (ftruncate(fd, 0) < 0 ||
				(op->has_mode && fchmod(fd, mode) < 0)))
			return fail(b, errno, "truncate");
	}
	if (fd < 0)
		return fail(b, errno, "create");
	if (write_full(fd, op->content, strlen(op->content)) < 0)
		return fail(b, errno, "write");
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

static int op_chmod(struct build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_NONE);
	if (dst < 0)
		return -1;
	if (chmod_fd(dst, op->mode & 07777) < 0)
		return fail(b, errno, "chmod %o", op->mode);
	return 0;
}

static int op_proc(struct build *b, const struct fs_op *op)
{
	/* Mounted here, by the session process, a member of the new pid
	 * namespace: the procfs shows that namespace. */
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = fs_new(b, "proc", NULL, 0, MOUNT_ATTR_NOSUID |
				   MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mnt < 0 || attach(b, mnt, dst, op->dest) < 0)
		return -1;
	/* Kernel knobs stay read-only, as in bubblewrap. */
	static const char *const ro[] = { "sys", "sysrq-trigger", "irq", "bus" };
	for (size_t i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
		int tree AUTOCLOSE = sys_open_tree(mnt, ro[i], OPEN_TREE_CLONE |
						   AT_RECURSIVE | OPEN_TREE_CLOEXEC |
						   AT_SYMLINK_NOFOLLOW);
		if (tree < 0 && errno == ENOENT)
			continue;
		if (tree < 0)
			return fail(b, errno, "open_tree %s/%s", op->dest, ro[i]);
		if (set_attrs(b, tree, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
			      MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, ro[i]) < 0)
			return -1;
		if (sys_move_mount(tree, "", mnt, ro[i], MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return fail(b, errno, "move_mount %s/%s", op->dest, ro[i]);
	}
	return 0;
}

/* Attach TREE, a detached copy of a device node's mount, onto NAME in
 * DEV (an empty file made for it), device access allowed. */
static int dev_node(struct build *b, int dev, const char *name, int tree)
{
	int f = openat(dev, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		       O_CLOEXEC, 0444);
	if (f < 0)
		return fail(b, errno, "create %s", name);
	close(f);
	if (set_attrs(b, tree, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, name) < 0)
		return -1;
	if (sys_move_mount(tree, "", dev, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail(b, errno, "move_mount %s", name);
	return 0;
}

/* When stdin is a terminal, the session keeps using it and programs that
 * look for their terminal's name (tty, ttyname) find it as /dev/console,
 * as with bubblewrap: the new devpts instance does not have it. The
 * kernel only clones mounts of the caller's own namespace, and stdin was
 * opened in the host's, so its node is looked up again by the path the
 * kernel gives for it, without symlinks, and must be the same inode. */
static int dev_console(struct build *b, int dev)
{
	struct stat in, found;
	char path[PATH_MAX];
	if (!isatty(STDIN_FILENO) || fstat(STDIN_FILENO, &in) < 0)
		return 0;
	ssize_t n = readlink("/proc/self/fd/0", path, sizeof(path) - 1);
	if (n <= 0 || path[0] != '/')
		return 0;
	path[n] = '\0';
	if (creds_fs_root(b->err) < 0)
		return -1;
	int fd AUTOCLOSE = sys_openat2(AT_FDCWD, path, O_PATH | O_CLOEXEC, RESOLVE_SAFE);
	if (fs_default(b) < 0)
		return -1;
	if (fd < 0 || fstat(fd, &found) < 0 || !S_ISCHR(found.st_mode) ||
	    found.st_rdev != in.st_rdev || found.st_ino != in.st_ino ||
	    found.st_dev != in.st_dev)
		return 0; /* a terminal this namespace cannot name */
	int tree AUTOCLOSE = sys_open_tree(fd, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(b, errno, "open_tree %s", path);
	return dev_node(b, dev, "console", tree);
}

static int op_dev(struct build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0)
		return -1;
	int dev AUTOCLOSE = tmpfs_new(b, DEV_SIZE, 0755, DEV_INODES);
	if (dev < 0 || attach(b, dev, dst, op->dest) < 0)
		return -1;

	static const char *const nodes[] = { "null", "zero", "full", "random",
					     "urandom", "tty" };
	/* The host's nodes, by paths anyone can look up. */
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char host[32];
		snprintf(host, sizeof(host), "/dev/%s", nodes[i]);
		int tree AUTOCLOSE = sys_open_tree(AT_FDCWD, host, OPEN_TREE_CLONE |
						   OPEN_TREE_CLOEXEC |
						   AT_SYMLINK_NOFOLLOW);
		struct stat st;
		if (tree < 0)
			return fail(b, errno, "open_tree %s", host);
		if (fstat(tree, &st) < 0 || !S_ISCHR(st.st_mode))
			return fail(b, 0, "%s is not a character device", host);
		if (dev_node(b, dev, nodes[i], tree) < 0)
			return -1;
	}

	if (mkdirat(dev, "pts", 0755) < 0)
		return fail(b, errno, "mkdir pts");
	static const struct fs_opt pts_opts[] = {
		{ "newinstance", NULL }, { "ptmxmode", "0666" }, { "mode", "0620" },
		{ "max", DEVPTS_MAX },
	};
	int pts AUTOCLOSE = fs_new(b, "devpts", pts_opts, 4,
				   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (pts < 0)
		return -1;
	if (sys_move_mount(pts, "", dev, "pts", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail(b, errno, "move_mount pts");

	if (mkdirat(dev, "shm", 0755) < 0)
		return fail(b, errno, "mkdir shm");
	char shm_size[32];
	tmpfs_size(b, NULL, shm_size, sizeof(shm_size));
	int shm AUTOCLOSE = tmpfs_new(b, shm_size, 01777, NULL);
	if (shm < 0)
		return -1;
	if (sys_move_mount(shm, "", dev, "shm", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail(b, errno, "move_mount shm");

	/* As bubblewrap's /dev has them (core included: /proc/kcore is
	 * root's only). */
	static const char *const links[][2] = {
		{ "ptmx", "pts/ptmx" },          { "core", "/proc/kcore" },
		{ "fd", "/proc/self/fd" },
		{ "stdin", "/proc/self/fd/0" },  { "stdout", "/proc/self/fd/1" },
		{ "stderr", "/proc/self/fd/2" },
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) < 0)
			return fail(b, errno, "symlink %s", links[i][0]);

	return dev_console(b, dev);
}

static int op_mqueue(struct build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0)
		return -1;
	int mnt AUTOCLOSE = fs_new(b, "mqueue", NULL, 0, MOUNT_ATTR_NOSUID |
				   MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mnt < 0)
		return -1;
	return attach(b, mnt, dst, op->dest);
}

/* An overlay whose lower layer is what DEST shows now and whose upper and
 * work directories sit on a fresh tmpfs that nothing else references:
 * writes land there and vanish with the namespace. The overlay is made
 * with root's file-system identity because overlayfs copies files up with
 * its mounter's credentials (ownership included); the user still needs
 * ordinary permission on each file to change it. Mounts below DEST are
 * not part of the lower layer (overlayfs does not cross mounts). */
static int op_tmp_overlay(struct build *b, const struct fs_op *op)
{
	int lower AUTOCLOSE = open_dest(b, op->dest, MAKE_NONE);
	if (lower < 0)
		return -1;
	struct stat st;
	if (fstat(lower, &st) < 0)
		return fail(b, errno, "stat");
	if (!S_ISDIR(st.st_mode))
		return fail(b, ENOTDIR, "lower layer");
	if (creds_fs_root(b->err) < 0)
		return -1;

	int rc = -1, ov = -1;
	char size[32];
	tmpfs_size(b, op, size, sizeof(size));
	int tmp AUTOCLOSE = tmpfs_new(b, size, 0700, NULL);
	if (tmp < 0)
		goto out;
	/* The merged root shows the upper directory's owner and mode. */
	if (mkdirat(tmp, "upper", st.st_mode & 07777) < 0 ||
	    fchownat(tmp, "upper", st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) < 0 ||
	    mkdirat(tmp, "work", 0700) < 0) {
		fail(b, errno, "upper layer");
		goto out;
	}
	/* overlayfs takes its layers from mounts of this namespace: attach
	 * the tmpfs for a moment on top of the host's root (out of every
	 * path lookup's way), then detach it once overlayfs holds its own
	 * private copy. */
	if (sys_move_mount(tmp, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		fail(b, errno, "move_mount upper layer");
		goto out;
	}
	char lowerdir[64], upperdir[64], workdir[64], tmpdir[64];
	snprintf(lowerdir, sizeof(lowerdir), "/proc/self/fd/%d", lower);
	snprintf(tmpdir, sizeof(tmpdir), "/proc/self/fd/%d", tmp);
	snprintf(upperdir, sizeof(upperdir), "/proc/self/fd/%d/upper", tmp);
	snprintf(workdir, sizeof(workdir), "/proc/self/fd/%d/work", tmp);
	struct fs_opt opts[] = {
		{ "lowerdir", lowerdir }, { "upperdir", upperdir }, { "workdir", workdir },
	};
	ov = fs_new(b, "overlay", opts, 3, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (umount2(tmpdir, MNT_DETACH) < 0 && ov >= 0) {
		fail(b, errno, "detaching the upper layer's tmpfs");
		goto out;
	}
	if (ov >= 0)
		rc = attach(b, ov, lower, op->dest);
out:
	close_fd(&ov);
	if (fs_default(b) < 0)
		return -1;
	return rc;
}

/* ---- Guest accounts ---- */

/* A tmpfs home of the user's (in service mode too), filled from the
 * skeleton while still detached: nothing of the user's can see or race
 * it before it holds the whole copy. */
static int op_home_tmpfs(struct build *b, const struct fs_op *op)
{
	char size[32];
	tmpfs_size(b, op, size, sizeof(size));
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0 || creds_fs_root(b->err) < 0)
		return -1;
	int rc = -1;
	int skel AUTOCLOSE = skel_open(op->source, b->err);
	int mnt AUTOCLOSE = -1;
	if (skel >= 0)
		mnt = tmpfs_owned(b, size, op->mode, NULL, b->who->uid, b->who->gid);
	if (mnt >= 0) {
		struct cc_error why;
		if (skel_copy(skel, op->source, mnt, b->who->uid, b->who->gid, &why) < 0)
			fail(b, 0, "%s", why.msg);
		else
			rc = 0;
	}
	if (fs_default(b) < 0)
		return -1;
	if (rc < 0)
		return skel < 0 ? cc_prefix(b->err, "%s:%d: home-tmpfs %s", op->file,
					    op->line, op->dest) : -1;
	return attach(b, mnt, dst, op->dest);
}

/* /tmp, /var/tmp or /dev/shm of root's, mode 01777: a fresh tmpfs, or
 * the user's persistent instance on the host. */
static int op_private_tmp(struct build *b, const struct fs_op *op)
{
	int dst AUTOCLOSE = open_dest(b, op->dest, MAKE_DIR);
	if (dst < 0)
		return -1;
	if (!op->source) {
		char size[32];
		tmpfs_size(b, op, size, sizeof(size));
		int mnt AUTOCLOSE = tmpfs_owned(b, size, op->mode, NULL, 0, 0);
		return mnt < 0 ? -1 : attach(b, mnt, dst, op->dest);
	}
	if (creds_fs_root(b->err) < 0)
		return -1;
	struct cc_error why;
	int inst AUTOCLOSE = private_tmp_instance(op->source, b->who->uid, &why);
	if (fs_default(b) < 0)
		return -1;
	if (inst < 0)
		return fail(b, 0, "%s", why.msg);
	int tree AUTOCLOSE = sys_open_tree(inst, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(b, errno, "open_tree %s", op->source);
	if (set_attrs(b, tree, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, op->source) < 0)
		return -1;
	return attach(b, tree, dst, op->dest);
}

static int run_op(struct build *b, const struct fs_op *op)
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
	case OP_HOME_TMPFS: return op_home_tmpfs(b, op);
	case OP_PRIVATE_TMP: return op_private_tmp(b, op);
	}
	return fail(b, 0, "unknown operation type %d", (int)op->type);
}

int mounts_build(const struct plan *plan, unsigned flags, int *rootfd,
		 struct cc_error *err)
{
	struct build b = { .plan = plan, .who = &plan->who, .rootfd = -1, .err = err,
			   .service = flags & MOUNTS_SERVICE };
	if (b.service && creds_fs_root(err) < 0)
		return -1;
	/* Owned by the user, mode 0755, as bubblewrap's root is (root's in
	 * service mode). */
	char root_size[32];
	snprintf(root_size, sizeof(root_size), "%llu", plan->root_size);
	b.rootfd = tmpfs_new(&b, root_size, 0755, NULL);
	if (b.rootfd < 0)
		return -1;
	if (sys_move_mount(b.rootfd, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		fail(&b, errno, "move_mount");
		close(b.rootfd);
		return -1;
	}
	for (size_t i = 0; i < plan->nops; i++) {
		b.op = &plan->ops[i];
		if (FAULT(op_type_name(b.op->type, b.op->optional), err) < 0 ||
		    run_op(&b, b.op) < 0) {
			close(b.rootfd);
			return -1;
		}
	}
	*rootfd = b.rootfd;
	return 0;
}

int mounts_pivot(int rootfd, struct cc_error *err)
{
	/* pivot_root(".", ".") stacks the old root on the new one; detaching
	 * "." then removes the old root and every host mount with it. */
	if (fchdir(rootfd) < 0)
		return cc_fail_errno(err, "chdir to the new root");
	if (sys_pivot_root(".", ".") < 0)
		return cc_fail_errno(err, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return cc_fail_errno(err, "detaching the old root");
	if (chdir("/") < 0)
		return cc_fail_errno(err, "chdir /");
	/* ".." at the root follows a mount stacked on the root: it must lead
	 * back to the root itself, or part of the old tree is still there. */
	struct statx root, up;
	if (statx(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &root) < 0 ||
	    statx(AT_FDCWD, "/..", AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &up) < 0)
		return cc_fail_errno(err, "checking the new root");
	if (!(root.stx_mask & up.stx_mask & STATX_MNT_ID) ||
	    root.stx_mnt_id != up.stx_mnt_id || root.stx_ino != up.stx_ino ||
	    root.stx_dev_major != up.stx_dev_major ||
	    root.stx_dev_minor != up.stx_dev_minor)
		return cc_fail(err, "the old root is still reachable after pivot_root");
	return 0;
}

/* ---- Service mode ---- */

/* Bind the host's PATH at the same place, when the host has it. Missing
 * parents are made (root's, 0755: every system path of a service plan is
 * root's); a parent that cannot be made or written skips it. */
static int bind_host_record(struct build *b, const char *path)
{
	int tree AUTOCLOSE = sys_open_tree(AT_FDCWD, path, OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
	if (tree < 0)
		return errno == ENOENT ? 0
				       : cc_fail_errno(b->err, "open_tree %s", path);
	struct stat st;
	if (fstat(tree, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	char last[NAME_MAX + 1];
	struct cc_error ignored;
	struct cc_error *saved = b->err;
	b->err = &ignored;
	int pdir AUTOCLOSE = open_parent(b, path, last);
	b->err = saved;
	if (pdir < 0)
		return 0;
	int f = openat(pdir, last, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		       O_CLOEXEC, 0644);
	if (f >= 0)
		close(f);
	else if (errno != EEXIST)
		return 0; /* a read-only parent: skipped */
	int dst AUTOCLOSE = sys_openat2(pdir, last, O_PATH | O_CLOEXEC,
					RESOLVE_BENEATH | RESOLVE_SAFE);
	struct stat dst_st;
	if (dst < 0 || fstat(dst, &dst_st) < 0 || S_ISDIR(dst_st.st_mode))
		return 0;
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					       MOUNT_ATTR_NOEXEC };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr) < 0)
		return cc_fail_errno(b->err, "mount_setattr %s", path);
	if (sys_move_mount(tree, "", dst, "", MOVE_MOUNT_F_EMPTY_PATH |
			   MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return cc_fail_errno(b->err, "binding the host's %s", path);
	return 0;
}

static int write_file_at(int dir, const char *name, const void *data, size_t len,
			 mode_t mode, struct cc_error *err)
{
	int fd AUTOCLOSE = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL |
				  O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 || write_full(fd, data, len) < 0)
		return cc_fail_errno(err, "writing /run/cocoon/%s", name);
	return 0;
}

/* A regular file inside the new root, symlinks resolved inside it. */
static int open_in_root(struct build *b, const char *path, const char *what)
{
	if (path[0] != '/')
		return cc_fail(b->err, "%s %s is not an absolute path", what, path);
	int fd = sys_openat2(b->rootfd, path + 1, O_PATH | O_CLOEXEC,
			     RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	struct stat st;
	if (fd < 0)
		return cc_fail_errno(b->err, "%s %s in the sandbox", what, path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return cc_fail(b->err, "%s %s in the sandbox is not a regular file",
			       what, path);
	}
	return fd;
}

/* A mount of cocoon-launch: root's alone to write, and readable by root
 * alone, so that the process it starts is not dumpable (the kernel marks
 * the exec of a file its caller cannot read): nothing of the user's can
 * trace it or write its memory before it has set the filter. */
static int open_launcher(const char *path, struct stat *st, struct cc_error *err)
{
	int fd = sys_open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0) {
		cc_fail_errno(err, "cocoon-launch %s", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode) || st->st_uid != 0 ||
	    (st->st_mode & (S_IWGRP | S_IWOTH | S_IRGRP | S_IROTH))) {
		close(fd);
		return cc_fail(err, "cocoon-launch %s: not a regular file that only "
			       "root can write and read (install it 0711)", path);
	}
	return fd;
}

/* Bind the file REAL (an O_PATH descriptor inside the new root) at NAME
 * in /run/cocoon (TMP), read-only. */
static int bind_real(struct build *b, int tmp, int real, const char *name,
		     const char *what)
{
	int tree AUTOCLOSE = sys_open_tree(real, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0 || set_attrs(b, tree, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				  MOUNT_ATTR_NODEV, what) < 0 ||
	    sys_move_mount(tree, "", tmp, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return cc_fail_errno(b->err, "binding %s", what);
	return 0;
}

/* Bind a fresh mount of the launcher over the file TARGET (an O_PATH
 * descriptor inside the new root). */
static int cover(struct build *b, const struct service_setup *s,
		 const struct stat *launcher_st, int target, const char *what)
{
	struct stat st;
	int launcher AUTOCLOSE = open_launcher(s->launcher, &st, b->err);
	if (launcher < 0)
		return -1;
	if (st.st_dev != launcher_st->st_dev || st.st_ino != launcher_st->st_ino)
		return cc_fail(b->err, "cocoon-launch %s changed during the setup",
			       s->launcher);
	if (set_attrs(b, launcher, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
		      MOUNT_ATTR_NODEV, s->launcher) < 0)
		return -1;
	if (sys_move_mount(launcher, "", target, "", MOVE_MOUNT_F_EMPTY_PATH |
			   MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return cc_fail_errno(b->err, "binding cocoon-launch over %s", what);
	return 0;
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int mounts_service_setup(const struct plan *plan, int rootfd,
			 const struct service_setup *s, struct cc_error *err)
{
	struct build b = { .plan = plan, .who = &plan->who, .rootfd = rootfd,
			   .err = err, .service = true };
	static const char *const records[] = { "/run/utmp", "/var/log/wtmp",
					       "/var/log/btmp", "/var/log/lastlog",
					       "/dev/log" };
	/* glibc and OpenSSH write utmp at /var/run/utmp (_PATH_UTMP): where
	 * the plan made a /var without a /var/run, it leads to /run as on
	 * the host. */
	int var AUTOCLOSE = sys_openat2(rootfd, "var", O_PATH | O_DIRECTORY | O_CLOEXEC,
					RESOLVE_IN_ROOT | RESOLVE_SAFE);
	if (var >= 0 && symlinkat("../run", var, "run") < 0 && errno != EEXIST &&
	    errno != EROFS)
		return cc_fail_errno(err, "symlink /var/run");
	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		if (bind_host_record(&b, records[i]) < 0)
			return -1;

	struct stat launcher_st;
	int probe AUTOCLOSE = open_launcher(s->launcher, &launcher_st, err);
	if (probe < 0)
		return -1;

	int dst AUTOCLOSE = open_dest(&b, "/run/cocoon", MAKE_DIR);
	if (dst < 0)
		return cc_prefix(err, "service mode");
	int tmp AUTOCLOSE = tmpfs_new(&b, "1m", 0755, "64");
	if (tmp < 0 || attach(&b, tmp, dst, "/run/cocoon") < 0)
		return cc_prefix(err, "service mode");
	if (write_file_at(tmp, "launch", s->launch, strlen(s->launch), 0644, err) < 0 ||
	    (s->bpf && write_file_at(tmp, "seccomp.bpf", s->bpf, s->bpf_len, 0644,
				     err) < 0) ||
	    (s->id && write_file_at(tmp, "id", s->id, strlen(s->id), 0444, err) < 0) ||
	    write_file_at(tmp, "shell", "", 0, 0644, err) < 0)
		return -1;

	/* The login shell's path, made when missing so the launcher can
	 * cover it. */
	int login = sys_openat2(rootfd, s->login_shell + 1, O_PATH | O_CLOEXEC,
				RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (login < 0 && errno == ENOENT)
		login = open_dest(&b, s->login_shell, MAKE_FILE);
	if (login < 0)
		return cc_fail(err, "the login shell %s cannot be covered in the "
			       "sandbox: %s", s->login_shell, err->msg);
	int login_fd AUTOCLOSE = login;
	struct stat st;
	if (fstat(login_fd, &st) < 0 || !S_ISREG(st.st_mode))
		return cc_fail(err, "the login shell %s in the sandbox is not a "
			       "regular file", s->login_shell);
	/* /bin/sh, which services run with the user's environment beside the
	 * login shell (sshd's ~/.ssh/rc, /etc/ssh/sshrc and xauth through
	 * popen): covered too, unless it is the login shell's own file or the
	 * sandbox has none. */
	int sh AUTOCLOSE = sys_openat2(rootfd, "bin/sh", O_PATH | O_CLOEXEC,
				       RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (sh < 0 && errno != ENOENT)
		return cc_fail_errno(err, "/bin/sh in the sandbox");
	if (sh >= 0 && (fstat(sh, &st) < 0 || !S_ISREG(st.st_mode)))
		return cc_fail(err, "/bin/sh in the sandbox is not a regular file");
	bool cover_sh = sh >= 0 && !same_file(sh, login_fd);

	/* The real programs first: the launcher may cover their very paths. */
	int real AUTOCLOSE = open_in_root(&b, s->real_shell, "the real shell");
	if (real < 0 || bind_real(&b, tmp, real, "shell", s->real_shell) < 0)
		return -1;
	if (cover_sh && (write_file_at(tmp, "sh", "", 0, 0644, err) < 0 ||
			 bind_real(&b, tmp, sh, "sh", "/bin/sh") < 0))
		return -1;
	if (set_attrs(&b, tmp, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		      "/run/cocoon") < 0)
		return -1;
	if (cover(&b, s, &launcher_st, login_fd, s->login_shell) < 0)
		return -1;
	return cover_sh ? cover(&b, s, &launcher_st, sh, "/bin/sh") : 0;
}
