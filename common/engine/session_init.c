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
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "session_stderr.h"
#include "session_terminals.h"
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same on every architecture */
#endif
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

void session_init_close_all_but(int keep, int keep2)
{
	if (keep2 >= 0 && (keep < 0 || keep2 < keep)) {
		int t = keep;
		keep = keep2;
		keep2 = t;
	}
	/* Now KEEP <= KEEP2, or KEEP2 -1. */
#ifdef SYS_close_range
	/* keep - 1 and keep + 1 wrap round for -1: one call, all. */
	if ((keep <= 0 || syscall(SYS_close_range, 0U, (unsigned)keep - 1, 0U) == 0) &&
	    (keep2 < 0 ? syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0
		       : (keep2 == keep + 1 ||
			  syscall(SYS_close_range, (unsigned)keep + 1, (unsigned)keep2 - 1, 0U) == 0) &&
			 syscall(SYS_close_range, (unsigned)keep2 + 1, ~0U, 0U) == 0))
		return;
#endif
	for (int fd = 0; fd < 65536; fd++)
		if (fd != keep && fd != keep2)
			close(fd);
}

/* Where the session's status goes once every other process is reaped
 * (-1: nowhere). */
static int status_out = -1;

static void stop_joins(void);

/* share-sandbox: the end record's template and log socket, from the
 * login that created the sandbox (SHARE_RECORD; -1: none), and what
 * ended it, for its result and reason (ended by its linger, unless
 * something else says otherwise). */
static char end_template[SESSION_INIT_RECORD_MAX];
static int end_log = -1;
static const char *end_result = "ended", *end_reason = "linger";
static long long started_ms;

static void write_end_record(void);

/* Everything left in the namespace goes with the session. _exit: in run
 * mode this image is a copy of the caller's, whose stdio buffers and
 * atexit handlers are not this process's to run. A shared sandbox's end
 * record goes out once nothing of the sandbox is left. */
static _Noreturn void end_all(int status)
{
	stop_joins();
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	write_end_record();
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
 * reference goes. To the terminals; with TO_STDERR also to the logins'
 * stderr pipes and sockets (ssh with a command), for the end line only:
 * a warning there would be mixed into a command's output. */
static void notice(const struct ending *e, const char *what, const char *after, bool to_stderr)
{
	char line[160];
	const char *id = e->notices->id;
	snprintf(line, sizeof(line), "cocoon: %s (%s%sreference %s).", what, after,
		 *after ? "; " : "", id && *id ? id : "unknown");
	session_terminals_write(0, -1, line);
	if (to_stderr)
		session_stderr_write(0, -1, false, (uid_t)-1, (gid_t)-1, line);
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
		notice(e, what, "max-session-time", false);
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

/* share-sandbox: the logins attached, by their services' pidfds, and
 * the socket later ones attach by (-1: closed, or not shared). */
struct attached {
	int listen_fd;
	long long linger_ms;
	const char *id; /* the sandbox's, its first login's session id */
	long long deadline; /* max-session-time's CLOCK_BOOTTIME second (0: none) */
	int fd[SHARE_LOGINS_MAX];
	size_t n;
	long long linger_until_ms; /* the last login left: the end then (0: none) */
};
static struct attached *sharing;

static void write_end_record(void)
{
	static char record[SESSION_INIT_RECORD_MAX + 512];
	if (end_log < 0 || !sharing)
		return;
	long n = session_init_record_format(end_template, end_result, end_reason,
					    (now_ms() - started_ms) / 1000, sharing->id,
					    record, sizeof(record));
	/* Never blocks the end on a busy log: the record is lost instead. */
	if (n > 0 && send(end_log, record, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* Nowhere to say so. */
	}
}

/* No login joins a sandbox that is ending. */
static void stop_joins(void)
{
	if (sharing && sharing->listen_fd >= 0) {
		close(sharing->listen_fd);
		sharing->listen_fd = -1;
	}
}

static void hang_up(struct ending *e)
{
	stop_joins();
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
		notice(e, "session ended: max-session-time reached", "", true);
		e->told_end = true;
	}
	if (!e->kill_ms && e->deadline_ms && t >= e->deadline_ms) {
		end_result = "expired";
		end_reason = "max-session-time";
		hang_up(e);
	}
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

/* The last login left: the sandbox ends now, or lingers. */
static void last_left(struct attached *a)
{
	if (a->linger_ms == 0)
		end_all(0);
	if (a->linger_ms > 0)
		a->linger_until_ms = now_ms() + a->linger_ms;
}

static void send_reply(int conn, const char *text, int fd)
{
	struct iovec iov = { (void *)text, strlen(text) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (fd >= 0) {
		memset(&u, 0, sizeof(u));
		msg.msg_control = u.buf;
		msg.msg_controllen = sizeof(u.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	if (sendmsg(conn, &msg, MSG_NOSIGNAL) < 0) {
		/* The asker is gone: nothing to tell. */
	}
}

/* The end record's template, to the asker's end of writing, into
 * end_template: 0, or -1 when it is too long, empty or slow (a second at
 * most for each part). */
static int read_template(int conn)
{
	size_t n = 0;
	for (;;) {
		struct pollfd p = { conn, POLLIN, 0 };
		if (poll(&p, 1, 1000) != 1)
			return -1;
		ssize_t got = read(conn, end_template + n, sizeof(end_template) - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 || (got > 0 && n + (size_t)got == sizeof(end_template) - 1))
			break;
		if (got == 0) {
			end_template[n] = '\0';
			return n > 0 && strlen(end_template) == n ? 0 : -1;
		}
		n += (size_t)got;
	}
	end_template[0] = '\0';
	return -1;
}

/* One request on the socket (session_init.h). Only root is answered; an
 * asker that says nothing within a second is dropped. */
static void serve_request(struct attached *a)
{
	int conn = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0)
		return;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct pollfd p = { conn, POLLIN, 0 };
	char req = 0;
	int fd = -1;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { &req, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != 0 ||
	    poll(&p, 1, 1000) != 1 || recvmsg(conn, &msg, MSG_CMSG_CLOEXEC) != 1) {
		close(conn);
		return;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (req == SHARE_JOIN && fd >= 0 && a->n < SHARE_LOGINS_MAX) {
		int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
		if (self >= 0) {
			a->fd[a->n++] = fd;
			fd = -1;
			a->linger_until_ms = 0;
			char joined[80];
			snprintf(joined, sizeof(joined), "%c%s %lld", SHARE_JOINED, a->id,
				 a->deadline);
			send_reply(conn, joined, self);
			close(self);
		}
	} else if (req == SHARE_RECORD && fd >= 0 && end_log < 0) {
		if (read_template(conn) == 0) {
			end_log = fd;
			fd = -1;
			send_reply(conn, (char[]){ SHARE_RECORDED, '\0' }, -1);
		}
	} else if (req == SHARE_STATUS) {
		long long left = -1;
		if (a->linger_until_ms) {
			left = (a->linger_until_ms - now_ms() + 999) / 1000;
			left = left < 0 ? 0 : left;
		}
		char line[64];
		snprintf(line, sizeof(line), "%zu %lld\n", a->n, left);
		send_reply(conn, line, -1);
	}
	if (fd >= 0)
		close(fd);
	close(conn);
}

/* Hold mode's wait: the signals, the logins' services and, when shared,
 * the socket. Returns with a signal to take, or having done the rest. */
static void hold_wait(struct attached *a, struct ending *e, int sigfd)
{
	struct pollfd pfd[2 + SHARE_LOGINS_MAX];
	size_t n = 0;
	pfd[n++] = (struct pollfd){ sigfd, POLLIN, 0 };
	pfd[n++] = (struct pollfd){ a->listen_fd, POLLIN, 0 };
	for (size_t i = 0; i < a->n; i++)
		pfd[n++] = (struct pollfd){ a->fd[i], POLLIN, 0 };
	int ms = ending_step(e, 0);
	if (a->linger_until_ms && !e->kill_ms) {
		long long left = a->linger_until_ms - now_ms();
		if (left <= 0) {
			hang_up(e);
			return;
		}
		if (ms < 0 || left < ms)
			ms = left > 86400000LL ? 86400000 : (int)left;
	}
	if (poll(pfd, n, ms) <= 0)
		return;
	/* A service gone without closing the session, or (shared) a login
	 * over: with the last one the sandbox ends or lingers. */
	size_t kept = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (pfd[2 + i].revents) {
			close(a->fd[i]);
			continue;
		}
		a->fd[kept++] = a->fd[i];
	}
	bool left = kept < a->n;
	a->n = kept;
	if (left && a->n == 0)
		last_left(a);
	/* A socket that is no socket (closed, or in error) takes no login. */
	if (pfd[1].revents & (POLLNVAL | POLLERR | POLLHUP))
		stop_joins();
	else if (pfd[1].revents && a->listen_fd >= 0)
		serve_request(a);
}

_Noreturn void session_init(pid_t main_pid, int service_fd, long long deadline,
			    const struct session_init_notices *notices, int status_fd,
			    const struct session_init_share *share)
{
	bool hold = main_pid < 0;
	status_out = status_fd;
	started_ms = now_ms();
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

	/* Unshared, the one login is the service's, and it ends with it. */
	static struct attached logins;
	logins.listen_fd = share ? share->listen_fd : -1;
	logins.linger_ms = share ? share->linger_ms : 0;
	logins.id = notices && notices->id ? notices->id : "";
	logins.deadline = deadline > 0 ? deadline : 0;
	if (hold && service_fd >= 0)
		logins.fd[logins.n++] = service_fd;
	sharing = &logins;

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
			hold_wait(&logins, &ending, sigfd);
			struct signalfd_siginfo ssi;
			struct pollfd sig = { sigfd, POLLIN, 0 };
			if (poll(&sig, 1, 0) == 1 && read(sigfd, &ssi, sizeof(ssi)) == sizeof(ssi) &&
			    ssi.ssi_signo == SESSION_INIT_END) {
				/* Ended from outside, by no linger. */
				if (!ending.kill_ms)
					end_reason = NULL;
				hang_up(&ending);
			}
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

/* One line of TEMPLATE from *AT (to its newline, which is made a NUL),
 * *AT moved past it; NULL at the end. */
static char *template_line(char **at)
{
	char *line = *at, *nl = line ? strchr(line, '\n') : NULL;
	if (!nl)
		return NULL;
	*nl = '\0';
	*at = nl + 1;
	return line;
}

long session_init_record_format(const char *template, const char *result, const char *reason,
				long long duration, const char *id, char *out, size_t size)
{
	char copy[SESSION_INIT_RECORD_MAX];
	if (snprintf(copy, sizeof(copy), "%s", template) >= (int)sizeof(copy))
		return -1;
	char *at = copy;
	char *kind = template_line(&at), *prefix = template_line(&at);
	char *head = template_line(&at);
	if (!head || (kind[0] != 'j' && kind[0] != 's') || kind[1] != ' ')
		return -1;
	int facility = atoi(kind + 2);
	int priority = strcmp(result, "expired") == 0 ? LOG_NOTICE : LOG_INFO;
	char tail[256];
	snprintf(tail, sizeof(tail), " result=%s%s%s duration=%lld sandbox=%s share=ended",
		 result, reason ? " reason=" : "", reason ? reason : "", duration, id);
	int n;
	if (kind[0] == 's')
		n = snprintf(out, size, "<%d>%s%s%s", (facility & LOG_FACMASK) | priority, prefix,
			     head, tail);
	else
		n = snprintf(out, size, "PRIORITY=%d\nMESSAGE=%s%s%s\n%sCOCOON_RESULT=%s\n"
			     "%s%s%sCOCOON_DURATION=%lld\nCOCOON_SANDBOX=%s\nCOCOON_SHARE=ended\n",
			     priority, prefix, head, tail, at, result,
			     reason ? "COCOON_REASON=" : "", reason ? reason : "",
			     reason ? "\n" : "", duration, id);
	return n < 0 || (size_t)n >= size ? -1 : n;
}
