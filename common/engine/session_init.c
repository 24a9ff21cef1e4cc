// SPDX-License-Identifier: GPL-2.0-or-later
#include "session_init.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GRACE 2

/* 128+N for a signal, like a shell. */
static int relay(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

void session_init_close_all_but(int keep)
{
#ifdef SYS_close_range
	/* keep - 1 and keep + 1 wrap round for keep -1: one call, all. */
	if ((keep <= 0 || syscall(SYS_close_range, 0U, (unsigned)keep - 1, 0U) == 0) &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
#endif
	for (int fd = 0; fd < 65536; fd++)
		if (fd != keep)
			close(fd);
}

/* Where the session's status goes once every other process is reaped
 * (-1: nowhere). */
static int status_out = -1;

/* Everything left in the namespace goes with the session. _exit: in run
 * mode this image is a copy of the caller's, whose stdio buffers and
 * atexit handlers are not this process's to run. */
static _Noreturn void end_all(int status)
{
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	unsigned char byte = (unsigned char)status;
	if (status_out >= 0 && write(status_out, &byte, 1) != 1) {
		/* The caller then waits for this process's end instead. */
	}
	_exit(status);
}

static long long now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec;
}

/* Milliseconds until the next step of the deadline (-1: none); at the
 * deadline, hang up the session; at the end of the grace, end it. */
static int deadline_step(long long *deadline, int *hung_up, int status)
{
	if (*deadline <= 0)
		return -1;
	long long left = *deadline - now();
	if (left > 0)
		return left > 86400 ? 86400 * 1000 : (int)left * 1000;
	if (*hung_up)
		end_all(status);
	*hung_up = 1;
	kill(-1, SIGHUP);
	*deadline = now() + GRACE;
	return GRACE * 1000;
}

_Noreturn void session_init(pid_t main_pid, int service_fd, long long deadline,
			    int status_fd)
{
	bool hold = main_pid < 0;
	status_out = status_fd;
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* Handled signals stay blocked and are taken with sigwaitinfo (or
	 * a signalfd); the rest are ignored. */
	sigset_t all, wanted;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	sigemptyset(&wanted);
	static const int relayed[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };
	for (size_t i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		sigaddset(&wanted, relayed[i]);
	sigaddset(&wanted, SIGCHLD);
	struct sigaction ign = { .sa_handler = SIG_IGN };
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && !sigismember(&wanted, sig))
			sigaction(sig, &ign, NULL);
	/* The wanted ones are only ever taken synchronously: no handler of
	 * the caller's image (run mode) may run here, and an ignored SIGCHLD
	 * would leave nothing to reap. */
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&wanted, sig))
			sigaction(sig, &dfl, NULL);
	if (chdir("/") < 0) {
		/* The root of whichever tree: nothing depends on it. */
	}

	/* In hold mode SIGCHLD (the signals are blocked) is read from a
	 * descriptor polled together with the service's pidfd. */
	int sigfd = -1;
	if (hold && (sigfd = signalfd(-1, &wanted, SFD_CLOEXEC)) < 0)
		end_all(127);

	int main_status = 0;
	bool main_alive = !hold;
	int hung_up = 0;
	for (;;) {
		for (;;) {
			int status;
			pid_t pid = waitpid(-1, &status, WNOHANG);
			if (pid > 0) {
				if (pid == main_pid) {
					main_alive = false;
					main_status = status;
				}
				continue;
			}
			if (pid < 0 && errno == EINTR)
				continue;
			if (pid < 0 && main_alive) {
				/* No child at all: the main process is not ours. */
				main_alive = false;
				main_status = 127 << 8;
			}
			break;
		}
		if (!main_alive && !hold)
			end_all(relay(main_status));
		if (hold) {
			struct pollfd pfd[2] = { { sigfd, POLLIN, 0 },
						 { service_fd, POLLIN, 0 } };
			int ms = deadline_step(&deadline, &hung_up, 0);
			if (poll(pfd, 2, ms) <= 0)
				continue;
			/* The service is gone without closing the session. */
			if (pfd[1].revents)
				end_all(0);
			struct signalfd_siginfo ssi;
			if (pfd[0].revents && read(sigfd, &ssi, sizeof(ssi)) < 0) {
				/* Reaping below needs nothing from it. */
			}
			continue;
		}
		siginfo_t si;
		int ms = deadline_step(&deadline, &hung_up, 128 + SIGHUP);
		struct timespec wait = { ms / 1000, (ms % 1000) * 1000000L };
		if (sigtimedwait(&wanted, &si, ms < 0 ? NULL : &wait) < 0)
			continue;
		if (si.si_signo != SIGCHLD)
			kill(main_pid, si.si_signo);
	}
}
