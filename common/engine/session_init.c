// SPDX-License-Identifier: GPL-2.0-or-later
/* A session's pid 1: reaps, relays signals, ends the session. */
/* pid 1 of a session: reaps, relays signals to the main process, and
 * ends the session (session_init.h). */
#include "session_init.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "session_terminals.h"
#include "util.h"

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

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* How a session that did not end by itself is ended, whatever ends it
 * (its max-session-time, its login over): every process gets SIGHUP, and
 * SIGCONT so that a stopped one takes it now rather than never; what is
 * left SESSION_INIT_GRACE_MS later is killed. The one place that says
 * what ending a session means (cocoon-shell(1), HOW A SESSION ENDS). */
struct ending {
	long long deadline_ms; /* max-session-time (0: none) */
	long long kill_ms;     /* the end of the grace (0: not hung up) */
	const struct session_init_notices *notices; /* NULL: none */
	bool warned[SESSION_INIT_WARNINGS_MAX]; /* told, or past at the start */
	bool told_end;
};

/* The end line goes out this long before the hang-up: sshd does not
 * drain a pty whose shell is gone, and a line written just before the
 * SIGHUP was lost about every other time (tests/limits/warnings.t). */
#define END_LINE_LEAD_MS 500

/* " (max-session-time; reference ID)" and the like: where the line's
 * reference goes. */
static void notice(const struct ending *e, const char *what, const char *after)
{
	char line[160];
	const char *id = e->notices->id;
	snprintf(line, sizeof(line), "cocoon: %s (%s%sreference %s).", what, after,
		 *after ? "; " : "", id && *id ? id : "unknown");
	session_terminals_write(0, line);
}

/* Each warning whose time has come, once; the lines say the time left
 * as the policy gave it, in minutes when it is whole ones. */
static void warn_due(struct ending *e, long long t)
{
	const struct session_init_notices *n = e->notices;
	for (unsigned i = 0; n && e->deadline_ms && i < n->nwarnings; i++) {
		if (e->warned[i] || t < e->deadline_ms - (long long)n->warnings[i] * 1000)
			continue;
		e->warned[i] = true;
		unsigned long long s = n->warnings[i];
		bool minutes = s % 60 == 0;
		unsigned long long count = minutes ? s / 60 : s;
		char what[96];
		snprintf(what, sizeof(what), "this session ends in %llu %s%s", count,
			 minutes ? "minute" : "second", count == 1 ? "" : "s");
		notice(e, what, "max-session-time");
	}
}

/* The next warning's time (0: none left). */
static long long next_warning(const struct ending *e)
{
	long long next = 0;
	const struct session_init_notices *n = e->notices;
	for (unsigned i = 0; n && e->deadline_ms && i < n->nwarnings; i++) {
		long long at = e->deadline_ms - (long long)n->warnings[i] * 1000;
		if (!e->warned[i] && (!next || at < next))
			next = at;
	}
	return next;
}

static void hang_up(struct ending *e)
{
	if (e->kill_ms)
		return;
	kill(-1, SIGHUP);
	kill(-1, SIGCONT);
	e->kill_ms = now_ms() + SESSION_INIT_GRACE_MS;
}

/* Milliseconds until the next step (-1: none): at the deadline, hang up;
 * at the end of the grace, end it all with STATUS. */
static int ending_step(struct ending *e, int status)
{
	long long t = now_ms();
	if (e->kill_ms && t >= e->kill_ms)
		end_all(status);
	bool end_line = e->notices && e->notices->end_line && e->deadline_ms;
	if (!e->kill_ms)
		warn_due(e, t);
	if (!e->kill_ms && end_line && !e->told_end && t >= e->deadline_ms - END_LINE_LEAD_MS) {
		/* Same words as the entry points' (audit_user_notice): the
		 * engine cannot reach the session layer. */
		notice(e, "session ended: max-session-time reached", "");
		e->told_end = true;
	}
	if (!e->kill_ms && e->deadline_ms && t >= e->deadline_ms)
		hang_up(e);
	long long warning = e->kill_ms ? 0 : next_warning(e);
	if (!e->kill_ms && end_line && !e->told_end &&
	    (!warning || e->deadline_ms - END_LINE_LEAD_MS < warning))
		warning = e->deadline_ms - END_LINE_LEAD_MS;
	long long next = e->kill_ms ? e->kill_ms : e->deadline_ms;
	if (warning && warning < next)
		next = warning;
	if (!next)
		return -1;
	long long left = next - now_ms();
	if (left < 1)
		left = 1;
	return left > 86400000LL ? 86400000 : (int)left;
}

_Noreturn void session_init(pid_t main_pid, int service_fd, long long deadline,
			    const struct session_init_notices *notices, int status_fd)
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
	for (size_t i = 0; i < ARRAY_SIZE(relayed); i++)
		sigaddset(&wanted, relayed[i]);
	sigaddset(&wanted, SIGCHLD);
	sigaddset(&wanted, SESSION_INIT_END);
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
	struct ending ending = { deadline > 0 ? deadline * 1000 : 0, 0, notices, { false } };
	/* Warnings already past at the start are skipped, not all told at
	 * once. */
	long long start = now_ms();
	for (unsigned i = 0; notices && ending.deadline_ms && i < notices->nwarnings &&
	     i < SESSION_INIT_WARNINGS_MAX; i++)
		ending.warned[i] = start >= ending.deadline_ms -
			(long long)notices->warnings[i] * 1000;
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
			int ms = ending_step(&ending, 0);
			if (poll(pfd, 2, ms) <= 0)
				continue;
			/* The service is gone without closing the session. */
			if (pfd[1].revents)
				end_all(0);
			struct signalfd_siginfo ssi;
			if (pfd[0].revents && read(sigfd, &ssi, sizeof(ssi)) == sizeof(ssi) &&
			    ssi.ssi_signo == SESSION_INIT_END)
				hang_up(&ending);
			continue;
		}
		siginfo_t si;
		int ms = ending_step(&ending, 128 + SIGHUP);
		struct timespec wait = { ms / 1000, (ms % 1000) * 1000000L };
		if (sigtimedwait(&wanted, &si, ms < 0 ? NULL : &wait) < 0)
			continue;
		if (si.si_signo == SESSION_INIT_END)
			hang_up(&ending);
		else if (si.si_signo != SIGCHLD)
			kill(main_pid, si.si_signo);
	}
}
