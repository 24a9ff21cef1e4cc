// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl enter's engine: a command run inside a live session. */
/* cocoonctl enter (enter.h).
 *
 *   caller (root, host)  prepares, opens a pty, relays it, waits
 *     +- entering child  not dumpable; keeps the pty slave (as 0, 1, 2),
 *          |             the pidfd, the --root binary and a report pipe,
 *          |             closes the rest; setns into the session
 *          +- command    forked inside the session's pid namespace: new
 *                        session with the pty as controlling terminal,
 *                        fixed environment, then either root's execveat
 *                        of the host binary or the user's confinement
 *                        (rlimits, Landlock, uid/gid/groups, keyring,
 *                        no_new_privs, seccomp) and execvp.
 *
 * Errors before the exec travel on the report pipe (close-on-exec: its
 * end of file means the command runs). */
#include "enter.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/keyctl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cgroup.h"
#include "credentials.h"
#include "landlock.h"
#include "plan_check.h"
#include "rlimits.h"
#include "seccomp_filter.h"
#include "syscalls.h"
#include "util.h"

/* Descriptor numbers in the entering child. */
enum { FD_PIDFD = 3, FD_REPORT, FD_BINARY, FD_FIRST_FREE };

extern char **environ;

struct entering {
	const struct enter_request *req;
	struct seccomp_filter *filter; /* user mode */
};

static _Noreturn void fail_report(const struct cc_error *err)
{
	size_t n = strnlen(err->msg, sizeof(err->msg));
	ssize_t ignored = write(FD_REPORT, err->msg, n);
	(void)ignored;
	_exit(127);
}

static void put_env(char **env, size_t *n, const char *key, const char *value)
{
	if (value)
		env[(*n)++] = xasprintf("%s=%s", key, value);
}

/* True when PATH in the session's tree is root's and nobody else can
 * write it (or is absent, or a symlink, which nobody can change in a
 * directory that passes). */
static bool root_only(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT;
	return S_ISLNK(st.st_mode) || (st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH)));
}

/* --root runs a loader and libraries from the session's tree: its system
 * paths as they are now must be root's alone. Outside service mode the
 * engine builds the tree as the user (a created / or /run is the user's),
 * which the plan alone does not show. */
static int check_live_tree(struct cc_error *err)
{
	const char *p;
	for (size_t i = 0; (p = plan_service_system_path(i)); i++)
		if (!root_only(p))
			return cc_fail(err, "the session's %s is not root's alone (a "
				       "session built outside service mode?): --root would "
				       "run what its user can change", p);
	return 0;
}

static int go_home(const char *home, struct cc_error *err)
{
	if (home && chdir(home) == 0)
		return 0;
	return chdir("/") < 0 ? cc_fail_errno(err, "chdir /") : 0;
}

/* The command's process, inside the session's pid namespace. */
static _Noreturn void command(const struct entering *e)
{
	const struct enter_request *req = e->req;
	const struct identity *who = &req->plan->who;
	bool root = req->root_binary >= 0;
	struct cc_error err = { "" };
	if (setsid() < 0 || ioctl(0, TIOCSCTTY, 0) < 0) {
		cc_fail_errno(&err, "making the pty the controlling terminal");
		fail_report(&err);
	}
	if (root && check_live_tree(&err) < 0)
		fail_report(&err);
	/* Root's shell reads its start-up files from HOME. */
	const char *home = !root ? who->home : root_only("/root") ? "/root" : "/";
	char *env[8];
	size_t n = 0;
	put_env(env, &n, "HOME", home ? home : "/");
	put_env(env, &n, "USER", root ? "root" : who->user);
	put_env(env, &n, "LOGNAME", root ? "root" : who->user);
	put_env(env, &n, "SHELL", root ? NULL : req->shell);
	put_env(env, &n, "PATH", root ? "/usr/sbin:/usr/bin:/sbin:/bin"
				      : "/usr/local/bin:/usr/bin:/bin");
	put_env(env, &n, "TERM", req->term);
	env[n] = NULL;
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (root) {
		if (go_home(home, &err) < 0)
			fail_report(&err);
		execveat(FD_BINARY, "", req->argv, env, AT_EMPTY_PATH);
		cc_fail_errno(&err, "exec %s", req->argv[0]);
		fail_report(&err);
	}
	/* As in the session process: limits and the Landlock wall as root,
	 * then the user, a keyring of the user's own (not root's, which the
	 * caller's is), no_new_privs and the filter last. */
	const struct plan *plan = req->plan;
	if (rlimits_apply(NULL, &plan->limits, &err) < 0)
		fail_report(&err);
	int wall = landlock_wall(plan->namespaces & NS_IPC, plan->landlock_scope);
	if (wall < 0)
		cc_fail_errno(&err, "landlock");
	else if (wall == 0 && plan->landlock_required)
		cc_fail(&err, "landlock = required, and this kernel offers none");
	/* The home is entered as the user: the user shapes it. */
	if (err.msg[0] || creds_become_user(who, &err) < 0 || go_home(home, &err) < 0)
		fail_report(&err);
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
		cc_fail_errno(&err, "joining a new session keyring");
	else if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		cc_fail_errno(&err, "PR_SET_NO_NEW_PRIVS");
	if (err.msg[0] || seccomp_load_filter(e->filter, &err) < 0)
		fail_report(&err);
	environ = env;
	execvp(req->argv[0], req->argv);
	cc_fail_errno(&err, "exec %s", req->argv[0]);
	fail_report(&err);
}

/* Move the descriptors the child keeps to fixed numbers, close the rest. */
static int keep_only(int pidfd, int report, int binary, int slave)
{
	int keep[] = { pidfd, report, binary };
	for (size_t i = 0; i < 3; i++)
		if (keep[i] >= 0 && (keep[i] = fcntl(keep[i], F_DUPFD_CLOEXEC, 64)) < 0)
			return -1;
	for (int fd = 0; fd < 3; fd++)
		if (dup2(slave, fd) < 0)
			return -1;
	for (size_t i = 0; i < 3; i++)
		if (keep[i] >= 0 ? dup3(keep[i], FD_PIDFD + (int)i, O_CLOEXEC) < 0
				 : close(FD_PIDFD + (int)i) < 0 && errno != EBADF)
			return -1;
	return close_range(FD_FIRST_FREE, ~0U, 0);
}

static unsigned long setns_flags(unsigned ns)
{
	unsigned long flags = CLONE_NEWNS | CLONE_NEWPID;
	if (ns & NS_NET)
		flags |= CLONE_NEWNET;
	if (ns & NS_IPC)
		flags |= CLONE_NEWIPC;
	if (ns & NS_UTS)
		flags |= CLONE_NEWUTS;
	if (ns & NS_CGROUP)
		flags |= CLONE_NEWCGROUP;
	return flags;
}

static _Noreturn void entering_child(const struct entering *e, int report, int slave)
{
	struct cc_error err = { "" };
	/* First: nothing of this process (root's memory) may be read or
	 * traced from the session once inside. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    keep_only(e->req->pidfd, report, e->req->root_binary, slave) < 0) {
		cc_fail_errno(&err, "preparing to enter");
		ssize_t ignored = write(report, err.msg, strlen(err.msg));
		(void)ignored;
		_exit(127);
	}
	/* The session's cgroups first (host paths): what runs inside counts
	 * against its limits and ends with it. */
	if (cgroup_join_pidfd(FD_PIDFD, &err) < 0)
		fail_report(&err);
	if (setns(FD_PIDFD, (int)setns_flags(e->req->namespaces)) < 0) {
		cc_fail_errno(&err, "joining the session's namespaces");
		fail_report(&err);
	}
	close(FD_PIDFD);
	pid_t pid = fork();
	if (pid < 0) {
		cc_fail_errno(&err, "fork");
		fail_report(&err);
	}
	if (pid == 0)
		command(e);
	/* Only the command keeps the pty and the report pipe. */
	close_range(0, ~0U, 0);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* ---- The caller's side: the pty ---- */

static int open_pty(int *slave, struct cc_error *err)
{
	int master AUTOCLOSE = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	char *name = master < 0 || grantpt(master) < 0 || unlockpt(master) < 0
			     ? NULL : ptsname(master);
	if (!name || (*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		return cc_fail_errno(err, "allocating a pty");
	/* The administrator's terminal settings and size, or, without a
	 * terminal, no echo and no output processing: a pipe's bytes pass
	 * as they are. */
	struct termios t;
	struct winsize ws;
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &t) == 0) {
		tcsetattr(*slave, TCSANOW, &t);
		if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
			ioctl(*slave, TIOCSWINSZ, &ws);
	} else if (tcgetattr(*slave, &t) == 0) {
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK | ECHONL);
		t.c_oflag &= ~(tcflag_t)OPOST;
		tcsetattr(*slave, TCSANOW, &t);
	}
	return steal_fd(&master);
}

/* Copy stdin to the pty and the pty to stdout until the entering child
 * (and so the command) has ended. Not until the master reads EIO: a
 * process the session left holding the slave (a detached job started
 * from the user's ~/.bashrc) would keep the relay, and the
 * administrator's keystrokes, going to it. At the end the pty is hung up
 * for every holder. */
static void relay(int master, int slave, int child)
{
	struct termios saved, raw;
	bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
	if (tty) {
		raw = saved;
		cfmakeraw(&raw);
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	struct pollfd pfd[3] = { { STDIN_FILENO, POLLIN, 0 }, { master, POLLIN, 0 },
				 { child, POLLIN, 0 } };
	char buf[8192], last = '\n';
	bool ended = false;
	for (;;) {
		/* Once the child is gone: what the pty still holds, then stop. */
		int ready = poll(pfd, 3, ended ? 0 : -1);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;
		if (pfd[2].revents) {
			ended = true;
			pfd[2].fd = -1;
			pfd[0].fd = -1;
		}
		if (pfd[1].revents) {
			ssize_t n = read(master, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || write_full(STDOUT_FILENO, buf, (size_t)n) < 0)
				break;
		}
		if (pfd[0].fd >= 0 && pfd[0].revents) {
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n > 0) {
				write_full(master, buf, (size_t)n);
				last = buf[n - 1];
			} else if (n == 0 || errno != EINTR) {
				/* End of input: the end-of-file character, twice
				 * after a partial line. */
				if (!tty)
					write_full(master, "\4\4", last == '\n' ? 1 : 2);
				pfd[0].fd = -1;
			}
		}
	}
	/* Whatever of the session still holds the slave loses it. */
	ioctl(slave, TIOCVHANGUP, 0);
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
}

/* Run E's entering child on a new pty, relay it, wait: the command's
 * status in *STATUS. */
static int enter_on_pty(const struct entering *e, int *status, struct cc_error *err)
{
	/* Our copy of the slave stays open to the end: the hangup needs it. */
	int slave AUTOCLOSE = -1;
	int master AUTOCLOSE = open_pty(&slave, err);
	if (master < 0)
		return -1;
	int report[2];
	if (pipe2(report, O_CLOEXEC) < 0)
		return cc_fail_errno(err, "pipe");
	int report_read AUTOCLOSE = report[0];
	int report_write AUTOCLOSE = report[1];
	pid_t pid = fork();
	if (pid < 0)
		return cc_fail_errno(err, "fork");
	if (pid == 0)
		entering_child(e, report_write, slave);
	/* Only the child writes: its exec is the end of file. */
	autoclose_fd(&report_write);
	int child AUTOCLOSE = sys_pidfd_open(pid, 0);
	if (child < 0) {
		cc_fail_errno(err, "pidfd_open");
		kill(pid, SIGKILL);
	}
	/* The end of file once the command runs; a message if it could not. */
	ssize_t n;
	do
		n = read(report_read, err->msg, sizeof(err->msg) - 1);
	while (n < 0 && errno == EINTR);
	if (child < 0) {
		n = 1;
	} else if (n > 0) {
		err->msg[n] = '\0';
		kill(pid, SIGKILL);
	} else {
		relay(master, slave, child);
	}
	int ws;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return n > 0 ? -1 : 0;
}

int session_enter(const struct enter_request *req, int *status,
		  struct cc_error *err)
{
	struct entering e = { .req = req };
	if (req->root_binary >= 0 && plan_check_code_paths(req->plan, "--root", err) < 0)
		return -1;
	if (req->root_binary < 0 && !(e.filter = seccomp_prepare(req->plan, err)))
		return -1;
	int rc = enter_on_pty(&e, status, err);
	seccomp_filter_free(e.filter);
	return rc;
}
