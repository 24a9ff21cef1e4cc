/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thin syscall() wrappers for the calls the engine needs and that a C
 * library may not wrap (glibc 2.36 wraps the mount API but not openat2,
 * clone3 or the pidfd calls; other libcs wrap less). Named sys_* so they
 * never collide with a library's own declarations. */
#ifndef COCOON_SYSCALLS_H
#define COCOON_SYSCALLS_H

#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The mount API, openat2, clone3 and the pidfd calls have the same numbers
 * on every architecture. */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* struct clone_args as of Linux 5.3 (CLONE_ARGS_SIZE_VER0); declared
 * here because <linux/sched.h> clashes with <sched.h>. */
struct cc_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
};

static inline int sys_open_tree(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static inline int sys_move_mount(int from_dfd, const char *from_path,
				 int to_dfd, const char *to_path,
				 unsigned flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from_path, to_dfd,
			    to_path, flags);
}

static inline int sys_fsopen(const char *fstype, unsigned flags)
{
	return (int)syscall(SYS_fsopen, fstype, flags);
}

static inline int sys_fsconfig(int fd, unsigned cmd, const char *key,
			       const void *value, int aux)
{
	return (int)syscall(SYS_fsconfig, fd, cmd, key, value, aux);
}

static inline int sys_fsmount(int fd, unsigned flags, unsigned attrs)
{
	return (int)syscall(SYS_fsmount, fd, flags, attrs);
}

static inline int sys_mount_setattr(int dfd, const char *path, unsigned flags,
				    struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr,
			    sizeof(*attr));
}

static inline int sys_openat2(int dfd, const char *path, uint64_t flags,
			      uint64_t resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	return (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

static inline int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

static inline long sys_clone3(struct cc_clone_args *args)
{
	return syscall(SYS_clone3, args, sizeof(*args));
}

static inline int sys_pidfd_open(pid_t pid, unsigned flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

#endif
