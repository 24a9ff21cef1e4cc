// SPDX-License-Identifier: GPL-2.0-or-later
/* Service mode: the calling service joins the session it built. */
/* Service mode (sandbox_enter): the calling service joins the session
 * it had built and runs on inside it; cocoon-init is its pid 1. */
#include "sandbox_internal.h"
#include "sandbox_share.h"
#include "scope_holder.h"
#include "shells.h"

/* ---- Service mode ----
 *
 *   service (root, a PAM module's caller)   sandbox_enter()
 *     +- helper       vfork; starts pid 1, waits for its exec, sends
 *          |          its pidfd, exits
 *          +- pid 1   clone(VM|NEWNS|NEWPID), in the service's memory:
 *               |     clones pid 2, then executes "cocoon-init hold FD
 *               |     ...", which creates the other namespaces (no main
 *               |     process: it reaps, and ends when killed or when the
 *               |     service, whose pidfd FD is, dies)
 *               +- pid 2  builds the root in service mode (root-owned,
 *                         mounts_service_setup), pivots, reports it,
 *                         exits
 *
 * pid 1 is then nobody's child that the service could wait for (login
 * and su wait for any child). The service saves descriptors of its own
 * namespaces and working directory, then enters pid 1's namespaces with
 * one setns on the pidfd: its mount namespace now, its pid namespace for
 * the children the service forks from then on. */

static const struct {
	const char *name;
	int type;
	unsigned ns; /* plan bit; 0: always */
} saved_ns[] = {
	{ "mnt", CLONE_NEWNS, 0 },
	{ "pid_for_children", CLONE_NEWPID, 0 },
	{ "net", CLONE_NEWNET, NS_NET },
	{ "ipc", CLONE_NEWIPC, NS_IPC },
	{ "uts", CLONE_NEWUTS, NS_UTS },
	{ "cgroup", CLONE_NEWCGROUP, NS_CGROUP },
};
#define NSAVED ARRAY_SIZE(saved_ns)

struct sandbox_handle {
	pid_t owner; /* the process that entered */
	int pidfd;   /* pid 1 */
	int ns[NSAVED];
	char *cwd; /* the service's, to return to */
	bool inside;
	struct cgroup *cgroup; /* the service is in it while inside */
	long long deadline;
	char *recorded; /* the session id whose record was written */
	/* share-sandbox: the sandbox outlives this login (its pid 1 counts
	 * the logins); JOINED: made by another login, whose cgroup this
	 * process entered from CGROUP_ORIGIN. */
	bool shared, joined;
	char *sandbox_id; /* the shared sandbox's: its first login's session id */
	char *cgroup_origin;
	/* Under systemd, a shared sandbox's login: the process that keeps
	 * its logind session scope (CGROUP_ORIGIN) while the service is in
	 * the sandbox's scope (scope_holder.h). */
	int holder;
};

static void handle_close(struct sandbox_handle *h)
{
	for (size_t i = 0; i < NSAVED; i++)
		if (h->ns[i] >= 0)
			close(h->ns[i]);
	free(h->cwd);
	if (h->pidfd >= 0)
		close(h->pidfd);
	/* Back in its session's scope first: the holder's end must not
	 * leave the scope empty (a no-op when sandbox_return did it). */
	if (h->holder >= 0 && h->owner == getpid()) {
		struct cc_error ignored;
		cgroup_return(h->cgroup_origin, &ignored);
		scope_holder_end(&h->holder);
	}
	autoclose_fd(&h->holder);
	/* In the process that entered, after pid 1 was killed: waits for
	 * the session to be gone and removes its cgroup. */
	if (h->shared) {
		/* Not this login's to empty: the sandbox's pid 1 ends it. */
		struct cc_error ignored;
		cgroup_leave(h->cgroup, &ignored);
		cgroup_release(h->cgroup);
	} else {
		cgroup_destroy(h->cgroup);
	}
	free(h->cgroup_origin);
	free(h->sandbox_id);
	free(h->recorded);
	free(h);
}

static int service_check(const struct sandbox_request *req, struct cc_error *err)
{
	const struct plan *plan = req->plan;
	if (!plan)
		return cc_fail(err, "the plan has no sandbox (sandbox = none)");
	if (plan_check_service_mode(plan, err) < 0)
		return -1;
	if (!req->init_path || !req->launcher_path)
		return cc_fail(err, "service mode needs cocoon-init and cocoon-launch");
	if (geteuid() != 0)
		return cc_fail(err, "building a sandbox needs root");
	/* cocoon-launch tells its first run from a nested one by the filter
	 * or no_new_privs it finds: a service that already carries either
	 * (systemd's NoNewPrivileges= or SystemCallFilter=, a container's
	 * profile) would make every launch look nested, and skip them all. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2 || prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return cc_fail(err, "the service already runs with a seccomp filter or "
			       "no_new_privs (systemd's SystemCallFilter= or NoNewPrivileges=?): "
			       "cocoon-launch could not tell the session's first program from "
			       "a nested one");
	if (plan_check_shape(plan, err) < 0 || sandbox_check_single_threaded(err) < 0)
		return -1;
	return 0;
}

/* Reads the reports until pid 1's pidfd (REPORT_PID1, from the helper)
 * or the end of the build (REPORT_BUILT or REPORT_BUILT_CHROOTED, from
 * pid 2) comes, whichever is first; the caller calls again for the
 * other. An error ends it. */
static int service_wait(int sock, int *pidfd, bool *built, bool *chrooted,
			struct cc_error *err)
{
	for (;;) {
		struct pollfd pfd = { sock, POLLIN, 0 };
		int n = poll(&pfd, 1, 60000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return cc_fail(err, "building the sandbox: %s",
				       n == 0 ? "timed out" : strerror(errno));
		char buf[1 + sizeof(err->msg)];
		int fd;
		ssize_t got = report_recv(sock, 0, buf, sizeof(buf), &fd);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return cc_fail(err, "building the sandbox: it ended without "
				       "a report");
		if (fd >= 0 && buf[0] == REPORT_PID1 && *pidfd < 0)
			*pidfd = fd;
		else if (fd >= 0)
			close(fd);
		if (buf[0] == REPORT_ERROR)
			return cc_fail(err, "%s", buf + 1);
		if (buf[0] == REPORT_BUILT || buf[0] == REPORT_BUILT_CHROOTED) {
			*built = true;
			*chrooted = buf[0] == REPORT_BUILT_CHROOTED;
			return 0;
		}
		if (buf[0] == REPORT_PID1 && *pidfd >= 0)
			return 0;
	}
}

/* The pidfd the helper sent, from what is left in the socket (none:
 * *PIDFD stays -1). */
static void take_pidfd(int sock, int *pidfd)
{
	char buf[64];
	int fd;
	while (report_recv(sock, MSG_DONTWAIT, buf, sizeof(buf), &fd) > 0) {
		if (buf[0] == REPORT_PID1 && fd >= 0 && *pidfd < 0)
			*pidfd = fd;
		else if (fd >= 0)
			close(fd);
	}
}

/* Service mode's pid 1 until it executes cocoon-init: a clone that
 * shares the helper's memory (the service's), on a stack of its own.
 * It makes pid 2, a copy of that memory, then executes cocoon-init.
 * System calls only, and error numbers, not strerror (message
 * catalogues, malloc). */
struct init_exec {
	struct run_service *svc;
	int ready[2]; /* pid 1 to pid 2 (see join_namespaces) */
	int execd[2]; /* its end of file: pid 1 executed cocoon-init */
	char **argv;
};

static int exec_init(void *arg)
{
	const struct init_exec *x = arg;
	struct run_service *svc = x->svc;
	struct run *run = &svc->run;
	struct cc_error err;
	/* Out of the caller's process group, pid 1 gets none of the
	 * terminal's signals. It was born fully root (the helper's
	 * credentials): the user cannot signal it. Signals stay blocked, as
	 * the service had them for the helper. */
	if (setpgid(0, 0) < 0 || chdir("/") < 0) {
		cc_fail_number(&err, errno, "preparing pid 1");
		sandbox_child_fail(run, &err);
	}
	/* A chrooted service would otherwise join a namespace whose root is
	 * the tree around its chroot (setns resets the root), where nothing
	 * is covered. Before pid 2 exists, so that it and cocoon-init both
	 * have the chroot as their root. */
	int chrooted = mounts_chroot_to_namespace(&err);
	if (chrooted < 0)
		sandbox_child_fail(run, &err);
	svc->chrooted = chrooted == 1;
	/* Pid 2, pid 1's child (so cocoon-init reaps it), in its mount
	 * namespace (where the service joins the root it builds), on the
	 * host's network (cocoon-init makes the other namespaces while it
	 * builds). */
	int pid2fd = -1;
	pid_t pid2 = sandbox_clone_child(0, &pid2fd);
	if (pid2 == 0) {
		close(x->ready[1]);
		close(x->execd[1]);
		run->ready = x->ready[0];
		if (sandbox_child_begin(&err) < 0)
			sandbox_child_fail(run, &err);
		sandbox_session_service(svc);
	}
	if (pid2 < 0) {
		cc_fail_number(&err, errno, "clone");
		sandbox_child_fail(run, &err);
	}
	close(pid2fd);
	/* The service's pidfd and the ready pipe's end are the descriptors
	 * cocoon-init keeps; it closes the second once it has made the
	 * namespaces and no longer reads files. */
	if (fcntl(x->ready[1], F_SETFD, 0) < 0 || fcntl(svc->service_pidfd, F_SETFD, 0) < 0 ||
	    (svc->share_listen >= 0 && fcntl(svc->share_listen, F_SETFD, 0) < 0)) {
		cc_fail_number(&err, errno, "preparing cocoon-init");
		sandbox_child_fail(run, &err);
	}
	char *envp[] = { NULL };
	execveat(svc->initfd, "", x->argv, envp, AT_EMPTY_PATH);
	cc_fail_number(&err, errno, "exec cocoon-init (%s)", run->req->init_path);
	sandbox_child_fail(run, &err);
}

/* Pid 1's stack, and pid 2's until it ends. The build's deepest calls
 * (a home skeleton 16 directories deep) take about 220 KiB; the kiosk
 * tests fail at 48 KiB. The guard below it is larger than any frame
 * (copy_file's 64 KiB buffer), so an overflow faults rather than skip
 * it (-fstack-clash-protection probes too). */
#define INIT_STACK_SIZE (1024 * 1024)
#define INIT_STACK_GUARD (128 * 1024)

/* Until pid 1 has executed (or died), it runs in the helper's memory;
 * its clone3 of pid 2 copies it meanwhile, so the helper takes no lock
 * and allocates nothing until then (poll and read only, and no errno:
 * pid 1 writes the same one). Whether pid 1 has executed within
 * EXEC_WAIT_S (the end of file on EXECD); if not, it is killed and
 * reaped, so that nothing runs in this memory once the helper exits. */
#define EXEC_WAIT_S 60
static bool wait_exec(int execd, pid_t pid, int pidfd)
{
	struct pollfd p = { .fd = execd, .events = POLLIN, .revents = 0 };
	char c;
	if (poll(&p, 1, EXEC_WAIT_S * 1000) == 1 && read(execd, &c, 1) == 0)
		return true;
	sys_pidfd_send_signal(pidfd, SIGKILL);
	waitpid(pid, NULL, __WALL);
	return false;
}

/* The helper: starts pid 1, sends its pidfd over the report socket and
 * exits, so that pid 1 is not the service's child. vfork: the helper
 * borrows the service's memory, which waits suspended until it exits,
 * rather than copying it (sshd's page tables, copied and torn down at
 * every login). Pid 1 borrows it too until its exec, so that nothing is
 * copied or torn down for it; the helper exits only once pid 1 has
 * executed (or died), so the service never runs beside it. Only pid 2,
 * which builds, gets a copy. The helper makes system calls only (error
 * numbers, not strerror). A function of its own: nothing of the
 * caller's frame is live across the vfork. */
__attribute__((noinline))
static pid_t start_helper(struct run_service *svc, int caller_sock)
{
	struct run *run = &svc->run;
	pid_t helper = vfork();
	if (helper != 0)
		return helper;
	/* First, fully root: a setuid service (su) leaves the real uid the
	 * user's, who could otherwise kill the helper, and the vfork would
	 * let the service run on while pid 1 still runs in its memory.
	 * Killed before this, no pid 1 exists yet. creds_take_root makes
	 * raw system calls: glibc's wrappers may signal every thread it
	 * knows, the service's. */
	struct cc_error err;
	if (creds_take_root(&err) < 0)
		_exit(127);
	close(caller_sock);
	struct init_exec x = { .svc = svc };
	if (pipe2(x.ready, O_CLOEXEC) < 0 || pipe2(x.execd, O_CLOEXEC) < 0) {
		cc_fail_number(&err, errno, "pipe");
		sandbox_child_fail(run, &err);
	}
	size_t guard = INIT_STACK_GUARD;
	char *stack = mmap(NULL, INIT_STACK_SIZE + guard, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED || mprotect(stack, guard, PROT_NONE) < 0) {
		cc_fail_number(&err, errno, "a stack for pid 1");
		if (stack != MAP_FAILED)
			munmap(stack, INIT_STACK_SIZE + guard);
		sandbox_child_fail(run, &err);
	}
	char service_fd[24], deadline[24], namespaces[24], ready_fd[24], listen_fd[24], linger[24];
	char warnings[SESSION_INIT_WARNINGS_MAX * 24 + 2] = "-", id[40];
	struct session_init_notices notices = { 0 };
	sandbox_init_warnings(run->plan, &notices);
	for (size_t i = 0, n = 0; i < notices.nwarnings; i++)
		n += (size_t)snprintf(warnings + n, sizeof(warnings) - n, "%s%llu", i ? "," : "",
				      notices.warnings[i]);
	snprintf(id, sizeof(id), "%s", run->req->session_id ? run->req->session_id : "-");
	snprintf(service_fd, sizeof(service_fd), "%d", svc->service_pidfd);
	snprintf(deadline, sizeof(deadline), "%lld", run->deadline);
	snprintf(namespaces, sizeof(namespaces), "%lu", run->late_ns);
	snprintf(ready_fd, sizeof(ready_fd), "%d", x.ready[1]);
	snprintf(listen_fd, sizeof(listen_fd), "%d", svc->share_listen);
	snprintf(linger, sizeof(linger), "%lld", svc->linger_ms);
	char *argv[] = { (char *)"cocoon-init", (char *)"hold", service_fd, deadline,
			 namespaces, ready_fd, warnings, id,
			 svc->share_listen >= 0 ? listen_fd : NULL, linger, NULL };
	x.argv = argv;
	int pidfd = -1;
	pid_t pid = clone(exec_init, stack + guard + INIT_STACK_SIZE,
			  CLONE_VM | CLONE_NEWNS | CLONE_NEWPID | CLONE_PIDFD | SIGCHLD,
			  &x, &pidfd);
	int clone_errno = errno;
	close(x.ready[0]);
	close(x.ready[1]);
	close(x.execd[1]);
	if (pid < 0) {
		munmap(stack, INIT_STACK_SIZE + guard);
		cc_fail_number(&err, clone_errno, "clone");
		sandbox_child_fail(run, &err);
	}
	bool started = wait_exec(x.execd[0], pid, pidfd);
	munmap(stack, INIT_STACK_SIZE + guard);
	if (!started) {
		cc_fail(&err, "pid 1 did not execute cocoon-init within %d s", EXEC_WAIT_S);
		sandbox_child_fail(run, &err);
	}
	_exit(report_send_fd(run->sock, REPORT_PID1, pidfd) < 0 ? 127 : 0);
}

/* The launcher's settings (launch_settings.h) for PLAN, a line each;
 * chdir and home are for the user's shell (the service keeps its own
 * working directory). */
static int launch_settings(const struct plan *plan, bool filter, char *launch, size_t size,
			   struct cc_error *err)
{
	if (plan->chdir && strchr(plan->chdir, '\n'))
		return cc_fail(err, "chdir: a newline in the path");
	const char *home = plan->who.home && plan->who.home[0] == '/' &&
			   !strchr(plan->who.home, '\n') ? plan->who.home : NULL;
	int len = snprintf(launch, size,
			   LAUNCH_LINE(LAUNCH_KEY_NO_NEW_PRIVS, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_SECCOMP, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_SECCOMP_LOG, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_LANDLOCK, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_LANDLOCK_SCOPE, "%u"),
			   plan->no_new_privs ? LAUNCH_YES : LAUNCH_NO,
			   filter ? LAUNCH_YES : LAUNCH_NO,
			   plan->seccomp_log ? LAUNCH_YES : LAUNCH_NO,
			   plan->landlock_required ? LAUNCH_LANDLOCK_REQUIRED
						   : LAUNCH_LANDLOCK_BEST_EFFORT,
			   plan->landlock_scope & LL_SCOPE_ALL);
	const struct { const char *key, *value; } optional[] = {
		{ LAUNCH_KEY_CHDIR, plan->chdir }, { LAUNCH_KEY_HOME, home },
	};
	for (size_t i = 0; i < ARRAY_SIZE(optional) && len >= 0 &&
	     (size_t)len < size; i++)
		if (optional[i].value)
			len += snprintf(launch + len, size - (size_t)len,
					LAUNCH_LINE("%s", "%s"), optional[i].key,
					optional[i].value);
	/* The forced command, a line per word (plan_expand bounded them and
	 * kept newlines out). */
	for (char **w = plan->command; w && *w && len >= 0 && (size_t)len < size; w++)
		len += snprintf(launch + len, size - (size_t)len,
				LAUNCH_LINE(LAUNCH_KEY_COMMAND, "%s"), *w);
	if (len < 0 || (size_t)len >= size)
		return cc_fail(err, "chdir, home or command: too long");
	return 0;
}

/* Descriptors of the host's namespaces the session will replace, for
 * sandbox_return to go back to. */
static int save_host_namespaces(struct sandbox_handle *h, const struct plan *plan,
				struct cc_error *err)
{
	for (size_t i = 0; i < NSAVED; i++) {
		if (saved_ns[i].ns && !(plan->namespaces & saved_ns[i].ns))
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/ns/%s", saved_ns[i].name);
		if ((h->ns[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return cc_fail_errno(err, "saving the host's namespace: %s", path);
	}
	return 0;
}

/* A chrooted service (pid 1 said so) gets a mount namespace of its own
 * to come back to, a copy of its namespace whose root is its chroot:
 * setns to the one it leaves would put it at that namespace's root,
 * around the chroot. Not a descriptor of the chroot kept for a chroot()
 * on the way back: the service's forked children (sshd's post-auth
 * child, which runs as the user and serves internal-sftp without exec)
 * would inherit it, a way out of the sandbox; a namespace's descriptor
 * is of no use without CAP_SYS_ADMIN. The service moves there now,
 * before it joins the session. */
static int return_namespace(struct sandbox_handle *h, struct cc_error *err)
{
	/* h->ns[0]: the mount namespace (saved_ns[0]). */
	int chroot_fd AUTOCLOSE = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (chroot_fd < 0)
		return cc_fail_errno(err, "opening the service's root");
	int ns AUTOCLOSE = -1;
	if (unshare(CLONE_NEWNS) < 0)
		return cc_fail_errno(err, "a mount namespace to return to");
	/* The fault comes once the service has left its chroot, to test the
	 * way back. */
	if (mounts_chroot_to_namespace(err) >= 0 && FAULT("return namespace", err) == 0 &&
	    (ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
		cc_fail_errno(err, "a mount namespace to return to: /proc/self/ns/mnt");
	if (ns < 0) {
		/* Back where it was, chrooted again; the session is refused. */
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		if (setns(h->ns[0], CLONE_NEWNS) < 0 || fchdir(chroot_fd) < 0 || chroot(".") < 0)
			cc_fail(err, "%s; and the service could not go back to its chroot", why);
		else if (chdir(h->cwd) < 0 && chdir("/") < 0)
			cc_fail(err, "%s; and the service could not go back to its directory", why);
		return -1;
	}
	close(h->ns[0]);
	h->ns[0] = steal_fd(&ns);
	/* Where sandbox_enter's failure leaves it, should a later step fail. */
	if (chdir(h->cwd) < 0 && chdir("/") < 0)
		return cc_fail_errno(err, "returning to the working directory");
	return 0;
}

/* ---- The service's steps ----
 *
 * The service builds and joins the session in the order of
 * service_steps; on a failure service_teardown undoes what they did. */
struct service_parent {
	const struct sandbox_request *req;
	const struct plan *plan;
	struct run_service svc;
	struct service_setup setup;
	char launch[LAUNCH_SETTINGS_SIZE];
	struct seccomp_filter *filter; /* built for its program, which cocoon-launch loads */
	struct pty_quota quota;
	struct sandbox_handle *h;
	int sv[2]; /* the report socket, until the build is over */
	bool chrooted; /* pid 2 reported the build of a chrooted service's */
	const struct share_slot *slot; /* share-sandbox: locked; NULL: not shared */
};

static int step_check(struct service_parent *p, struct cc_error *err)
{
	if (service_check(p->req, err) < 0)
		return -1;
	p->plan = p->req->plan;
	p->svc.run.plan = p->plan;
	p->svc.run.who = &p->plan->who;
	p->setup.login_shell = shell_login_path(p->plan->who.login_shell);
	if (!p->req->real_shell)
		return cc_fail(err, "no real shell given for the session");
	p->setup.real_shell = p->req->real_shell;
	return 0;
}

static int step_filter(struct service_parent *p, struct cc_error *err)
{
	if (!(p->filter = seccomp_prepare(p->plan, err)))
		return -1;
	seccomp_filter_program(p->filter, &p->setup.bpf, &p->setup.bpf_len);
	if (launch_settings(p->plan, p->setup.bpf != NULL, p->launch, sizeof(p->launch),
			    err) < 0)
		return -1;
	p->setup.launch = p->launch;
	p->setup.id = p->req->session_id;
	p->svc.setup = &p->setup;
	return 0;
}

static int step_handle(struct service_parent *p, struct cc_error *err)
{
	struct sandbox_handle *h = p->h = xcalloc(1, sizeof(*h));
	h->owner = getpid();
	h->pidfd = -1;
	h->holder = -1;
	for (size_t i = 0; i < NSAVED; i++)
		h->ns[i] = -1;
	if (save_host_namespaces(h, p->plan, err) < 0)
		return -1;
	/* A path, not a descriptor: the service's children (sshd's
	 * post-auth child, which serves internal-sftp without exec) would
	 * inherit a descriptor of a host directory inside the sandbox. */
	if (!(h->cwd = getcwd(NULL, 0)))
		h->cwd = xstrdup("/");
	return 0;
}

static int step_ptys(struct service_parent *p, struct cc_error *err)
{
	return sandbox_take_ptys(&p->svc.run, &p->quota, err);
}

static int step_init(struct service_parent *p, struct cc_error *err)
{
	return (p->svc.initfd = sandbox_open_init(p->req->init_path, err)) < 0 ? -1 : 0;
}

static int step_service_pidfd(struct service_parent *p, struct cc_error *err)
{
	if ((p->svc.service_pidfd = sys_pidfd_open(getpid(), 0)) < 0)
		return cc_fail_errno(err, "pidfd_open of the service process");
	return 0;
}

/* Under systemd, a login of a shared sandbox leaves its logind session
 * scope for the sandbox's: the scope it leaves (to go back to at close)
 * and a holder in it, so that logind keeps the session meanwhile. */
static int leave_session_scope(struct sandbox_handle *h, struct cc_error *err)
{
	if (!(h->cgroup_origin = cgroup_self()))
		return cc_fail(err, "cgroup: reading /proc/self/cgroup");
	return (h->holder = scope_holder_start(err)) < 0 ? -1 : 0;
}

/* Under systemd a shared sandbox has a scope of its own, which the caller
 * makes (pam_cocoon's login or cocoon-shell's), never a login's. */
static bool shared_scope(const struct sandbox_request *req)
{
	return req->start_scope && cgroup_under_systemd();
}

/* Into the session's cgroup before forking: every process of the
 * session descends from the service. Under systemd, logind's scope is
 * the session's cgroup, but a shared sandbox outlives its first login:
 * it gets a scope of its own, cocoon-ID.scope in the user's slice. */
static int step_cgroup(struct service_parent *p, struct cc_error *err)
{
	struct run *run = &p->svc.run;
	bool scope = p->svc.share_listen >= 0 && shared_scope(p->req);
	if (sandbox_limits_prepare(run, !p->req->systemd_cgroup && !scope, err) < 0)
		return -1;
	p->h->cgroup = run->cgroup;
	p->h->deadline = run->deadline;
	if (scope) {
		if (!p->req->session_id)
			return cc_fail(err, "share-sandbox under systemd: no session id "
				       "to name the sandbox's scope");
		char unit[96];
		snprintf(unit, sizeof(unit), "cocoon-%s.scope", p->req->session_id);
		if (leave_session_scope(p->h, err) < 0 ||
		    p->req->start_scope(unit, p->plan->who.uid, &p->plan->limits, err) < 0)
			return -1;
	}
	if (cgroup_enter_self(p->h->cgroup, err) < 0 || FAULT("fork", err) < 0)
		return -1;
	return 0;
}

static int step_reports(struct service_parent *p, struct cc_error *err)
{
	if (sandbox_open_reports(&p->svc.run, p->sv, err) < 0)
		return -1;
	p->svc.run.late_ns = sandbox_other_namespaces(p->plan);
	return 0;
}

/* The helper, pid 1 and pid 2 (see start_helper), and the session's
 * record. Whatever comes of it, the helper is reaped, the socket closed
 * and SIGCHLD handled as before. */
static int step_build(struct service_parent *p, struct cc_error *err)
{
	const struct plan *plan = p->plan;
	struct sandbox_handle *h = p->h;
	struct run_service *svc = &p->svc;
	/* The service's own SIGCHLD handling (sudo reaps from a handler)
	 * must not take the helper; signals stay as the caller had them
	 * otherwise. */
	struct sigaction old_chld;
	sigset_t old_mask;
	signals_hold_for_helper(&old_chld, &old_mask);
	pid_t helper = start_helper(svc, p->sv[0]);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	autoclose_fd(&p->sv[1]);
	autoclose_fd(&svc->initfd);
	autoclose_fd(&svc->service_pidfd);
	int rc = helper < 0 ? cc_fail_errno(err, "fork") : 0;
	/* pid 2's REPORT_BUILT and the helper's REPORT_PID1 race: both must
	 * come. The record is written while pid 2 builds, and published once
	 * it is done. */
	bool built = false;
	struct record_pending record = { .dir = -1 };
	while (rc == 0 && !(built && h->pidfd >= 0)) {
		bool had_pidfd = h->pidfd >= 0;
		rc = service_wait(p->sv[0], &h->pidfd, &built, &p->chrooted, err);
		if (rc == 0 && !had_pidfd && h->pidfd >= 0)
			rc = record_prepare_shared(plan, p->req->session_id,
						   svc->share_listen >= 0 ? p->req->session_id
									 : NULL,
						   pidfd_pid(h->pidfd), h->pidfd,
						   p->quota.ptys, &record, err);
		if (h->pidfd >= 0)
			pty_quota_release(&p->quota);
	}
	pty_quota_release(&p->quota);
	if (rc == 0)
		rc = pty_quota_publish(plan->who.uid, &record, err);
	record_discard(&record);
	if (helper > 0)
		while (waitpid(helper, NULL, 0) < 0 && errno == EINTR)
			;
	/* A failure may come before pid 1's pidfd, which the helper (gone
	 * by now: vfork returned) has then left in the socket; without it
	 * pid 1 would live on until the service ends. */
	if (rc < 0 && h->pidfd < 0)
		take_pidfd(p->sv[0], &h->pidfd);
	autoclose_fd(&p->sv[0]);
	sigaction(SIGCHLD, &old_chld, NULL);
	seccomp_filter_free(steal_ptr(&p->filter));
	if (rc < 0)
		return -1;
	h->recorded = p->req->session_id ? xstrdup(p->req->session_id) : NULL;
	h->shared = svc->share_listen >= 0;
	if (h->shared && p->req->session_id)
		h->sandbox_id = xstrdup(p->req->session_id);
	autoclose_fd(&svc->share_listen); /* pid 1's now */
	return 0;
}

/* share-sandbox: the new sandbox's pid 1 gets the audit record of its
 * own end (sandbox.h, end_record), on the host (the slot's socket is a
 * host path), while the slot is locked and before this login could
 * leave: a sandbox whose end would go unrecorded is not made. */
static int step_end_record(struct service_parent *p, struct cc_error *err)
{
	const struct sandbox_request *req = p->req;
	if (!p->slot || !p->h->shared || !req->end_record || req->end_record_log < 0)
		return 0;
	if (FAULT("end record", err) < 0)
		return -1;
	return share_give_record(p->slot, req->end_record_log, req->end_record, err);
}

static int step_return_namespace(struct service_parent *p, struct cc_error *err)
{
	return p->chrooted ? return_namespace(p->h, err) : 0;
}

static int step_setns(struct service_parent *p, struct cc_error *err)
{
	if (FAULT("setns", err) < 0)
		return -1;
	if (setns(p->h->pidfd, (int)(CLONE_NEWNS | CLONE_NEWPID | p->svc.run.late_ns)) < 0)
		return cc_fail_errno(err, "joining the sandbox's namespaces");
	p->h->inside = true;
	return 0;
}

/* The service's steps, in order; a name each for messages. */
static const struct service_step {
	const char *name;
	int (*run)(struct service_parent *p, struct cc_error *err);
} service_steps[] = {
	{ "check", step_check },
	{ "filter", step_filter },
	{ "handle", step_handle }, /* the host's namespaces and directory */
	{ "ptys", step_ptys },
	{ "cocoon-init", step_init },
	{ "service pidfd", step_service_pidfd },
	{ "cgroup", step_cgroup },   /* its fault point: "fork" */
	{ "reports", step_reports },
	{ "build", step_build },
	{ "end record", step_end_record },
	{ "return namespace", step_return_namespace }, /* fault: "return namespace" */
	{ "setns", step_setns },
};

/* Once every step passed, the handle is the caller's. Else what the
 * steps left is undone, in this order: pid 1 is killed before its
 * record goes, and before handle_close waits for the cgroup to empty. */
static int service_teardown(struct service_parent *p, size_t reached,
			    struct sandbox_handle **out)
{
	if (reached == ARRAY_SIZE(service_steps)) {
		*out = steal_ptr(&p->h);
		return 0;
	}
	pty_quota_release(&p->quota);
	autoclose_fd(&p->svc.initfd);
	autoclose_fd(&p->svc.service_pidfd);
	seccomp_filter_free(p->filter);
	if (p->h) {
		if (p->h->pidfd >= 0)
			sys_pidfd_send_signal(p->h->pidfd, SIGKILL);
		record_remove(p->h->recorded);
		handle_close(p->h);
	}
	return -1;
}

/* ---- share-sandbox: joining (sandbox_share.h) ----
 *
 * A login that joins builds nothing: the checks a new login passes, the
 * host's namespaces saved, then attached to the sandbox's pid 1, into
 * its cgroup, recorded, and setns into its namespaces. Its walls come as
 * a new login's do: cocoon-launch, in the sandbox's tree, puts them on
 * what the user runs (the same plan, so the same settings and filter). */

/* Whether this login shares: its plan says so, the cgroup is cocoon's or,
 * under systemd, a scope of the sandbox's own that the caller can make
 * (step_cgroup), and the service runs at its namespace's root (a
 * chrooted one needs the way back that only a build makes). */
static bool share_wanted(const struct sandbox_request *req)
{
	return req->plan && req->plan->share && (!req->systemd_cgroup || req->start_scope) &&
	       mounts_root_is_namespaces();
}

static long long linger_ms(const struct plan *plan)
{
	if (plan->linger == LINGER_YES)
		return -1;
	if (plan->linger == LINGER_NO)
		return 0;
	/* A century at most: the same as no end, in a number that fits. */
	unsigned long long s = plan->linger_time;
	return s > 100ULL * 366 * 86400 ? 100LL * 366 * 86400 * 1000 : (long long)s * 1000;
}

/* 1 joined (*OUT the handle), 0 no live sandbox to join, -1 failed. */
static int join_shared(struct service_parent *p, const struct share_slot *slot,
		       struct sandbox_handle **out, struct cc_error *err)
{
	if (step_check(p, err) < 0 || step_handle(p, err) < 0)
		return -1;
	struct sandbox_handle *h = p->h;
	const struct plan *plan = p->plan;
	int self AUTOCLOSE = sys_pidfd_open(getpid(), 0);
	if (self < 0)
		return cc_fail_errno(err, "pidfd_open of the service process");
	struct share_joined sandbox;
	int joined = share_join(slot, self, &sandbox, err);
	if (joined <= 0)
		return joined;
	h->pidfd = sandbox.init_pidfd;
	h->shared = h->joined = true;
	h->sandbox_id = xstrdup(sandbox.id);
	h->deadline = sandbox.deadline;
	if (FAULT("join", err) < 0)
		return -1;
	/* Under systemd, always: the sandbox's scope holds its processes
	 * whatever the limits, away from each login's session scope. */
	if (shared_scope(p->req)) {
		if (leave_session_scope(h, err) < 0 || cgroup_join_pidfd(h->pidfd, err) < 0)
			return -1;
	} else if (plan_limits_need_cgroup(&plan->limits)) {
		h->cgroup_origin = cgroup_self();
		if (!h->cgroup_origin)
			return cc_fail(err, "cgroup: reading /proc/self/cgroup");
		if (cgroup_join_pidfd(h->pidfd, err) < 0)
			return -1;
	}
	struct record_pending record = { .dir = -1 };
	int rc = record_prepare_shared(plan, p->req->session_id, sandbox.id, pidfd_pid(h->pidfd),
				       h->pidfd, 1, &record, err);
	if (rc == 0)
		rc = record_publish(&record, err);
	record_discard(&record);
	if (rc < 0)
		return -1;
	h->recorded = p->req->session_id ? xstrdup(p->req->session_id) : NULL;
	p->svc.run.late_ns = sandbox_other_namespaces(plan);
	struct stat launcher, host_shell;
	if (stat(p->req->launcher_path, &launcher) < 0)
		return cc_fail_errno(err, "cocoon-launch %s", p->req->launcher_path);
	bool host_shell_known = stat(p->setup.login_shell, &host_shell) == 0;
	if (step_setns(p, err) < 0)
		return -1;
	/* The tree covers the login shell its first login had with
	 * cocoon-launch. A shell changed since (chsh, the directory) would
	 * run there without the walls, and a cocoon-launch replaced since (an
	 * upgrade) may not speak this module's language: such a login is
	 * refused, and told which it was. */
	struct stat shell;
	bool shell_known = stat(p->setup.login_shell, &shell) == 0;
	if (shell_known && stat_same_file(&shell, &launcher)) {
		*out = steal_ptr(&p->h);
		return 1;
	}
	struct cc_error ignored;
	sandbox_return(h, &ignored);
	if (!shell_known || !host_shell_known || stat_same_file(&shell, &host_shell))
		return cc_fail(err, "share-sandbox: the login shell %s is not the shared "
			       "sandbox's (changed since it was made): this login cannot "
			       "join it until it ends (cocoonctl stop ends it now)",
			       p->setup.login_shell);
	return cc_fail(err, "share-sandbox: cocoon-launch %s was replaced since the "
		       "shared sandbox was made (an upgrade of cocoon?): this login "
		       "cannot join it until it ends (cocoonctl stop ends it now)",
		       p->req->launcher_path);
}

static void join_undo(struct service_parent *p)
{
	struct sandbox_handle *h = p->h;
	if (!h)
		return;
	struct cc_error ignored;
	if (h->cgroup_origin)
		cgroup_return(h->cgroup_origin, &ignored);
	if (h->recorded)
		record_remove(h->recorded);
	handle_close(h);
	p->h = NULL;
}

int sandbox_enter(const struct sandbox_request *req, struct sandbox_handle **out,
		  struct cc_error *err)
{
	*out = NULL;
	struct service_parent p = {
		.req = req,
		.svc = { .run = { .req = req, .sock = -1, .ready = -1, .pid_ns = true },
			 .initfd = -1, .service_pidfd = -1, .share_listen = -1 },
		.setup = { .launcher = req->launcher_path },
		.quota = { .lock = -1 }, .sv = { -1, -1 },
	};
	/* Shared: held from the look for a live sandbox until this login has
	 * joined one, or built one whose pid 1 listens. */
	struct share_slot slot = { .dir = -1, .lock = -1 };
	if (share_wanted(req)) {
		if (share_slot_open(req->plan->who.uid, req->plan->hash, &slot, err) < 0)
			return -1;
		int joined = join_shared(&p, &slot, out, err);
		if (joined != 0) {
			if (joined < 0)
				join_undo(&p);
			share_slot_close(&slot);
			return joined < 0 ? -1 : 0;
		}
		join_undo(&p);
		p.plan = NULL;
		if ((p.svc.share_listen = share_listen(&slot, err)) < 0) {
			share_slot_close(&slot);
			return -1;
		}
		p.svc.linger_ms = linger_ms(req->plan);
		p.slot = &slot;
	}
	size_t reached = 0;
	while (reached < ARRAY_SIZE(service_steps) && service_steps[reached].run(&p, err) == 0)
		reached++;
	int rc = service_teardown(&p, reached, out);
	autoclose_fd(&p.svc.share_listen);
	share_slot_close(&slot);
	return rc;
}

bool sandbox_shared(const struct sandbox_handle *h, const char **id, bool *joined)
{
	if (!h || !h->shared)
		return false;
	*id = h->sandbox_id;
	*joined = h->joined;
	return true;
}

int sandbox_return(struct sandbox_handle *h, struct cc_error *err)
{
	/* A forked child (sshd's post-auth child running pam_end, say) stays
	 * where it is: only the process that entered goes back. */
	if (!h || !h->inside || h->owner != getpid())
		return 0;
	for (size_t i = 0; i < NSAVED; i++)
		if (h->ns[i] >= 0 && setns(h->ns[i], saved_ns[i].type) < 0)
			return cc_fail_errno(err, "returning to the host's %s namespace",
					     saved_ns[i].name);
	if (chdir(h->cwd) < 0 && chdir("/") < 0)
		return cc_fail_errno(err, "returning to the working directory");
	if (cgroup_leave(h->cgroup, err) < 0 || cgroup_return(h->cgroup_origin, err) < 0)
		return -1;
	h->inside = false;
	return 0;
}

void sandbox_end(struct sandbox_handle *h)
{
	if (!h)
		return;
	/* SIGKILL to a namespace's init kills every process in it. A shared
	 * sandbox's pid 1 ends it itself, with or after its last login; the
	 * first login's record is the sandbox's, and stays as long. */
	if (h->owner == getpid() && h->pidfd >= 0 && !h->shared) {
		sys_pidfd_send_signal(h->pidfd, SIGKILL);
		record_remove(h->recorded);
	} else if (h->owner == getpid() && h->joined) {
		record_remove(h->recorded);
	}
	handle_close(h);
}

bool sandbox_inside(const struct sandbox_handle *h)
{
	return h && h->inside;
}

bool sandbox_expired(const struct sandbox_handle *h)
{
	return h && h->deadline && sandbox_boottime() >= h->deadline;
}

#define CODE_PATHS_TEXT "/etc, /usr, /lib*, /bin, /sbin and the nscd, systemd " \
	"and dbus directories of /run and /var/run"
