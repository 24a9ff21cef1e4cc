// SPDX-License-Identifier: GPL-2.0-or-later
/* The holder of a login's logind session scope, under systemd. */
/*
 * A login of a shared sandbox moves its service process (sshd's monitor,
 * su, login) out of logind's session-N.scope into the sandbox's own
 * scope, so that what it forks lands there. systemd stops a scope whose
 * last process left, and logind then drops the session: the holder,
 * forked before the move, stays behind for the length of the login.
 *
 * It is a grandchild (login and su wait for any child, and would take
 * it for the shell), out of the service's session and process group (no
 * terminal's signals), with every signal at its default, and it keeps
 * no descriptor but a pidfd of the service: nothing of the sandbox (the
 * shared slot's lock, pid 1's socket) lives on in it. It ends when the
 * service kills it at close, or when the service ends. */
#include "scope_holder.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syscalls.h"
#include "util.h"

static void close_from(unsigned first, unsigned last)
{
	if (first > last)
		return;
	if (syscall(SYS_close_range, first, last, 0) == 0)
		return;
	for (unsigned fd = first; fd <= last && fd < 65536; fd++)
		close((int)fd);
}

/* System calls only: the copy of a service's memory, after fork. */
_Noreturn static void hold(int service, int alive)
{
	int lo = service < alive ? service : alive;
	int hi = service < alive ? alive : service;
	if (lo > 0)
		close_from(0, (unsigned)lo - 1);
	close_from((unsigned)lo + 1, (unsigned)hi - 1);
	close_from((unsigned)hi + 1, UINT_MAX);
	setsid();
	prctl(PR_SET_NAME, "cocoon-hold", 0, 0, 0);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* A pidfd polls readable once its process has ended. */
	struct pollfd p = { service, POLLIN, 0 };
	while (poll(&p, 1, -1) <= 0)
		;
	_exit(0);
}

int scope_holder_start(struct cc_error *err)
{
	int service AUTOCLOSE = sys_pidfd_open(getpid(), 0);
	if (service < 0)
		return cc_fail_errno(err, "scope holder: pidfd_open of the service process");
	/* The holder keeps the write end: its end of file, after the pidfd
	 * was opened, says the pidfd is not of a successor of its pid. */
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return cc_fail_errno(err, "scope holder: pipe");
	int rd AUTOCLOSE = fds[0], wr AUTOCLOSE = fds[1];
	struct sigaction old_chld;
	sigset_t old_mask;
	signals_hold_for_helper(&old_chld, &old_mask);
	pid_t helper = fork();
	if (helper == 0) {
		pid_t holder = fork();
		if (holder == 0)
			hold(service, wr);
		ssize_t n = holder > 0 ? write(wr, &holder, sizeof(holder)) : -1;
		_exit(n == (ssize_t)sizeof(holder) ? 0 : 1);
	}
	int fork_errno = errno;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	autoclose_fd(&wr);
	int status = 1;
	while (helper > 0 && waitpid(helper, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGCHLD, &old_chld, NULL);
	if (helper < 0) {
		errno = fork_errno;
		return cc_fail_errno(err, "scope holder: fork");
	}
	pid_t holder = 0;
	if (status != 0 || read(rd, &holder, sizeof(holder)) != (ssize_t)sizeof(holder) ||
	    holder <= 0)
		return cc_fail(err, "scope holder: it did not start");
	int pidfd = sys_pidfd_open(holder, 0);
	struct pollfd p = { rd, POLLIN, 0 };
	if (pidfd < 0 || poll(&p, 1, 0) != 0) {
		if (pidfd >= 0)
			close(pidfd);
		return cc_fail(err, "scope holder: it ended at once");
	}
	return pidfd;
}

void scope_holder_end(int *pidfd)
{
	if (*pidfd < 0)
		return;
	sys_pidfd_send_signal(*pidfd, SIGKILL);
	autoclose_fd(pidfd);
}
