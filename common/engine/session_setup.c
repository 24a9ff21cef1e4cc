// SPDX-License-Identifier: GPL-2.0-or-later
/* The session process's setup steps, from the new root to exec. */
/* The session process: builds the new root, joins the namespaces and
 * pivots (build_steps, both modes), then, in run mode, becomes the user
 * and execs the command (command_steps). */
#include "sandbox_internal.h"

/* For the command: what the caller had, as if it had exec'd the command
 * itself. A handler of the caller's becomes SIG_DFL here rather than at
 * exec, so that a signal pending since the setup cannot run caller code
 * in this process. A login's command starts as login and sshd start a
 * shell: every disposition default, nothing blocked (the caller ignores
 * the terminal's stop signals, and ignoring survives exec). */
static void signals_for_command(const struct run_supervised *sup)
{
	const struct saved_signals *saved = &sup->saved;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	if (sup->run.req->login) {
		sa.sa_handler = SIG_DFL;
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				sigaction(sig, &sa, NULL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		return;
	}
	for (size_t i = 0; i <= NFORWARDED; i++) {
		const struct sigaction *old = i < NFORWARDED ? &saved->act[i]
							     : &saved->chld;
		int sig = i < NFORWARDED ? sandbox_forwarded[i] : SIGCHLD;
		sa.sa_handler = old->sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &saved->mask, NULL);
}

static int loopback_up(struct cc_error *err)
{
	int s AUTOCLOSE = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return cc_fail_errno(err, "socket for the loopback interface");
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return cc_fail_errno(err, "reading the loopback interface's flags");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return cc_fail_errno(err, "bringing the loopback interface up");
	return 0;
}

/* Enter the namespaces pid 1 created (setns on a pidfd enters them all
 * at once). Creating a network namespace takes half a millisecond, which
 * pid 1 spends while this process builds the root. */
static int join_namespaces(struct run *run, struct cc_error *err)
{
	if (run->ready < 0 || run->joined)
		return 0;
	run->joined = true;
	char c = 0;
	if (report_read_byte(run->ready, &c) != 1)
		return cc_fail(err, "pid 1 did not create the namespaces");
	if (c == REPORT_NAMESPACES_FAILED) {
		/* cocoon-init's failure, and the error number. */
		char number[16] = "";
		ssize_t n = read(run->ready, number, sizeof(number) - 1);
		int e = n > 0 ? atoi(number) : 0;
		return cc_fail(err, "pid 1 could not create the namespaces: %s",
			       e > 0 ? strerror(e) : "no reason given");
	}
	if (c != REPORT_NAMESPACES_MADE)
		return cc_fail(err, "pid 1 did not create the namespaces");
	if (!run->late_ns)
		return 0;
	int pidfd AUTOCLOSE = sys_pidfd_open(1, 0);
	if (pidfd < 0)
		return cc_fail_errno(err, "pidfd_open 1");
	if (setns(pidfd, (int)run->late_ns) < 0)
		return cc_fail_errno(err, "joining pid 1's namespaces");
	return 0;
}

/* pivot_root changes the root of every process whose root is the old
 * one, pid 1 included: in service mode a cocoon-init linked against glibc
 * (no musl at build time) has its loader read the host's libraries first.
 * Pid 1 closes every descriptor once it reads no more files. */
static int wait_for_init(struct run *run, struct cc_error *err)
{
	if (run->ready < 0)
		return 0;
	char c;
	ssize_t n = report_read_byte(run->ready, &c);
	close(run->ready);
	run->ready = -1;
	if (n != 0)
		return cc_fail(err, "waiting for pid 1: unexpected %s",
			       n < 0 ? strerror(errno) : "data");
	return 0;
}

static bool plan_has(const struct plan *plan, enum op_type type)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (plan->ops[i].type == type)
			return true;
	return false;
}

/* The user namespace comes last, after the switch to the user: it maps
 * only the user's uid and gid, is owned by the user, and owns none of the
 * sandbox's other namespaces, so the capabilities it grants reach
 * nothing. The caller, root in the parent namespace, writes the maps:
 * this process can no longer open its own map files (they belong to root
 * while it is not dumpable), and making it dumpable would let the user
 * ptrace a process that still holds the caller's memory. */
static int user_namespace(const struct run *run, struct cc_error *err)
{
	if (unshare(CLONE_NEWUSER) < 0)
		return cc_fail_errno(err, "unshare user namespace");
	int pidfd = sys_pidfd_open(getpid(), 0);
	if (pidfd < 0)
		return cc_fail_errno(err, "pidfd_open");
	int sent = report_send_fd(run->sock, REPORT_USERNS_MAPS, pidfd);
	close(pidfd);
	if (sent < 0)
		return cc_fail_errno(err, "asking for the user namespace's maps");
	char reply = 0;
	ssize_t n = report_read_byte(run->sock, &reply);
	if (n == 1 && reply == REPORT_MAPS_FAILED)
		_exit(127); /* the caller holds the reason */
	if (n != 1 || reply != REPORT_MAPS_WRITTEN)
		return cc_fail(err, "the user namespace's maps were not written");
	return 0;
}

static int enter_dir(const struct plan *plan, struct cc_error *err)
{
	if (plan->chdir) {
		if (chdir(plan->chdir) < 0)
			return cc_fail_errno(err, "chdir %s", plan->chdir);
		return 0;
	}
	const char *home = plan->who.home;
	if (home && home[0] == '/' && chdir(home) == 0)
		return 0;
	if (chdir("/") < 0)
		return cc_fail_errno(err, "chdir /");
	return 0;
}

/* execve, searching the environment's PATH (as execvp would) when the
 * command names no directory. Runs as the user, inside the sandbox. */
static void exec_command(const struct sandbox_request *req, struct cc_error *err)
{
	if (strchr(req->path, '/')) {
		execve(req->path, req->argv, req->envp);
		cc_fail_errno(err, "exec %s", req->path);
		return;
	}
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	for (char *const *e = req->envp; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	int first_errno = ENOENT;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char file[PATH_MAX];
		int n = snprintf(file, sizeof(file), "%.*s%s%s", (int)(end - p), p,
				 end > p ? "/" : "", req->path);
		if (n > 0 && (size_t)n < sizeof(file)) {
			execve(file, req->argv, req->envp);
			if (errno != ENOENT && errno != ENOTDIR && first_errno == ENOENT)
				first_errno = errno;
		}
		if (!*end)
			break;
		p = end;
	}
	errno = first_errno;
	cc_fail_errno(err, "exec %s", req->path);
}

/* A session keyring of the session's own, empty: the caller's (the
 * user's own keys under cocoon-shell, root's or another user's through
 * cocoonctl) would otherwise be inherited, and possessing it lets the
 * command search and use every key in it. Joined here, as root, because
 * the seccomp filter refuses keyctl and, without a user namespace, is
 * loaded before the switch to the user (loading it later would need
 * no_new_privs, which the plan may turn off). A keyring joined as root
 * belongs to root and is charged to root's quota: it is given to the
 * user at once, which only CAP_SYS_ADMIN may do. */
static int new_keyring(const struct identity *who, struct cc_error *err)
{
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0) {
		if (errno == ENOSYS) /* a kernel without keys: none to inherit */
			return 0;
		return cc_fail_errno(err, "joining a new session keyring");
	}
	if (syscall(SYS_keyctl, KEYCTL_CHOWN, KEY_SPEC_SESSION_KEYRING, who->uid,
		    who->gid) < 0)
		return cc_fail_errno(err, "giving the session keyring to %s", who->user);
	return 0;
}

/* Whether the build needs the user's groups: always when it runs as the
 * user; in service mode, which builds as root and whose pid 2 exits once
 * built, only to open a bind source the user can write. */
static bool build_needs_groups(const struct plan *plan,
			       const struct service_setup *service)
{
	if (!service)
		return true;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		if ((op->type == OP_BIND || op->type == OP_RO_BIND ||
		     op->type == OP_DEV_BIND) && op->source_user_writable)
			return true;
	}
	return false;
}

/* What the build's steps share, in both modes. */
struct setup {
	struct run *run;
	/* Service mode: what its build adds (NULL: run mode). */
	const struct service_setup *service;
	const struct plan *plan;
	const struct identity *who; /* the user, groups looked up */
	struct identity full;       /* who, when the groups were looked up here */
	bool user_build;            /* the build runs as the user */
	int rootfd;                 /* the new root, until the pivot */
};

static int step_undumpable(struct setup *s, struct cc_error *err)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return cc_fail_errno(err, "PR_SET_DUMPABLE");
	(void)s;
	return 0;
}

/* Groups the caller left for later are looked up here, on the host and
 * (with a pid namespace, whose pid 1 makes the others later) in its
 * network namespace, before anything is built: the NSS modules then load
 * into this process, which execs, and not into the caller, which waits
 * out the session. */
static int step_groups(struct setup *s, struct cc_error *err)
{
	s->user_build = build_needs_groups(s->plan, s->service);
	if (!s->user_build || !s->who->groups_later)
		return 0;
	identity_copy(&s->full, s->who);
	if (FAULT("groups", err) < 0 || identity_complete(&s->full, err) < 0)
		return -1;
	s->who = &s->full;
	return 0;
}

/* Before any mount: nothing done here may reach the host, and no host
 * mount event may reach in (a mount propagated into a read-only bind
 * would come with the host's flags). An mqueue file system belongs to
 * the ipc namespace of whoever mounts it: join before building in that
 * (rare) case. */
static int step_private_mounts(struct setup *s, struct cc_error *err)
{
	umask(0); /* modes in the plan are exact */
	/* With a pid namespace, pid 1 did this before forking. */
	if (!s->run->pid_ns && mounts_chroot_to_namespace(err) < 0)
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return cc_fail_errno(err, "making mount propagation private");
	if (plan_has(s->plan, OP_MQUEUE) && join_namespaces(s->run, err) < 0)
		return -1;
	return 0;
}

static int step_build(struct setup *s, struct cc_error *err)
{
	if (FAULT("namespaces", err) < 0 ||
	    (s->user_build && creds_build_begin(s->who, err) < 0) ||
	    mounts_build(s->plan, s->service ? MOUNTS_SERVICE : 0, s->run->ptys,
			 &s->rootfd, err) < 0)
		return -1;
	if (s->service ? mounts_service_setup(s->plan, s->rootfd, s->service, err) < 0
		       : mounts_session_info(s->plan, s->rootfd, s->run->req->session_id,
					     err) < 0)
		return -1;
	return 0;
}

static int step_join(struct setup *s, struct cc_error *err)
{
	if (FAULT("joining namespaces", err) < 0 || join_namespaces(s->run, err) < 0)
		return -1;
	if ((s->plan->namespaces & NS_NET) && loopback_up(err) < 0)
		return -1;
	const char *name = s->plan->hostname;
	if (name && sethostname(name, strlen(name)) < 0)
		return cc_fail_errno(err, "sethostname %s", name);
	return 0;
}

/* From here on the only file system is the sandbox's, parts of which the
 * user shapes. Nothing after reads a file while privileged: no NSS (who
 * was resolved before), no locale (C, set at the start), no dlopen; the
 * seccomp filter was built before the clone. In service mode the
 * process's work ends here (sandbox_session_service): the service joins
 * through pid 1, which holds it all. */
static int step_pivot(struct setup *s, struct cc_error *err)
{
	if (wait_for_init(s->run, err) < 0 || FAULT("pivot_root", err) < 0 ||
	    mounts_pivot(s->rootfd, err) < 0)
		return -1;
	close(s->rootfd);
	s->rootfd = -1;
	return 0;
}

/* The session process's build, in order, as the caller's root (the
 * host's credentials, in the session's mount namespace and, once joined,
 * its others). */
static const struct build_step {
	const char *name;
	int (*run)(struct setup *s, struct cc_error *err);
} build_steps[] = {
	{ "undumpable", step_undumpable },
	{ "groups", step_groups },
	{ "private mounts", step_private_mounts },
	{ "build the root", step_build }, /* as the user's fsuid, or root's */
	{ "join namespaces", step_join },
	{ "pivot_root", step_pivot },
};

static void build(struct setup *s)
{
	struct cc_error err = { "" };
	for (size_t i = 0; i < ARRAY_SIZE(build_steps); i++)
		if (build_steps[i].run(s, &err) != 0)
			sandbox_child_fail(s->run, &err);
}

/* What the command's steps share, in run mode: the build's user and
 * run mode's own. */
struct command_setup {
	struct run_supervised *sup;
	const struct plan *plan;
	const struct identity *who; /* the user, groups looked up */
};

static int step_rlimits(struct command_setup *c, struct cc_error *err)
{
	return rlimits_apply(c->sup->run.req->session_rlimits, &c->plan->limits, err);
}

/* As root, which landlock_restrict_self accepts without no_new_privs
 * (CAP_SYS_ADMIN): the wall then binds whatever the plan says. */
static int step_landlock(struct command_setup *c, struct cc_error *err)
{
	int wall = landlock_wall(c->plan->namespaces & NS_IPC, c->plan->landlock_scope);
	if (wall < 0)
		return cc_fail_errno(err, "landlock");
	if (wall == 0 && c->plan->landlock_required)
		return cc_fail(err, "landlock = required, and this kernel offers no "
			       "Landlock (ABI 2 or later)");
	return 0;
}

static int step_keyring(struct command_setup *c, struct cc_error *err)
{
	return new_keyring(c->who, err);
}

/* Loading a filter needs no_new_privs or CAP_SYS_ADMIN. Without a user
 * namespace it is loaded here, as root, the last privileged step: that
 * works whatever no_new_privs says, and it then binds setuid programs
 * run inside too. The filter refuses new user namespaces, so with one it
 * is loaded inside it (step_user_namespace), where the process holds
 * every capability (of that namespace only) until creds_drop_all. */
static int step_filter_as_root(struct command_setup *c, struct cc_error *err)
{
	if (c->plan->namespaces & NS_USER)
		return 0;
	return seccomp_load_filter(c->sup->filter, err);
}

static int step_become_user(struct command_setup *c, struct cc_error *err)
{
	return creds_become_user(c->who, err);
}

static int step_user_namespace(struct command_setup *c, struct cc_error *err)
{
	if (!(c->plan->namespaces & NS_USER))
		return 0;
	if (user_namespace(&c->sup->run, err) < 0 || creds_drop_bounding(err) < 0 ||
	    seccomp_load_filter(c->sup->filter, err) < 0 || creds_drop_all(err) < 0)
		return -1;
	return 0;
}

static int step_no_new_privs(struct command_setup *c, struct cc_error *err)
{
	if (c->plan->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return cc_fail_errno(err, "PR_SET_NO_NEW_PRIVS");
	return 0;
}

/* Without a pid namespace nothing ends the session when the caller is
 * killed; PR_SET_PDEATHSIG does, as cocoon-init's death would. */
static int step_process(struct command_setup *c, struct cc_error *err)
{
	if (enter_dir(c->plan, err) < 0)
		return -1;
	if (c->plan->new_session && setsid() < 0)
		return cc_fail_errno(err, "setsid");
	if (!c->sup->run.pid_ns && (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
				getppid() != c->sup->caller))
		return cc_fail(err, "the caller is gone");
	umask(c->sup->umask);
	signals_for_command(c->sup);
	/* The command gets 0, 1 and 2; the report socket stays open until
	 * the exec succeeds. */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return cc_fail_errno(err, "close_range");
	return 0;
}

/* Run mode's session process after the build, in order. ROOT: runs
 * with the caller's root credentials; USER: as the session's user. */
enum step_privilege { ROOT, USER };
static const struct command_step {
	const char *name;
	enum step_privilege privilege;
	int (*run)(struct command_setup *c, struct cc_error *err);
} command_steps[] = {
	{ "rlimits", ROOT, step_rlimits },
	{ "landlock", ROOT, step_landlock },
	{ "keyring", ROOT, step_keyring },
	{ "seccomp", ROOT, step_filter_as_root },
	{ "become the user", ROOT, step_become_user },
	{ "user namespace", USER, step_user_namespace },
	{ "no_new_privs", USER, step_no_new_privs },
	{ "process", USER, step_process },
};

/* Run mode: the build, then the command's steps and its exec. */
_Noreturn void sandbox_session(struct run_supervised *sup)
{
	struct run *run = &sup->run;
	struct setup s = { .run = run, .plan = run->plan, .who = run->who, .rootfd = -1 };
	build(&s);
	struct command_setup c = { .sup = sup, .plan = run->plan, .who = s.who };
	struct cc_error err = { "" };
	for (size_t i = 0; i < ARRAY_SIZE(command_steps); i++) {
		const struct command_step *step = &command_steps[i];
		/* Fail closed should a step before have left root's uid. */
		if (step->privilege == USER && geteuid() == 0)
			cc_fail(&err, "the setup step '%s' would run as root", step->name);
		else if (step->run(&c, &err) == 0)
			continue;
		sandbox_child_fail(run, &err);
	}
	exec_command(run->req, &err);
	sandbox_child_fail(run, &err);
}

/* Service mode: the build, reported; pid 1 holds what was built. */
_Noreturn void sandbox_session_service(struct run_service *svc)
{
	struct setup s = { .run = &svc->run, .service = svc->setup, .plan = svc->run.plan,
			   .who = svc->run.who, .rootfd = -1 };
	build(&s);
	_exit(report_send(svc->run.sock, svc->chrooted ? REPORT_BUILT_CHROOTED
						       : REPORT_BUILT) < 0 ? 127 : 0);
}
