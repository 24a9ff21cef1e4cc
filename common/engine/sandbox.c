// SPDX-License-Identifier: GPL-2.0-or-later
/* What run mode and service mode share in executing a plan. */
/* The engine: execute a plan. This file holds what run mode
 * (sandbox_run.c) and service mode (sandbox_service.c) share.
 *
 * Process tree, with a pid namespace (the usual case):
 *
 *   caller (root, on the host)   sandbox_run(): builds the seccomp filter,
 *     |                          waits, relays signals, writes a user
 *     |                          namespace's id maps
 *     +- pid 1   clone3(NEWNS|NEWPID): forks the session process, creates
 *          |     the other namespaces (net, ipc, uts, cgroup), closes every
 *          |     descriptor but the status pipe's and becomes the
 *          |     namespace's init (session_init.c) in the caller's own
 *          |     image: no exec
 *          +- pid 2   the session process: builds the new root, joins pid
 *                     1's namespaces, pivots, becomes the user, execs the
 *                     command
 *
 * Without a pid namespace the caller's child, cloned into all the
 * namespaces at once, is the session process. Service mode
 * (sandbox_service.c) runs pid 1 differently: it runs in the service's
 * memory only to clone the session process and then executes
 * cocoon-init, so that it holds none of the service's memory;
 * cocoon-init creates the other namespaces.
 *
 * The session process runs the steps of build_steps (session_setup.c),
 * in order, as root: the new root built (mounts.c), the namespaces
 * joined, pivot_root. In run mode command_steps follow, each marked as
 * root's or the user's: limits, the Landlock wall and a new keyring, the
 * seccomp filter, the switch to the user (credentials.c), a user
 * namespace, no_new_privs, and execve.
 *
 * The caller's side has its tables too: run_steps (sandbox_run.c) and
 * service_steps (sandbox_service.c), each undone by its mode's one
 * teardown, as far as the steps got.
 *
 * Pid 1 reads no file once the root may pivot: in run mode it never
 * execs (an exec after the pivot would have the dynamic loader read the
 * sandbox's /etc/ld.so.preload and libraries, which the user shapes,
 * while pid 1 is root with every capability). Cocoon-init, in service
 * mode, is exec'd from a descriptor opened on the host before the root
 * is built. Linked statically (musl) it loads nothing; linked against
 * glibc (no musl-gcc at build time) it loads the host's libraries. Either
 * way the session process pivots only once pid 1 has closed its
 * descriptors (the end of file on a pipe). Pid 1 (in service mode
 * cocoon-init, once executed) creates the other namespaces (half a
 * millisecond for a network namespace) while the session process builds
 * the root, on the other CPU.
 *
 * Undoing a failure: everything is built inside namespaces that only
 * these processes hold. A failing step makes the session process report
 * its message over the socket and exit; pid 1 (or the caller,
 * without a pid namespace) then sees it end, the namespaces die with
 * their last process and the mounts with them. The host's own mount
 * table is never touched: propagation is made private before the first
 * mount. The caller returns only after its child is reaped, or, in run
 * mode with a pid namespace, once pid 1 has reaped the others. What the
 * build created inside a writable bind of a host directory (mount
 * points, as the user) stays, as with bubblewrap; the planner refuses
 * creating below a bind the user can write.
 *
 * Reports travel on a SOCK_SEQPACKET pair, close-on-exec in the children:
 * an error (the first one wins), a request for the user namespace's maps,
 * and the end of file, once both children have exec'd, which means the
 * command runs; report.h has every message.
 *
 * The caller must be single-threaded (checked): in run mode the first
 * child is made with a raw clone3, which copies the caller as it is,
 * locks other threads held included, and it allocates memory (libcap)
 * before its exec; in service mode pid 2 is such a copy. */
#include "sandbox_internal.h"

/* ---- Signals in the caller ----
 *
 * While the session runs, the caller relays TERM and HUP (a service
 * stopping, a connection hanging up) and INT and QUIT sent by a process.
 * A terminal sends INT and QUIT to its foreground process group, which
 * holds the session as well: those are not sent a second time. */
const int sandbox_forwarded[NFORWARDED] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };
volatile sig_atomic_t sandbox_pending[NFORWARDED];

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if ((sig == SIGINT || sig == SIGQUIT) && si->si_code == SI_KERNEL)
		return;
	for (size_t i = 0; i < NFORWARDED; i++)
		if (sandbox_forwarded[i] == sig)
			sandbox_pending[i] = 1;
}

void sandbox_signals_take(struct saved_signals *saved)
{
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&block, sandbox_forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &saved->mask);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFORWARDED; i++) {
		sandbox_pending[i] = 0;
		sigaction(sandbox_forwarded[i], &sa, &saved->act[i]);
	}
	/* The caller must not reap (or auto-reap, with SIG_IGN) our child. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &saved->chld);
}

void sandbox_signals_restore(const struct saved_signals *saved)
{
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(sandbox_forwarded[i], &saved->act[i], NULL);
	sigaction(SIGCHLD, &saved->chld, NULL);
	sigprocmask(SIG_SETMASK, &saved->mask, NULL);
}

/* ---- Session limits ---- */

long long sandbox_boottime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec;
}

/* The session's cgroup and deadline, before any of its processes. */
int sandbox_limits_prepare(struct run *run, bool make_cgroup, struct cc_error *err)
{
	const struct session_limits *l = &run->plan->limits;
	if (l->max_session_time)
		run->deadline = sandbox_boottime() + (long long)l->max_session_time;
	return make_cgroup ? cgroup_create(l, run->req->session_id, &run->cgroup, err) : 0;
}

void sandbox_init_warnings(const struct plan *plan, struct session_init_notices *notices)
{
	const struct session_limits *l = &plan->limits;
	notices->nwarnings = 0;
	for (unsigned i = 0; i < l->ntime_warnings && i < SESSION_INIT_WARNINGS_MAX; i++)
		notices->warnings[notices->nwarnings++] = l->time_warnings[i];
}

_Noreturn void sandbox_child_fail(const struct run *run, const struct cc_error *err)
{
	report_error(run->sock, err);
	_exit(127);
}

/* First steps of the caller's child. */
int sandbox_child_begin(struct cc_error *err)
{
	/* Messages are formatted in the C locale: strerror in another one
	 * would read translation catalogues, from the sandbox after the
	 * pivot. Already C (sshd never sets one), it is left alone: setting
	 * it again rewrites glibc's locale data, pages this fresh copy of
	 * the caller then copies (0.2 ms of every build on a slow host). */
	const char *locale = setlocale(LC_ALL, NULL);
	if (!locale || strcmp(locale, "C") != 0)
		setlocale(LC_ALL, "C");
	/* A setuid entry point leaves the real uid the user's, which would
	 * let the user signal (stop, kill) root's setup and cocoon-init. */
	if (creds_take_root(err) < 0)
		return cc_prefix(err, "becoming fully root");
	return 0;
}

/* ---- The caller ---- */

int sandbox_open_init(const char *path, struct cc_error *err)
{
	if (!path)
		return cc_fail(err, "a pid namespace needs cocoon-init, and none was given");
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "cocoon-init %s", path);
	/* It runs as root with every capability: only root may have
	 * written it. */
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return cc_fail(err, "cocoon-init %s: not a regular file that only "
			       "root can write", path);
	}
	return fd;
}

/* raw clone without CLONE_VM copies the process as it is: a lock that
 * another thread held stays held in the child (glibc's fork would reset
 * malloc's; this does not). unshare(CLONE_NEWNS) refuses threaded
 * callers for a similar reason. */
int sandbox_check_single_threaded(struct cc_error *err)
{
	struct stat st;
	/* /proc/PID/task links: ".", ".." and one per thread. */
	if (stat("/proc/self/task", &st) == 0 && st.st_nlink > 3)
		return cc_fail(err, "the caller runs %lu threads; building a "
			       "sandbox needs a single-threaded process",
			       (unsigned long)st.st_nlink - 2);
	return 0;
}

pid_t sandbox_clone_child(unsigned long long flags, int *pidfd)
{
	struct cc_clone_args args = {
		.flags = flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
	};
	pid_t pid = (pid_t)sys_clone3(&args);
	if (pid >= 0 || errno != ENOSYS)
		return pid;
	/* clone3 filtered out (some container runtimes): the old clone,
	 * without a stack it works like fork; argument order differs
	 * between architectures but all but the flags are zero. */
	pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
	if (pid > 0 && (*pidfd = sys_pidfd_open(pid, 0)) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* The children's report socket (sv[1] is theirs). */
/* The session's share of the user's ptys, granted before the clone. */
int sandbox_take_ptys(struct run *run, struct pty_quota *quota, struct cc_error *err)
{
	if (pty_quota_take(run->plan, run->req->session_id, quota, err) < 0)
		return -1;
	run->ptys = quota->ptys;
	return 0;
}

int sandbox_open_reports(struct run *run, int sv[2], struct cc_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return cc_fail_errno(err, "socketpair");
	run->sock = sv[1];
	return 0;
}

/* The plan's namespaces besides mount and pid, as CLONE_NEW* flags. */
unsigned long sandbox_other_namespaces(const struct plan *plan)
{
	unsigned long flags = 0;
	if (plan->namespaces & NS_NET)
		flags |= CLONE_NEWNET;
	if (plan->namespaces & NS_IPC)
		flags |= CLONE_NEWIPC;
	if (plan->namespaces & NS_UTS)
		flags |= CLONE_NEWUTS;
	if (plan->namespaces & NS_CGROUP)
		flags |= CLONE_NEWCGROUP;
	return flags;
}

