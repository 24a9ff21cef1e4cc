// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoon-init: pid 1 of a session's pid namespace.
 *
 * Usage (by the engine only): cocoon-init MAIN-PID [DEADLINE]
 *                              | cocoon-init hold FD [DEADLINE]
 *                              | cocoon-init --version
 *
 * DEADLINE (max-session-time): a CLOCK_BOOTTIME second at which the
 * session ends: SIGHUP to every process of the namespace, GRACE seconds
 * for them to go, then the end as below (the kernel kills what is left
 * when pid 1 exits).
 *
 * "hold" (service mode, pam_cocoon): there is no main process; it reaps
 * whatever is reparented to it and lives until killed (SIGKILL from the
 * host ends the whole namespace) or until the service process (sshd's
 * monitor, login, su) ends without closing the session: FD is a pidfd
 * of that process, the one descriptor it keeps. It then kills whatever
 * is left in the namespace and exits.
 *
 * It reaps every process reparented to it, relays the signals root sends
 * it (TERM, HUP, INT, QUIT) to the session's main process, and when that
 * process ends it kills whatever is left in the namespace and exits with
 * the main process's status (128+N when killed by signal N), which is
 * what the engine's caller returns.
 *
 * It runs as root, so the session's processes (the user's) cannot signal
 * it; the kernel drops SIGKILL and SIGSTOP sent to a namespace's init from
 * inside. It holds no descriptor (closing them all is also how the engine
 * learns that it is loaded), no environment, and is not dumpable, so
 * nothing of it is reachable from the session. It reads no file once
 * running: its libraries came from the host, before the sandbox's root
 * existed. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Close every descriptor but KEEP (-1: none). */
static void close_all(int keep)
{
#ifdef SYS_close_range
	if ((keep <= 0 || syscall(SYS_close_range, 0U, (unsigned)keep - 1, 0U) == 0) &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
#endif
	for (int fd = 0; fd < 65536; fd++)
		if (fd != keep)
			close(fd);
}

/* Everything left in the namespace goes with the session. */
static _Noreturn void end_all(int status)
{
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
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

int main(int argc, char **argv)
{
	/* The engine never passes it: its arguments are numbers. */
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("cocoon-init %s\n", COCOON_VERSION);
		return 0;
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	char *end = NULL;
	int hold = (argc == 3 || argc == 4) && strcmp(argv[1], "hold") == 0;
	long service = hold ? strtol(argv[2], &end, 10) : -1;
	if (hold && (*end || service < 0 || service > 65535))
		service = -1;
	close_all((int)service);
	if ((!hold && argc != 2 && argc != 3) || (hold && service < 0) || getpid() != 1)
		return 127;
	long long deadline = 0;
	int hung_up = 0;
	if (argc == 3 + hold) {
		deadline = strtoll(argv[2 + hold], &end, 10);
		if (*end || deadline <= 0)
			return 127;
	}
	long main_pid = hold ? -1 : strtol(argv[1], &end, 10);
	if (!hold && (*end || main_pid <= 1))
		return 127;

	/* Handled signals stay blocked (the engine execs this with every
	 * signal blocked, so none sent during loading is lost) and are taken
	 * with sigwaitinfo; the rest are ignored. */
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
	if (chdir("/") < 0) {
		/* The root of whichever tree: nothing depends on it. */
	}

	/* In hold mode SIGCHLD (the signals are blocked) is read from a
	 * descriptor polled together with the service's pidfd. */
	int sigfd = -1;
	if (hold && (sigfd = signalfd(-1, &wanted, SFD_CLOEXEC)) < 0)
		end_all(127);

	int main_status = 0;
	int main_alive = !hold;
	for (;;) {
		for (;;) {
			int status;
			pid_t pid = waitpid(-1, &status, WNOHANG);
			if (pid > 0) {
				if (pid == main_pid) {
					main_alive = 0;
					main_status = status;
				}
				continue;
			}
			if (pid < 0 && errno == EINTR)
				continue;
			if (pid < 0 && main_alive) {
				/* No child at all: the main process is not ours. */
				main_alive = 0;
				main_status = 127 << 8;
			}
			break;
		}
		if (!main_alive && !hold)
			end_all(relay(main_status));
		if (hold) {
			struct pollfd pfd[2] = { { sigfd, POLLIN, 0 },
						 { (int)service, POLLIN, 0 } };
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
		if (si.si_signo != SIGCHLD && !hold)
			kill((pid_t)main_pid, si.si_signo);
	}
}
