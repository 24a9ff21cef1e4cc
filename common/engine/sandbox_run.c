// SPDX-License-Identifier: GPL-2.0-or-later
/* Run mode: the caller supervises the session and returns its status. */
/* Run mode (sandbox_run): the caller stays as the session's supervisor,
 * its pid 1 is a copy of the caller that never execs, and the caller
 * returns the command's status once the session is over. */
#include "sandbox_internal.h"

enum msg_result { MSG_DONE, MSG_NONE, MSG_EOF, MSG_FAIL };

/* Run mode's pid 1 (service mode's is cocoon-init, see start_helper). */
static _Noreturn void pid1(struct run_supervised *sup)
{
	struct run *run = &sup->run;
	struct cc_error err = { "" };
	if (sandbox_child_begin(&err) < 0 || mounts_chroot_to_namespace(&err) < 0)
		sandbox_child_fail(run, &err);
	/* The session ends with the caller. The caller may have died before
	 * this: its end of the socket is then closed. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		cc_fail_errno(&err, "PR_SET_PDEATHSIG");
		sandbox_child_fail(run, &err);
	}
	struct pollfd hup = { .fd = run->sock, .events = 0, .revents = 0 };
	if (poll(&hup, 1, 0) > 0 && (hup.revents & (POLLHUP | POLLERR)))
		_exit(127);

	int ready[2];
	if (pipe2(ready, O_CLOEXEC) < 0) {
		cc_fail_errno(&err, "pipe");
		sandbox_child_fail(run, &err);
	}
	pid_t pid = fork();
	if (pid < 0) {
		cc_fail_errno(&err, "fork");
		sandbox_child_fail(run, &err);
	}
	if (pid == 0) {
		close(ready[1]);
		run->ready = ready[0];
		sandbox_session(sup);
	}
	close(ready[0]);
	if (run->late_ns && unshare((int)run->late_ns) < 0) {
		cc_fail_errno(&err, "creating the namespaces");
		sandbox_child_fail(run, &err);
	}
	char made = REPORT_NAMESPACES_MADE;
	if (write(ready[1], &made, 1) != 1) {
		cc_fail_errno(&err, "telling the session process");
		sandbox_child_fail(run, &err);
	}
	/* Out of the caller's process group, pid 1 gets none of the
	 * terminal's signals. Signals stay blocked from here on: a
	 * namespace's init drops what it does not handle, and it only takes
	 * them (with sigwaitinfo) once ready. Blocked, those sent meanwhile
	 * wait. */
	if (setpgid(0, 0) < 0 || chdir("/") < 0) {
		cc_fail_errno(&err, "preparing pid 1");
		sandbox_child_fail(run, &err);
	}
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* This image, a copy of the caller's, is pid 1; no exec, so nothing
	 * is loaded and the session process may pivot at once: closing
	 * every descriptor (the ready pipe's end among them) tells it so,
	 * once pid 1 is not dumpable. Named as in service mode (ps, pgrep);
	 * its command line stays the caller's. */
	prctl(PR_SET_NAME, "cocoon-init", 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	session_init_close_all_but(sup->status_fd, -1);
	/* The end line is the entry point's own (on its standard error). */
	struct session_init_notices notices = { .id = run->req->session_id };
	sandbox_init_warnings(run->plan, &notices);
	session_init(pid, -1, run->deadline, &notices, sup->status_fd, NULL);
}

static int write_proc(int dir, const char *name, const char *text,
		      struct cc_error *err)
{
	int fd AUTOCLOSE = openat(dir, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "user namespace: open %s", name);
	ssize_t n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text)) {
		if (n >= 0)
			errno = EIO;
		return cc_fail_errno(err, "user namespace: write %s", name);
	}
	return 0;
}

/* Map the user's own uid and gid (and nothing else) in the session
 * process's new user namespace, and deny setgroups there so that nobody
 * holding that namespace can drop the user's groups. */
static int write_maps(int pidfd, const struct identity *who, struct cc_error *err)
{
	pid_t pid = pidfd_pid(pidfd);
	if (pid <= 0)
		return cc_fail(err, "user namespace: the session process is gone");
	char path[64], uid_map[64], gid_map[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	int dir AUTOCLOSE = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* If the process behind the pidfd still runs, the directory opened
	 * is its own and not that of a process that reused the pid. */
	if (dir < 0 || sys_pidfd_send_signal(pidfd, 0) < 0)
		return cc_fail(err, "user namespace: the session process is gone");
	snprintf(uid_map, sizeof(uid_map), "%u %u 1\n", (unsigned)who->uid,
		 (unsigned)who->uid);
	snprintf(gid_map, sizeof(gid_map), "%u %u 1\n", (unsigned)who->gid,
		 (unsigned)who->gid);
	if (write_proc(dir, "setgroups", "deny", err) < 0 ||
	    write_proc(dir, "uid_map", uid_map, err) < 0 ||
	    write_proc(dir, "gid_map", gid_map, err) < 0)
		return -1;
	return 0;
}

/* ---- A login's end ----
 *
 * A login's session (req->login, cocoon-shell) lives as long as its
 * login and no longer. The caller watches for what ends a login and, at
 * the first sign, ends the session the one way sessions are ended
 * (session_init.c: SIGHUP and SIGCONT to every process, SIGKILL to what
 * is left after the grace). What ends a login, as the caller sees it:
 *   - the process that started it ends: sshd's per-connection child when
 *     the connection drops or the client dies, su or login killed. Its
 *     pidfd is taken only once getppid() still names it: a parent gone
 *     before, whose pid another process may now have, is seen so;
 *   - SIGHUP (its terminal hung up, the caller leading the terminal's
 *     session; sshd's pty) or SIGTERM (su and login pass theirs on);
 *   - its controlling terminal hangs up (POLLHUP on a descriptor of
 *     /dev/tty), seen too when the caller does not lead the terminal's
 *     session (under su, or a shell's job).
 * The caller must not stop: cocoon-shell ignores the terminal's stop
 * signals from its start, and its children with it until the command's
 * exec (session_setup.c), so that a ^Z can stop neither the
 * supervisor, which then could not see the login end, nor the setup
 * half-way. */
struct login_watch {
	int parent;       /* pidfd of the login's process (-1: none) */
	int tty;          /* the controlling terminal (-1: none) */
	bool over;
	long long kill_ms; /* then the session's first process is killed */
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void login_watch_close(struct login_watch *w)
{
	if (w->parent >= 0)
		close(w->parent);
	if (w->tty >= 0)
		close(w->tty);
	w->parent = w->tty = -1;
}

/* Before anything of the session exists: a login already over is
 * refused. */
static int login_watch_open(const struct sandbox_request *req,
			    struct login_watch *w, struct cc_error *err)
{
	*w = (struct login_watch){ .parent = -1, .tty = -1 };
	if (!req->login)
		return 0;
	/* An orphan: the login's process ended before cocoon-shell started
	 * (sshd's session child gone while its shell child ran ~/.ssh/rc),
	 * and pid 1, which never ends, took it. */
	if (req->login_parent == 1)
		return cc_fail(err, "the login is over: its process ended before the "
			       "shell started (the parent is pid 1)");
	if (req->login_parent > 0) {
		w->parent = sys_pidfd_open(req->login_parent, 0);
		if (w->parent < 0 && errno != ESRCH)
			return cc_fail_errno(err, "watching the login's process %d",
					     (int)req->login_parent);
		if (w->parent < 0 || getppid() != req->login_parent) {
			login_watch_close(w);
			return cc_fail(err, "the login is over: its process %d has ended",
				       (int)req->login_parent);
		}
	}
	w->tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (w->tty < 0 && errno != ENXIO && errno != ENOENT) {
		int e = errno;
		login_watch_close(w);
		errno = e;
		return cc_fail_errno(err, "the login's terminal");
	}
	struct pollfd hup = { w->tty, 0, 0 };
	if (w->tty >= 0 && poll(&hup, 1, 0) > 0) {
		login_watch_close(w);
		return cc_fail(err, "the login is over: its terminal has hung up");
	}
	return 0;
}

/* The login is over: end the session. With a pid namespace pid 1 does it
 * (SESSION_INIT_END); without, the session's first process and, through
 * its cgroup, every other get the same signals here. Either way its first
 * process is killed once the grace is over and a second more. */
static void login_over(const struct run *run, struct login_watch *w, int pidfd)
{
	if (w->over)
		return;
	w->over = true;
	if (run->pid_ns) {
		sys_pidfd_send_signal(pidfd, SESSION_INIT_END);
	} else {
		static const int sigs[] = { SIGHUP, SIGCONT };
		for (size_t i = 0; i < 2; i++) {
			cgroup_signal(run->cgroup, sigs[i]);
			sys_pidfd_send_signal(pidfd, sigs[i]);
		}
	}
	w->kill_ms = now_ms() + SESSION_INIT_GRACE_MS + (run->pid_ns ? 1000 : 0);
}

struct supervisor {
	const struct identity *who;
	int sock;
	bool have_error;
	struct cc_error first;
	/* The session's record, written while the sandbox is built (rather
	 * than beside the command's start) and published once it is whole:
	 * the end of the report socket, which every process of the setup
	 * holds until it execs. Published earlier, `cocoonctl enter` could
	 * join a session still on the host's root, before its pivot. */
	const struct plan *plan;
	const char *session_id;
	struct record_pending record;
	bool prepared, recorded;
	struct cc_error record_err;
	/* The session's ptys, whose user's lock is let go once the record
	 * holding them is written. */
	struct pty_quota *quota;
};

static enum msg_result read_message(struct supervisor *s)
{
	char buf[1 + sizeof(s->first.msg)];
	int fd;
	ssize_t n = report_recv(s->sock, MSG_DONTWAIT, buf, sizeof(buf), &fd);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? MSG_NONE : MSG_FAIL;
	if (n == 0)
		return MSG_EOF;

	if (buf[0] == REPORT_ERROR && !s->have_error) {
		snprintf(s->first.msg, sizeof(s->first.msg), "%s", buf + 1);
		s->have_error = true;
	} else if (buf[0] == REPORT_USERNS_MAPS) {
		struct cc_error merr;
		enum report_msg reply = REPORT_MAPS_WRITTEN;
		if (fd < 0 || write_maps(fd, s->who, &merr) < 0) {
			reply = REPORT_MAPS_FAILED;
			if (fd < 0)
				cc_fail(&merr, "user namespace: no pidfd received");
			if (!s->have_error) {
				s->first = merr;
				s->have_error = true;
			}
		}
		if (report_send(s->sock, reply) < 0) {
			/* The session process is gone; its end shows why. */
		}
	}
	if (fd >= 0)
		close(fd);
	return MSG_DONE;
}

/* The session's record could not be written or published (why in
 * S->record_err): the session is killed before anything more of it runs.
 * One whose first process has already ended (a command that exits at
 * once can, before its record is written) has nothing left to record or
 * kill: that is no failure of the session, and its status stands. */
static void record_failed(struct supervisor *s, pid_t pid, int pidfd)
{
	if (record_process_over(pid, pidfd))
		s->record_err.msg[0] = '\0';
	else
		sys_pidfd_send_signal(pidfd, SIGKILL);
}

/* Wait for the child while relaying messages and signals; returns its
 * wait status. With STATUS_FD (-1: none), the status pid 1 reports there
 * once every other process is reaped ends the wait: pid 1's own end,
 * which tears its mount namespace down (an RCU grace period, half a
 * millisecond), is then not waited for. */
static int supervise(struct run_supervised *sup, struct supervisor *s, pid_t pid,
		     int pidfd, int status_fd, struct login_watch *login,
		     int *wstatus, struct cc_error *err)
{
	const struct run *run = &sup->run;
	sigset_t wait_mask = sup->saved.mask;
	for (size_t i = 0; i < NFORWARDED; i++)
		sigdelset(&wait_mask, sandbox_forwarded[i]);
	/* The login's process and terminal: events 0, for their end. */
	struct pollfd pfd[5] = { { s->sock, POLLIN, 0 }, { pidfd, POLLIN, 0 },
				 { status_fd, POLLIN, 0 }, { login->parent, POLLIN, 0 },
				 { login->tty, 0, 0 } };
	bool exited = false, reported = false;
	int rc = 0;
	/* Without its record a session is not run: a failure kills it
	 * before anything of it execs. One that already failed (pid 1 ended
	 * early) has its own reason, which wins. */
	s->prepared = record_prepare(s->plan, s->session_id, pid, pidfd, s->quota->ptys,
				     &s->record, &s->record_err) == 0;
	pty_quota_release(s->quota);
	if (!s->prepared)
		record_failed(s, pid, pidfd);
	while (!exited) {
		for (size_t i = 0; i < 5; i++)
			pfd[i].revents = 0;
		struct timespec backstop, *timeout = NULL;
		if (login->over) {
			long long left = login->kill_ms - now_ms();
			if (left <= 0) {
				sys_pidfd_send_signal(pidfd, SIGKILL);
				left = 1000;
			}
			backstop = (struct timespec){ left / 1000, (left % 1000) * 1000000L };
			timeout = &backstop;
		}
		if (ppoll(pfd, 5, timeout, &wait_mask) < 0 && errno != EINTR) {
			rc = cc_fail_errno(err, "waiting for the sandbox");
			sys_pidfd_send_signal(pidfd, SIGKILL);
			break;
		}
		for (size_t i = 0; i < NFORWARDED; i++)
			if (sandbox_pending[i]) {
				sandbox_pending[i] = 0;
				if (run->req->login && (sandbox_forwarded[i] == SIGHUP ||
							sandbox_forwarded[i] == SIGTERM))
					login_over(run, login, pidfd);
				else
					sys_pidfd_send_signal(pidfd, sandbox_forwarded[i]);
			}
		if (pfd[3].revents || pfd[4].revents) {
			pfd[3].fd = pfd[4].fd = -1;
			login_over(run, login, pidfd);
		}
		if (pfd[0].fd >= 0 && pfd[0].revents) {
			enum msg_result m = read_message(s);
			if (m == MSG_EOF || m == MSG_FAIL)
				pfd[0].fd = -1;
			if (m == MSG_FAIL && !s->have_error) {
				/* Whether the setup is whole is not known: as if it
				 * had failed. */
				cc_fail_errno(&s->record_err, "reading the sandbox's reports");
				sys_pidfd_send_signal(pidfd, SIGKILL);
			} else if (m == MSG_EOF && s->prepared && !s->have_error &&
				   !pfd[1].revents && !pfd[2].revents) {
				/* Unprepared, the session was killed above already:
				 * its end now is that kill's, and the reason stands. */
				s->recorded = pty_quota_publish(s->who->uid, &s->record,
								&s->record_err) == 0;
				if (!s->recorded)
					record_failed(s, pid, pidfd);
			}
		}
		if (pfd[2].fd >= 0 && pfd[2].revents) {
			unsigned char status;
			ssize_t n = read(status_fd, &status, 1);
			if (n == 1) {
				*wstatus = W_EXITCODE(status, 0);
				reported = exited = true;
			} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				pfd[2].fd = -1; /* pid 1 died without a word */
			}
		}
		if (pfd[1].revents)
			exited = true;
	}
	/* Reported: pid 1 is on its way out. Not waited for, it stays this
	 * process's child, a zombie until this process reaps it or ends
	 * (cocoonctl and cocoon-shell exit at once; see sandbox.h). */
	while (!reported && waitpid(pid, wstatus, 0) < 0)
		if (errno != EINTR)
			return cc_fail_errno(err, "waitpid");
	if (reported)
		waitpid(pid, NULL, WNOHANG); /* reaped if gone already */
	/* What was sent just before the end is still queued. */
	while (pfd[0].fd >= 0 && read_message(s) == MSG_DONE)
		;
	return rc;
}

/* ---- The caller's steps ----
 *
 * The caller builds what the session needs in the order of run_steps,
 * then run_teardown undoes what they reached: once, the same way on
 * success and on every failure. */
struct run_parent {
	const struct sandbox_request *req;
	const struct plan *plan;
	struct run_supervised sup;
	struct login_watch login;
	struct pty_quota quota;
	int sv[2];    /* the report socket: the caller's end, the children's */
	int ended[2]; /* pid 1's status, without a cgroup (-1: none) */
	pid_t pid;    /* the session's first process; 0: no clone tried */
	int pidfd;
	struct supervisor s;
	int wstatus;
};

static int step_check(struct run_parent *p, struct cc_error *err)
{
	const struct sandbox_request *req = p->req;
	const struct plan *plan = p->plan;
	if (!plan || !plan->sandboxed)
		return cc_fail(err, "the plan has no sandbox (sandbox = none)");
	if (!req->path || !*req->path || !req->argv || !req->argv[0] || !req->envp)
		return cc_fail(err, "no command to run");
	if (geteuid() != 0)
		return cc_fail(err, "building a sandbox needs root");
	if (plan_check_hostname(plan, err) < 0 || plan_check_shape(plan, err) < 0 ||
	    sandbox_check_single_threaded(err) < 0)
		return -1;
	if (!p->sup.run.who)
		p->sup.run.who = &plan->who;
	p->sup.run.pid_ns = plan->namespaces & NS_PID;
	return 0;
}

/* The filter is built here, as root on the host: a `seccomp = FILE` is
 * read from the host, and its errors come before any namespace exists.
 * Loading it later is one system call. */
static int step_filter(struct run_parent *p, struct cc_error *err)
{
	return (p->sup.filter = seccomp_prepare(p->plan, err)) ? 0 : -1;
}

/* From here a hangup, TERM, INT or QUIT waits for the supervisor (a
 * login's end included): none may kill the caller half-way, with the
 * session's cgroup made and nothing to remove it. */
static int step_signals(struct run_parent *p, struct cc_error *err)
{
	(void)err;
	sandbox_signals_take(&p->sup.saved);
	return 0;
}

static int step_login_watch(struct run_parent *p, struct cc_error *err)
{
	return login_watch_open(p->req, &p->login, err);
}

static int step_ptys(struct run_parent *p, struct cc_error *err)
{
	return sandbox_take_ptys(&p->sup.run, &p->quota, err);
}

static int step_reports(struct run_parent *p, struct cc_error *err)
{
	return sandbox_open_reports(&p->sup.run, p->sv, err);
}

static int step_limits(struct run_parent *p, struct cc_error *err)
{
	return sandbox_limits_prepare(&p->sup.run, true, err);
}

/* The first process of the session: pid 1 with a pid namespace, else
 * the session process. */
_Noreturn static void first_process(struct run_parent *p)
{
	struct run *run = &p->sup.run;
	close(p->sv[0]);
	if (p->ended[0] >= 0)
		close(p->ended[0]);
	struct cc_error cgerr = { "" };
	if (cgroup_enter_self(run->cgroup, &cgerr) < 0)
		sandbox_child_fail(run, &cgerr);
	if (run->pid_ns)
		pid1(&p->sup);
	struct cc_error cerr = { "" };
	if (sandbox_child_begin(&cerr) < 0)
		sandbox_child_fail(run, &cerr);
	sandbox_session(&p->sup);
}

static int step_clone(struct run_parent *p, struct cc_error *err)
{
	struct run *run = &p->sup.run;
	const struct plan *plan = p->plan;
	if (FAULT("clone", err) < 0)
		return -1;
	p->sup.umask = umask(0); /* the caller's, for the command */
	umask(p->sup.umask);
	/* Without a pid namespace only a cgroup finds what the session
	 * started: a child that ignores SIGHUP, or a double fork, would
	 * outlive the login (login_over signals the cgroup and the first
	 * process, nothing else). */
	if (p->req->login && !run->pid_ns && !cgroup_holds(run->cgroup))
		return cc_fail(err, "a login's session without a pid namespace needs a "
			       "cgroup to end with its login: set pids-max (or 'unshare = pid')");
	/* A cgroup can only be removed once pid 1 has left it: then its
	 * end is waited for. */
	if (run->pid_ns && !run->cgroup) {
		if (pipe2(p->ended, O_CLOEXEC) < 0)
			return cc_fail_errno(err, "pipe");
		p->sup.status_fd = p->ended[1];
	}

	unsigned long others = sandbox_other_namespaces(plan);
	unsigned long long flags = CLONE_NEWNS;
	if (run->pid_ns) {
		flags |= CLONE_NEWPID;
		run->late_ns = others;
	} else {
		flags |= others;
	}
	p->pid = sandbox_clone_child(flags, &p->pidfd);
	if (p->pid == 0)
		first_process(p);
	if (p->pid < 0)
		cc_fail_errno(err, "clone");
	autoclose_fd(&p->sv[1]);
	autoclose_fd(&p->ended[1]);
	/* The child moved itself in with its own copies. */
	cgroup_close_procs(run->cgroup);
	return p->pid < 0 ? -1 : 0;
}

static int step_supervise(struct run_parent *p, struct cc_error *err)
{
	p->s.who = &p->plan->who;
	p->s.sock = p->sv[0];
	return supervise(&p->sup, &p->s, p->pid, p->pidfd, p->ended[0], &p->login,
			 &p->wstatus, err);
}

/* The caller's steps, in order; a name each for messages. Their
 * indexes tell run_teardown how far the steps got. */
enum run_step_index {
	RUN_CHECK, RUN_FILTER, RUN_SIGNALS, RUN_LOGIN_WATCH, RUN_PTYS, RUN_REPORTS,
	RUN_LIMITS, RUN_CLONE, RUN_SUPERVISE, RUN_STEPS
};
static const struct run_step {
	const char *name;
	int (*run)(struct run_parent *p, struct cc_error *err);
} run_steps[RUN_STEPS] = {
	[RUN_CHECK] = { "check", step_check },
	[RUN_FILTER] = { "filter", step_filter },
	[RUN_SIGNALS] = { "signals", step_signals },
	[RUN_LOGIN_WATCH] = { "login watch", step_login_watch },
	[RUN_PTYS] = { "ptys", step_ptys },
	[RUN_REPORTS] = { "reports", step_reports },
	[RUN_LIMITS] = { "limits", step_limits },
	[RUN_CLONE] = { "clone", step_clone }, /* its fault point: "clone" */
	[RUN_SUPERVISE] = { "supervise", step_supervise },
};

/* Undoes what the steps before REACHED did (REACHED failed, or all
 * passed), and gives the session's status once every step passed. The
 * record and the expiry are the clone's: neither is touched before one
 * was tried. */
static int run_teardown(struct run_parent *p, size_t reached, int *status,
			struct cc_error *err)
{
	const struct sandbox_request *req = p->req;
	struct run *run = &p->sup.run;
	int rc = reached < RUN_STEPS ? -1 : 0;
	login_watch_close(&p->login);
	pty_quota_release(&p->quota);
	if (p->pid != 0)
		record_end(&p->s.record, req->session_id);
	if (p->pid > 0 && !p->s.recorded && !p->s.have_error && p->s.record_err.msg[0]) {
		*err = p->s.record_err;
		rc = -1;
	}
	if (reached > RUN_SIGNALS)
		sandbox_signals_restore(&p->sup.saved);
	autoclose_fd(&p->sv[0]);
	autoclose_fd(&p->sv[1]);
	autoclose_fd(&p->ended[0]);
	autoclose_fd(&p->ended[1]);
	autoclose_fd(&p->pidfd);
	seccomp_filter_free(p->sup.filter);
	cgroup_destroy(run->cgroup);
	if (p->pid != 0 && req->expired)
		*req->expired = run->deadline && sandbox_boottime() >= run->deadline;
	if (rc < 0)
		return -1;
	if (p->s.have_error) {
		*err = p->s.first;
		return -1;
	}
	if (WIFEXITED(p->wstatus))
		*status = WEXITSTATUS(p->wstatus);
	else if (WIFSIGNALED(p->wstatus))
		*status = 128 + WTERMSIG(p->wstatus);
	else
		*status = 255;
	return 0;
}

static int run_sandbox(const struct sandbox_request *req,
		       const struct identity *who, int *status,
		       struct cc_error *err)
{
	struct run_parent p = {
		.req = req, .plan = req->plan,
		.sup = { .run = { .req = req, .plan = req->plan, .sock = -1, .ready = -1,
				  .who = who },
			 .caller = getpid(), .status_fd = -1 },
		.login = { .parent = -1, .tty = -1 }, .quota = { .lock = -1 },
		.sv = { -1, -1 }, .ended = { -1, -1 }, .pidfd = -1,
		.s = { .sock = -1, .plan = req->plan, .session_id = req->session_id,
		       .record = { .dir = -1 } },
	};
	p.s.quota = &p.quota;
	size_t reached = 0;
	while (reached < RUN_STEPS && run_steps[reached].run(&p, err) == 0)
		reached++;
	return run_teardown(&p, reached, status, err);
}

int sandbox_run(const struct sandbox_request *req, int *status,
		struct cc_error *err)
{
	const struct plan *plan = req->plan;
	/* Without a pid namespace the session process is born in the new
	 * network namespace, where an NSS source on the network (NIS, LDAP)
	 * is out of reach and the lookup would refuse the session: the
	 * caller looks them up, on the host's network. */
	if (plan && plan->sandboxed && !(plan->namespaces & NS_PID) &&
	    plan->who.groups_later) {
		struct identity full;
		identity_copy(&full, &plan->who);
		int rc = identity_complete(&full, err) < 0
				 ? -1 : run_sandbox(req, &full, status, err);
		identity_free(&full);
		return rc;
	}
	return run_sandbox(req, NULL, status, err);
}
