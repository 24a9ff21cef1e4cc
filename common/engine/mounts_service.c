// SPDX-License-Identifier: GPL-2.0-or-later
/* Service mode's additions to a built root, and `cocoonctl why`'s text. */
/* Service mode's additions to a built root (mounts_service_setup): the
 * session record of the host bound in, the host's log socket for root
 * alone, cocoon-launch's settings written, and the launcher bound over
 * the shells a root service would start. */
#include "mounts.h"
#include "mount_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credentials.h"
#include "plan_print.h"
#include "util.h"

/* Bind the host's PATH at the same place, when the host has it. Missing
 * parents are made (root's, 0755: every system path of a service plan is
 * root's); a parent that cannot be made or written skips it. */
static int bind_host_record(struct tree_build *b, const char *path)
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
	int pdir AUTOCLOSE = tree_open_parent(b, path, last);
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
static int open_in_root(struct tree_build *b, const char *path, const char *what)
{
	if (path[0] != '/')
		return cc_fail(b->err, "%s %s is not an absolute path", what, path);
	int fd AUTOCLOSE = sys_openat2(b->rootfd, path + 1, O_PATH | O_CLOEXEC,
				       RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	struct stat st;
	if (fd < 0)
		return cc_fail_errno(b->err, "%s %s in the sandbox", what, path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return cc_fail(b->err, "%s %s in the sandbox is not a regular file",
			       what, path);
	return steal_fd(&fd);
}

/* A mount of cocoon-launch: root's alone to write, and readable by root
 * alone, so that the process it starts is not dumpable (the kernel marks
 * the exec of a file its caller cannot read): nothing of the user's can
 * trace it or write its memory before it has set the filter. */
static int open_launcher(const char *path, struct stat *st, struct cc_error *err)
{
	int fd AUTOCLOSE = sys_open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0)
		return cc_fail_errno(err, "cocoon-launch %s", path);
	if (!S_ISREG(st->st_mode) || st->st_uid != 0 ||
	    (st->st_mode & (S_IWGRP | S_IWOTH | S_IRGRP | S_IROTH)))
		return cc_fail(err, "cocoon-launch %s: not a regular file that only "
			       "root can write and read (install it 0711)", path);
	return steal_fd(&fd);
}

/* Bind the file REAL (an O_PATH descriptor inside the new root) at NAME
 * in /run/cocoon (TMP), read-only. */
static int bind_real(struct tree_build *b, int tmp, int real, const char *name,
		     const char *what)
{
	int tree AUTOCLOSE = sys_open_tree(real, "", AT_EMPTY_PATH | OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	if (tree < 0 || tree_set_attrs(b, tree, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				       MOUNT_ATTR_NODEV, what) < 0 ||
	    sys_move_mount(tree, "", tmp, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return cc_fail_errno(b->err, "binding %s", what);
	return 0;
}

/* Bind a fresh mount of the launcher over the file TARGET (an O_PATH
 * descriptor inside the new root). */
static int cover(struct tree_build *b, const struct service_setup *s,
		 const struct stat *launcher_st, int target, const char *what)
{
	struct stat st;
	int launcher AUTOCLOSE = open_launcher(s->launcher, &st, b->err);
	if (launcher < 0)
		return -1;
	if (!stat_same_file(&st, launcher_st))
		return cc_fail(b->err, "cocoon-launch %s changed during the setup",
			       s->launcher);
	if (tree_set_attrs(b, launcher, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
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
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && stat_same_file(&sa, &sb);
}

/* The host's syslog socket, for the service alone. The service process
 * (sshd's monitor, su, login) lives in the session's mount namespace as
 * root and keeps logging there, reconnecting to /dev/log by path (glibc
 * does after any error, OpenSSH at every line); the user must not reach
 * it, or any line they write passes for root's (a forged audit record).
 * So the socket is bound in a directory of /run/cocoon only root may
 * search, and the sandbox's /dev/log is a symbolic link to it: connect()
 * needs search permission on every directory the path passes through.
 * /dev/log itself may be a link (journald's, on systemd hosts): the
 * socket it leads to is bound. A host without one, or a plan whose /dev
 * has a /dev/log already or cannot be written, gets none. */
static int bind_host_log(struct tree_build *b, int tmp)
{
	int tree AUTOCLOSE = sys_open_tree(AT_FDCWD, "/dev/log", OPEN_TREE_CLONE |
					   OPEN_TREE_CLOEXEC);
	struct stat st;
	if (tree < 0)
		return errno == ENOENT ? 0 : cc_fail_errno(b->err, "open_tree /dev/log");
	if (fstat(tree, &st) < 0 || !S_ISSOCK(st.st_mode))
		return 0;
	char last[NAME_MAX + 1];
	struct cc_error ignored;
	struct cc_error *saved = b->err;
	b->err = &ignored;
	int dev AUTOCLOSE = tree_open_parent(b, "/dev/log", last);
	b->err = saved;
	if (dev < 0)
		return 0;
	if (mkdirat(tmp, "log", 0700) < 0 || fchmodat(tmp, "log", 0700, 0) < 0)
		return cc_fail_errno(b->err, "mkdir /run/cocoon/log");
	int f = openat(tmp, "log/dev-log", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		       O_CLOEXEC, 0600);
	if (f < 0)
		return cc_fail_errno(b->err, "creating /run/cocoon/log/dev-log");
	close(f);
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					       MOUNT_ATTR_NOEXEC };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr) < 0)
		return cc_fail_errno(b->err, "mount_setattr /dev/log");
	if (sys_move_mount(tree, "", tmp, "log/dev-log", MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return cc_fail_errno(b->err, "binding the host's /dev/log");
	if (symlinkat("/run/cocoon/log/dev-log", dev, last) < 0 && errno != EEXIST &&
	    errno != EROFS)
		return cc_fail_errno(b->err, "symlink /dev/log");
	return 0;
}

/* `session` in /run/cocoon (DIR): what `cocoonctl why` shows. */
static int write_session_info(int dir, const struct plan *plan, const char *id,
			      struct cc_error *err)
{
	struct strbuf text = { 0 };
	plan_print_session(plan, id, &text);
	int rc = write_file_at(dir, "session", text.data, text.len, 0444, err);
	sb_free(&text);
	return rc;
}

/* Whether /run/cocoon may be made: the mount the plan puts there is
 * the sandbox's own memory (the root tmpfs, or a `tmpfs`). In a bind of
 * a host directory the user can write, a directory made there would
 * stay on the host after the session (cocoon.conf(5), Safe creation). */
static bool session_info_place(const struct plan *plan)
{
	const struct fs_op *holder = NULL;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		bool mounts = op->type != OP_DIR && op->type != OP_FILE &&
			      op->type != OP_SYMLINK && op->type != OP_CHMOD &&
			      op->type != OP_REMOUNT_RO;
		if (mounts && path_is_under("/run/cocoon", op->dest))
			holder = op;
	}
	return !holder || holder->type == OP_TMPFS;
}

int mounts_session_info(const struct plan *plan, int rootfd, const char *id,
			struct cc_error *err)
{
	struct tree_build b = { .plan = plan, .who = &plan->who, .rootfd = rootfd,
			   .err = err };
	struct cc_error ignored;
	b.err = &ignored;
	int dst AUTOCLOSE = sys_openat2(rootfd, "run/cocoon", O_PATH | O_DIRECTORY |
					O_CLOEXEC, RESOLVE_IN_ROOT | RESOLVE_SAFE);
	if (dst < 0 && errno == ENOENT && session_info_place(plan))
		dst = tree_open_dest(&b, "/run/cocoon", TREE_MAKE_DIR);
	b.err = err;
	if (dst < 0)
		return 0;
	/* Root's, made and written with root's file-system identity; the
	 * mount as service mode's (one tree for one plan). */
	if (creds_fs_root(err) < 0)
		return -1;
	int tmp AUTOCLOSE = tree_tmpfs_owned(&b, "1m", 0755, "64", 0, 0);
	int rc = tmp < 0 || tree_attach(&b, tmp, dst, "/run/cocoon") < 0 ||
		 write_session_info(tmp, plan, id, err) < 0 ||
		 tree_set_attrs(&b, tmp, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				MOUNT_ATTR_NODEV, "/run/cocoon") < 0 ? -1 : 0;
	if (tree_fs_default(&b) < 0)
		return -1;
	return rc;
}

int mounts_service_setup(const struct plan *plan, int rootfd,
			 const struct service_setup *s, struct cc_error *err)
{
	struct tree_build b = { .plan = plan, .who = &plan->who, .rootfd = rootfd,
			   .err = err, .service = true };
	static const char *const records[] = { "/run/utmp", "/var/log/wtmp",
					       "/var/log/btmp", "/var/log/lastlog" };
	for (size_t i = 0; i < ARRAY_SIZE(records); i++)
		if (bind_host_record(&b, records[i]) < 0)
			return -1;

	struct stat launcher_st;
	int probe AUTOCLOSE = open_launcher(s->launcher, &launcher_st, err);
	if (probe < 0)
		return -1;

	int dst AUTOCLOSE = tree_open_dest(&b, "/run/cocoon", TREE_MAKE_DIR);
	if (dst < 0)
		return cc_prefix(err, "service mode");
	int tmp AUTOCLOSE = tree_tmpfs_new(&b, "1m", 0755, "64");
	if (tmp < 0 || tree_attach(&b, tmp, dst, "/run/cocoon") < 0)
		return cc_prefix(err, "service mode");
	if (write_file_at(tmp, "launch", s->launch, strlen(s->launch), 0644, err) < 0 ||
	    (s->bpf && write_file_at(tmp, "seccomp.bpf", s->bpf, s->bpf_len, 0644,
				     err) < 0) ||
	    (s->id && write_file_at(tmp, "id", s->id, strlen(s->id), 0444, err) < 0) ||
	    write_session_info(tmp, plan, s->id, err) < 0 ||
	    write_file_at(tmp, "shell", "", 0, 0644, err) < 0 ||
	    bind_host_log(&b, tmp) < 0)
		return -1;

	/* The login shell's path, made when missing so the launcher can
	 * cover it. */
	int login = sys_openat2(rootfd, s->login_shell + 1, O_PATH | O_CLOEXEC,
				RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (login < 0 && errno == ENOENT)
		login = tree_open_dest(&b, s->login_shell, TREE_MAKE_FILE);
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
	if (tree_set_attrs(&b, tmp, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
			   "/run/cocoon") < 0)
		return -1;
	if (cover(&b, s, &launcher_st, login_fd, s->login_shell) < 0)
		return -1;
	return cover_sh ? cover(&b, s, &launcher_st, sh, "/bin/sh") : 0;
}
